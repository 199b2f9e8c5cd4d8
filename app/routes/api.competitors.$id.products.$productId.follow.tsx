// POST /api/competitors/{id}/products/{productId}/follow -> { productId, followed: true }: the user is told when
// the product's price drops. DELETE -> { productId, followed: false }. Another user's store or an unknown
// product: 404; following needs a paid state (403).
import type { ActionFunctionArgs } from "@remix-run/node";
import { competitorCall, competitorIdParam, productIdParam } from "~/pages/competitors/api.server";
import { methodNotAllowed } from "~/pages/http/http.server";
import { requireUidMatch } from "~/pages/http/site-session.server";
import { competitors } from "~/services/index.server";

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST" && request.method !== "DELETE") return methodNotAllowed("POST, DELETE");
  const user = await requireUidMatch(request);
  const id = competitorIdParam(params.id);
  const productId = productIdParam(params.productId);
  if (request.method === "POST") return Response.json(await competitorCall(() => competitors.followProduct(user, id, productId)));
  return Response.json(await competitorCall(() => competitors.unfollowProduct(user.id, id, productId)));
}

export function loader() {
  return methodNotAllowed("POST, DELETE");
}
