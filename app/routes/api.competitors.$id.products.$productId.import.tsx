// POST /api/competitors/{id}/products/{productId}/import -> 201 { objectID }: the rival's product (its title,
// price and images) added to our product database through the product import; again updates it. Another
// user's store or an unknown product: 404; a paid state is needed (403).
import type { ActionFunctionArgs } from "@remix-run/node";
import { competitorCall, competitorIdParam, productIdParam } from "~/pages/competitors/api.server";
import { methodNotAllowed } from "~/pages/http/http.server";
import { requireUidMatch } from "~/pages/http/site-session.server";
import { competitors } from "~/services/index.server";

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireUidMatch(request);
  const id = competitorIdParam(params.id);
  const productId = productIdParam(params.productId);
  return Response.json(await competitorCall(() => competitors.importProduct(user, id, productId)), { status: 201 });
}

export function loader() {
  return methodNotAllowed("POST");
}
