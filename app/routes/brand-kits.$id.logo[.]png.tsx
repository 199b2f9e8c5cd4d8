// GET /brand-kits/{id}/logo.png: a brand kit's logo (always a PNG we drew: an uploaded SVG is never served).
// Only its owner gets it: the site's session cookie or a Shopify session token (bearer), or a signed link
// (?expires=&sig=) the embedded page hands its <img>, whose requests carry neither. Anyone else: 404.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { logoResponse } from "~/pages/ai-ads/brand-kits.server";
import { requireApiUser } from "~/pages/http/site-session.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  return logoResponse(request, params.id, () => requireApiUser(request));
}
