// POST /api/products/{objectID}/tariff { htsCode, origin } (null = back to the guess): the seller's own HTS code
// and country of origin, kept with their saved product (decision 052).
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { methodNotAllowed } from "~/pages/http/http.server";
import { setTariffAnswer } from "~/pages/landed-cost/api.server";
import { requireApiUser } from "~/pages/http/site-session.server";

const ObjectID = z.string().min(1).max(120);

export function loader() {
  return methodNotAllowed("POST");
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request);
  const objectID = ObjectID.safeParse(params.objectID);
  if (!objectID.success) return Response.json({ error: "objectID is not valid" }, { status: 400 });
  return Response.json(await setTariffAnswer({ request, userId: user.id, objectID: objectID.data }));
}
