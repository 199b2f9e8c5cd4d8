// Seed call: POST /api/paddle-api/previewPrices?uid= -> { newPrice, newPrice2, innerCircle } as Paddle
// formats them for the buyer's country; the catalogue's USD prices when Paddle cannot answer.
import type { ActionFunctionArgs } from "@remix-run/node";
import { requireUidMatch } from "~/pages/http/site-session.server";
import { billing } from "~/services/index.server";
import { clientCountry, clientIp, methodNotAllowed } from "~/pages/http/http.server";

export async function action({ request }: ActionFunctionArgs) {
  await requireUidMatch(request);
  const prices = await billing.previewPrices({ customerIp: clientIp(request), countryCode: clientCountry(request) });
  return Response.json(prices);
}

export function loader() {
  return methodNotAllowed("POST");
}
