// GET /api/ai-ads/{id} -> the ad (status, progress 0-100 while rendering, errors, storageUrl and
// downloadUrl once completed); PATCH { title?, brandKitId? (null: the default kit), format? ("9:16" | "4:5" | "1:1"), voiceOver?, musicTrack? (a file name from the server's music folder, or null), scenes?: [{ text?, durationMs? }, ...] (one per scene) }
// -> the edited ad, or 422 { fieldErrors } naming the fields; DELETE -> { deleted: true } (its video
// file too). Another user's ad: 404. A rendering ad cannot be edited or deleted (409).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { AD_FORMATS } from "~/domain/ai-ads/ai-ads";
import { parseAdId as adId } from "~/pages/ai-ads/ai-ads.server";
import { handleServiceErrors, methodNotAllowed, readJson } from "~/pages/http/http.server";
import { requireApiUser } from "~/pages/http/site-session.server";
import { aiAds } from "~/services/index.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const id = adId(params.id);
  return Response.json(await handleServiceErrors(() => aiAds.get(user.id, id)));
}

const Patch = z
  .object({
    title: z.string().max(1000),
    brandKitId: z.number().int().positive().max(2_147_483_647).nullable(),
    format: z.enum(AD_FORMATS, { error: `must be one of ${AD_FORMATS.join(", ")}` }),
    voiceOver: z.boolean(),
    musicTrack: z.string().min(1).max(200).nullable(),
    voice: z.string().min(1).max(60).nullable(),
    scenes: z
      .array(
        z
          .object({
            text: z.string().max(1000),
            durationMs: z.number({ error: "must be a number of milliseconds" }).int("must be whole milliseconds"),
          })
          .partial()
          .strict(),
      )
      .max(12),
  })
  .partial()
  .strict();

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireApiUser(request);
  const id = adId(params.id);
  if (request.method === "PATCH") {
    const edit = await readJson(request, Patch);
    return Response.json(await handleServiceErrors(() => aiAds.update(user.id, id, edit)));
  }
  if (request.method === "DELETE") return Response.json(await handleServiceErrors(() => aiAds.remove(user.id, id)));
  return methodNotAllowed("GET, PATCH, DELETE");
}
