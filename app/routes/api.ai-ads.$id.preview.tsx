// POST /api/ai-ads/{id}/preview -> 202 with the ad, its previewVideo "rendering": a free 540x960 preview of
// the saved script, marked "Preview" (docs/decisions/036); no credits. 200 with the ad as it is when a
// preview of the saved script exists or is already rendering. Read progress with GET /api/ai-ads/{id}
// (previewVideo.progress, then previewVideo.url). 409 for an ad rendered or rendering in full; 422 for a
// script that does not pass the checks; 429 past the day's free previews (limit and nextAt in the body);
// no paid state -> 403; not your ad -> 404.
import type { ActionFunctionArgs } from "@remix-run/node";
import { parseAdId } from "~/pages/ai-ads/ai-ads.server";
import { handleServiceErrors, methodNotAllowed } from "~/pages/http/http.server";
import { requireApiUser } from "~/pages/http/site-session.server";
import { aiAds } from "~/services/index.server";

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request);
  const id = parseAdId(params.id);
  const { ad, queued } = await handleServiceErrors(() => aiAds.preview(user, id));
  return Response.json(ad, { status: queued || ad.previewVideo?.status === "rendering" ? 202 : 200 });
}

export function loader() {
  return methodNotAllowed("POST");
}
