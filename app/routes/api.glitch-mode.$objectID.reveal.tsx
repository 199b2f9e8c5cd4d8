// POST /api/glitch-mode/{objectID}/reveal -> 200 { glitch, charged, balance }: the product's supplier,
// cost, shipping, Amazon price and spread, kept in the caller's glitches. 1 glitch-mode credit the first
// time, nothing after (charged: false). 402 { upsell } when out of credits, 403 without paid access,
// 404 unknown product, 422 under the $19.00 Amazon price (docs/decisions/018).
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { handleServiceErrors, methodNotAllowed } from "~/pages/http/http.server";
import { requireApiUser } from "~/pages/http/site-session.server";
import { glitchMode } from "~/services/index.server";

const ObjectID = z.string().min(1).max(120);

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request);
  const objectID = ObjectID.safeParse(params.objectID);
  if (!objectID.success) return Response.json({ error: "objectID is not valid" }, { status: 400 });
  return Response.json(await handleServiceErrors(() => glitchMode.reveal(user, objectID.data)));
}

export function loader() {
  return methodNotAllowed("POST");
}
