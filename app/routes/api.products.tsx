// GET /api/products: the product search for both surfaces and the assistant. Same parameters as the
// product grid's URL (app/domain/products/product-query.ts); an invalid parameter -> 400 naming it.
// correctedQuery / originalQuery: set when the built-in engine searched a spelling correction of q
// instead of q (literal=1 searches q as typed); null otherwise, and always with Algolia.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { researchAccess } from "~/domain/products/research-access";
import { handleServiceErrors } from "~/pages/http/http.server";
import { searchResultPage } from "~/pages/research/research.server";
import { requireApiUser } from "~/pages/http/site-session.server";
import { products } from "~/services/index.server";
import { parseProductQuery } from "~/domain/products/product-query";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const params = new URL(request.url).searchParams;
  params.delete("uid");
  const result = await handleServiceErrors(() => products.search({ userId: user.id, access: researchAccess(user), query: parseProductQuery(params) }));
  return Response.json(searchResultPage(result), { headers: { "Cache-Control": "private, no-store" } });
}
