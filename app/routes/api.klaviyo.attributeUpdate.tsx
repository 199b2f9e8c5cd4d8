// Seed call: POST /api/klaviyo/attributeUpdate?uid= { email, klaviyoId, attribute, value } -> 202 { ok, queued }.
// 401 anonymous, 403 another user's uid or e-mail, 400 a malformed body; delivery is the outbox's
// (docs/decisions/032) and its failures are never shown to the user.
import type { ActionFunctionArgs } from "@remix-run/node";
import { AttributeUpdateSchema } from "~/domain/marketing/outbox";
import { methodNotAllowed } from "~/pages/http/http.server";
import { marketingPost } from "~/pages/marketing/api.server";

export function action({ request }: ActionFunctionArgs) {
  return marketingPost(request, "attributeUpdate", AttributeUpdateSchema);
}

export function loader() {
  return methodNotAllowed("POST");
}
