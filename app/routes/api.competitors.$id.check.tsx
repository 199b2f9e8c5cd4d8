// POST /api/competitors/{id}/check -> 202 { queued: true }: the store is read again as soon as a worker is free
// (never twice at once). 429 with Retry-After and a sentence past the limits (one per store per 10 minutes,
// a few an hour); 403 without a paid state; another user's id: 404.
import type { ActionFunctionArgs } from "@remix-run/node";
import { competitorCall, competitorIdParam } from "~/pages/competitors/api.server";
import { methodNotAllowed } from "~/pages/http/http.server";
import { requireUidMatch } from "~/pages/http/site-session.server";
import { competitors } from "~/services/index.server";

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireUidMatch(request);
  const id = competitorIdParam(params.id);
  const queued = await competitorCall(() => competitors.checkNow(user, id));
  return Response.json(queued, { status: 202 });
}

export function loader() {
  return methodNotAllowed("POST");
}
