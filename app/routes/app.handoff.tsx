// POST /app/handoff { to, ... }: a one-time sign-in link to a site page (the checkout, Billing & credits,
// Discord), made inside Shopify admin for the user the shop is linked to (docs/decisions/016). The
// embedded page opens it in a new tab. The destination is named, never a URL: the server picks the path.
// JSON in and out; an unlinked shop gets 401 and no link.
import type { ActionFunctionArgs } from "@remix-run/node";
import { HandoffDestinationSchema, UNLINKED } from "~/domain/shopify/handoff";
import { getEnv } from "~/env.server";
import { methodNotAllowed, readJson } from "~/pages/http/http.server";
import { requireShop } from "~/pages/http/embedded-session.server";
import { handoff } from "~/services/index.server";

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const { shop, linkedUserId } = await requireShop(request);
  if (!linkedUserId) return Response.json({ error: UNLINKED(shop) }, { status: 401 });
  const destination = await readJson(request, HandoffDestinationSchema);
  const link = await handoff.create({ userId: linkedUserId, shop, destination });
  // The site's address: its session cookie belongs there, and so does the checkout.
  const url = new URL(link.path, getEnv().APP_URL ?? new URL(request.url).origin);
  return Response.json(
    { url: url.toString(), expiresAt: link.expiresAt.toISOString() },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export function loader() {
  return methodNotAllowed("POST");
}
