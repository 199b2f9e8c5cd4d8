// GET /api/drops -> { nextDropDate, drops: [{ date, productCount, revealed }] }: the visible weekly product drops,
// newest first, and the date of the next one (docs/decisions/030). Anonymous: 401.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/pages/http/http.server";
import { requireApiUser } from "~/pages/http/site-session.server";
import { productDrops } from "~/services/index.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  return Response.json(await productDrops.list(user.id), { headers: { "Cache-Control": "private, no-store" } });
}

export function action() {
  return methodNotAllowed("GET");
}
