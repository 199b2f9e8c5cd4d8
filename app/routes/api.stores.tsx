// GET /api/stores: the signed-in user's Shopify stores (seed shopify_info.stores; the legacy single-store
// fields as one entry marked legacy: true) and the Zendrop flag. Tokens are never part of the answer.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUidMatch } from "~/pages/http/site-session.server";
import { stores } from "~/services/index.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUidMatch(request);
  return Response.json(await stores.listStores(user.id), { headers: { "Cache-Control": "private, no-store" } });
}
