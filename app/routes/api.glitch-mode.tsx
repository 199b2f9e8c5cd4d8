// GET /api/glitch-mode?page={n} -> the qualifying products (Amazon price >= $19.00) ranked by spread, 12 a
// page, with how many qualify, the caller's revealed glitches and glitch-mode balance (docs/decisions/018).
// Without paid access the rows carry titles only. A bad page -> 400 naming it.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { parseGlitchListQuery } from "~/domain/glitch-mode/glitch";
import { handleServiceErrors, methodNotAllowed } from "~/pages/http/http.server";
import { requireApiUser } from "~/pages/http/site-session.server";
import { glitchMode } from "~/services/index.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const list = await handleServiceErrors(async () => glitchMode.list(user, parseGlitchListQuery(new URL(request.url).searchParams).page));
  return Response.json(list, { headers: { "Cache-Control": "private, no-store" } });
}

export function action() {
  return methodNotAllowed("GET");
}
