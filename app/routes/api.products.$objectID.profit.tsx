// GET /api/products/{objectID}/profit?priceCents=&cpaCents=&hts=&origin=&fees=: landed cost (duty layers, fees,
// reserves) and profit of one order (decision 052). 422 "Add your cost" when the cost is unknown.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { researchAccess } from "~/domain/products/research-access";
import { productProfitAnswer } from "~/pages/landed-cost/api.server";
import { requireApiUser } from "~/pages/http/site-session.server";

const ObjectID = z.string().min(1).max(120);

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const objectID = ObjectID.safeParse(params.objectID);
  if (!objectID.success) return Response.json({ error: "objectID is not valid" }, { status: 400 });
  return Response.json(await productProfitAnswer({ request, userId: user.id, objectID: objectID.data, access: researchAccess(user) }));
}
