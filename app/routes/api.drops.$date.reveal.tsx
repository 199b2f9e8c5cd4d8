// POST /api/drops/{date}/reveal -> 200 { date, productCount, revealed: true, products }: the date joins the
// caller's revealed dates (revealing again changes nothing). 403 { upgradeUrl } without a paid state, 404 for
// a date with no visible drop, 400 for a malformed date (docs/decisions/030).
import type { ActionFunctionArgs } from "@remix-run/node";
import { handleServiceErrors, methodNotAllowed } from "~/pages/http/http.server";
import { requireApiUser } from "~/pages/http/site-session.server";
import { productDrops } from "~/services/index.server";

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request);
  return Response.json(await handleServiceErrors(() => productDrops.reveal(user, params.date ?? "")));
}

export function loader() {
  return methodNotAllowed("POST");
}
