// POST /api/product-pages/{id}/push { shop, status? } -> the pushed page (a DRAFT product unless
// status is "ACTIVE"), with the images sent and skipped. Shopify refusing the product -> 422, Shopify
// failing or throttling past our retries -> 502; both with the failed page. Not your page -> 404.
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { MyshopifyDomainSchema } from "~/domain/shopify/install";
import { handleServiceErrors, methodNotAllowed, readJson } from "~/pages/http/http.server";
import { requireApiUser } from "~/pages/http/site-session.server";
import { productPages } from "~/services/index.server";

const Body = z.object({
  shop: MyshopifyDomainSchema,
  status: z.enum(["DRAFT", "ACTIVE"]).default("DRAFT"),
});

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request);
  const id = z.coerce.number().int().positive().max(2_147_483_647).safeParse(params.id);
  if (!id.success) return Response.json({ error: "No such product page." }, { status: 404 });
  const { shop, status } = await readJson(request, Body);
  const outcome = await handleServiceErrors(() =>
    productPages.push({ userId: user.id, id: id.data, shop, shopifyStatus: status }),
  );
  return Response.json({ page: outcome.page, media: outcome.media });
}

export function loader() {
  return methodNotAllowed("POST");
}
