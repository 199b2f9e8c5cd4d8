// Seed call: GET /api/anytrack?event=&id= -> 202 { ok, queued }: a conversion for AnyTrack's click id,
// for the signed-in user (401 anonymous). The event is one of AnyTrack's standard server-side events
// (400 otherwise); a repeat of the same event and click is queued once (docs/decisions/032).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { AnyTrackSchema } from "~/domain/marketing/outbox";
import { marketingGet } from "~/pages/marketing/api.server";

export function loader({ request }: LoaderFunctionArgs) {
  return marketingGet(request, "anyTrack", AnyTrackSchema);
}
