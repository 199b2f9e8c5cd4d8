// POST /api/stores/{shop}/disconnect: the store stays in the list as disconnected; its stored token and
// Shopify sessions are deleted. {shop} is the myshopify.com domain, or "legacy" for the legacy entry.
import type { ActionFunctionArgs } from "@remix-run/node";
import { handleServiceErrors, methodNotAllowed } from "~/pages/http/http.server";
import { requireUidMatch } from "~/pages/http/site-session.server";
import { stores } from "~/services/index.server";

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireUidMatch(request);
  await handleServiceErrors(() => stores.disconnectStore(user.id, (params.shop ?? "").toLowerCase()));
  return Response.json(await stores.listStores(user.id), { headers: { "Cache-Control": "private, no-store" } });
}

export function loader() {
  return methodNotAllowed("POST");
}
