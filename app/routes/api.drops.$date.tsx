// GET /api/drops/{date} -> { date, productCount, revealed: true, products } once the caller revealed the drop;
// 403 { reveal: { method, url } } before (with upgradeUrl without a paid state); 404 for a date with no
// visible drop (unpublished or still ahead); 400 for a date not written YYYY-MM-DD (docs/decisions/030).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { handleServiceErrors, methodNotAllowed } from "~/pages/http/http.server";
import { requireApiUser } from "~/pages/http/site-session.server";
import { productDrops } from "~/services/index.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const drop = await handleServiceErrors(() => productDrops.get(user, params.date ?? ""));
  return Response.json(drop, { headers: { "Cache-Control": "private, no-store" } });
}

export function action() {
  return methodNotAllowed("GET");
}
