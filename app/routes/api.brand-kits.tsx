// GET /api/brand-kits -> { kits, fonts }: the signed-in user's brand kits (the default first), each with its
// owner-only logoUrl and contrast warnings, and the fonts a kit may choose.
// POST /api/brand-kits: JSON { name, primaryColour, accentColour, textColour?, font?, tagline?, tone?,
// isDefault? }, or multipart/form-data with the same fields and a `logo` file (PNG, JPEG or SVG, at most
// 512 KB) -> 201 the kit. 422 { fieldErrors } naming each field; 413 too large; 415 not an image by its bytes.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { BRAND_FONTS } from "~/domain/ai-ads/brand-kits";
import { readKitUpload } from "~/pages/ai-ads/brand-kits.server";
import { handleServiceErrors, methodNotAllowed } from "~/pages/http/http.server";
import { requireApiUser } from "~/pages/http/site-session.server";
import { brandKits } from "~/services/index.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  return Response.json({ kits: await brandKits.list(user.id), fonts: BRAND_FONTS });
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  const user = await requireApiUser(request);
  const { fields, logo } = await readKitUpload(request);
  const kit = await handleServiceErrors(() => brandKits.create(user.id, fields, logo === "remove" ? undefined : logo));
  return Response.json(kit, { status: 201 });
}
