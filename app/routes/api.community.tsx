// GET /api/community: the invite link (or why there is none), whether the user joined or connected a
// Discord account, whether connecting is available, and the prompt due now (or null).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/pages/http/http.server";
import { requireApiUser } from "~/pages/http/site-session.server";
import { community } from "~/services/index.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  return Response.json(await community.overview(user), { headers: { "Cache-Control": "private, no-store" } });
}

export function action() {
  return methodNotAllowed("GET");
}
