// POST /api/product-pages/automatic { objectID, shop } -> automatic mode: a page generated and pushed
// to the store in one step, for 4 automatic-mode credits. 200 { page, cost, remaining }; 402
// { upsell: true } when the balance is short (nothing written or sent); a failed push answers its
// status with { error, page, refunded: true, remaining }. An Idempotency-Key header makes a retried
// request run (and charge) once.
import type { ActionFunctionArgs } from "@remix-run/node";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { MyshopifyDomainSchema } from "~/domain/shopify/install";
import { handleServiceErrors, methodNotAllowed, readJson } from "~/pages/http/http.server";
import { requireApiUser } from "~/pages/http/site-session.server";
import { productPages } from "~/services/index.server";

const Body = z.object({
  objectID: z.string().trim().min(1).max(120),
  shop: MyshopifyDomainSchema,
  status: z.enum(["DRAFT", "ACTIVE"]).default("DRAFT"),
});

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request);
  const key = request.headers.get("idempotency-key");
  if (key !== null && !/^[A-Za-z0-9_.:-]{8,100}$/.test(key)) {
    return Response.json({ error: "Idempotency-Key must be 8-100 letters, digits or ._:-" }, { status: 400 });
  }
  const { objectID, shop, status } = await readJson(request, Body);
  const outcome = await handleServiceErrors(() =>
    productPages.runAutomaticMode({
      userId: user.id,
      objectID,
      shop,
      requestKey: key ?? randomUUID(),
      shopifyStatus: status,
    }),
  );
  return Response.json({
    page: outcome.page,
    cost: outcome.cost,
    remaining: outcome.remaining,
    replayed: outcome.replayed,
  });
}

export function loader() {
  return methodNotAllowed("POST");
}
