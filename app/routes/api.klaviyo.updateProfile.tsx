// Seed call: POST /api/klaviyo/updateProfile?uid= { email, klaviyoId, countryCode, phoneNumber, properties (status, courseProgress, discordMember, userId, lastLogin) } -> 202 { ok, queued }.
// 401 anonymous, 403 another user's uid or e-mail, 400 a malformed body; delivery is the outbox's
// (docs/decisions/032) and its failures are never shown to the user.
import type { ActionFunctionArgs } from "@remix-run/node";
import { UpdateProfileSchema } from "~/domain/marketing/outbox";
import { methodNotAllowed } from "~/pages/http/http.server";
import { marketingPost } from "~/pages/marketing/api.server";

export function action({ request }: ActionFunctionArgs) {
  return marketingPost(request, "updateProfile", UpdateProfileSchema);
}

export function loader() {
  return methodNotAllowed("POST");
}
