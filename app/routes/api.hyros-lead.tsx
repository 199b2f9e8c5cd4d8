// Seed call: GET /api/hyros-lead?email=&currentUrl=&referer= -> 202 { ok, queued }. Only the signed-in
// user's own e-mail (401 anonymous, 403 another address): this cannot push arbitrary e-mails into our
// marketing (docs/decisions/032). 400 for a malformed query; delivery failures are never shown.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { HyrosLeadSchema } from "~/domain/marketing/outbox";
import { marketingGet } from "~/pages/marketing/api.server";

export function loader({ request }: LoaderFunctionArgs) {
  return marketingGet(request, "hyrosLead", HyrosLeadSchema);
}
