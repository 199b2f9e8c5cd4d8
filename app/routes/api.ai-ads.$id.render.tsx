// POST /api/ai-ads/{id}/render -> 202 with the ad, status "rendering": 5 ai-ads credits spent once for
// this render (asking again charges nothing: 202 while it renders, 200 once completed). Read progress
// with GET /api/ai-ads/{id}. Not enough credits -> 402 { upsell, cost, remaining }; no paid state -> 403;
// not your ad -> 404. A failed render is refunded and its ad says why in `errors`.
import type { ActionFunctionArgs } from "@remix-run/node";
import { parseAdId } from "~/pages/ai-ads/ai-ads.server";
import { handleServiceErrors, methodNotAllowed } from "~/pages/http/http.server";
import { requireApiUser } from "~/pages/http/site-session.server";
import { aiAds } from "~/services/index.server";

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request);
  const id = parseAdId(params.id);
  const { ad, queued } = await handleServiceErrors(() => aiAds.render(user, id));
  return Response.json(ad, { status: queued || ad.status === "rendering" ? 202 : 200 });
}

export function loader() {
  return methodNotAllowed("POST");
}
