// GET /api/theme/license?themeId=, called by a storefront theme with Authorization: Bearer <authToken>.
// CORS headers only for the token's whitelisted origins; everything else is 403 without them, so a
// browser on another site cannot read the answer (docs/decisions/014). OPTIONS answers the preflight.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { themeTokens } from "~/services/index.server";

const DENIED = { valid: false, error: "This theme licence is not valid here." };

function corsHeaders(origin: string): Record<string, string> {
  return {
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Allow-Methods": "GET, OPTIONS",
    "Access-Control-Allow-Headers": "Authorization",
    "Access-Control-Max-Age": "600",
    Vary: "Origin",
  };
}

function denied() {
  return Response.json(DENIED, { status: 403, headers: { Vary: "Origin", "Cache-Control": "no-store" } });
}

/** GET answers the licence check; OPTIONS (which Remix hands to a resource route's loader) the preflight. */
export async function loader({ request }: LoaderFunctionArgs) {
  const themeId = new URL(request.url).searchParams.get("themeId") ?? "";
  const requestOrigin = request.headers.get("origin");
  if (request.method === "OPTIONS") {
    const origin = await themeTokens.preflightOrigin({ themeId, origin: requestOrigin });
    if (!origin) return denied();
    return new Response(null, { status: 204, headers: corsHeaders(origin) });
  }
  const authToken = request.headers.get("authorization")?.match(/^Bearer\s+(\S+)\s*$/i)?.[1] ?? null;
  const licence = await themeTokens.checkLicence({ themeId, authToken, origin: requestOrigin });
  if (!licence) return denied();
  const { origin, ...body } = licence;
  return Response.json(body, { headers: { ...corsHeaders(origin), "Cache-Control": "no-store" } });
}

export function action() {
  return Response.json({ error: "Use GET." }, { status: 405, headers: { Allow: "GET, OPTIONS" } });
}
