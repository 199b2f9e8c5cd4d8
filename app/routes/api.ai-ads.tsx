// GET /api/ai-ads -> { ads, balance, cost, writer, renderer }: the signed-in user's AI ads (newest
// first) with their status and render progress, and their ai-ads credits.
// POST /api/ai-ads { objectID, brandKitId?, format? ("9:16" default, "4:5", "1:1"), freeShipping? (the seller's
// store ships it free, so the ad may say so; false by default) } -> 201 the new ad with its script, status "preview" (free; paid states
// only: 403 otherwise; unknown product 404).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { AD_FORMATS } from "~/domain/ai-ads/ai-ads";
import { AI_ADS_FEATURE } from "~/domain/ai-ads/ai-ads";
import { handleServiceErrors, methodNotAllowed, readJson } from "~/pages/http/http.server";
import { requireApiUser } from "~/pages/http/site-session.server";
import { aiAds, credits } from "~/services/index.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const [ads, balance] = await Promise.all([aiAds.list(user.id), credits.getBalance(user.id, AI_ADS_FEATURE)]);
  return Response.json({ ads, balance, cost: aiAds.cost, writer: aiAds.writer, renderer: aiAds.renderer });
}

const Body = z.object({
  objectID: z.string().trim().min(1).max(200),
  brandKitId: z.number().int().positive().max(2_147_483_647).nullable().optional(),
  format: z.enum(AD_FORMATS, { error: `must be one of ${AD_FORMATS.join(", ")}` }).optional(),
  freeShipping: z.boolean({ error: "must be true or false" }).optional(),
});

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  const user = await requireApiUser(request);
  const { objectID, brandKitId, format, freeShipping } = await readJson(request, Body);
  const ad = await handleServiceErrors(() => aiAds.create({ user, objectID, brandKitId, format, freeShipping }));
  return Response.json(ad, { status: 201 });
}
