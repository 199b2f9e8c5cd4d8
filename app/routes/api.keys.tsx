// GET /api/keys: the signed-in user's API keys (never the keys themselves), their limits and the monthly
// allowance used. POST /api/keys { "name": "..." } -> 201 { key, id, name, prefix, scopes, ... }: a new key,
// shown this once; paid states only (403 with a sentence otherwise). Decision 053.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiKeysSection, createApiKeyAnswer } from "~/pages/accounts/api-keys.server";
import { methodNotAllowed } from "~/pages/http/http.server";
import { requireApiUser } from "~/pages/http/site-session.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  return Response.json(await apiKeysSection(user), { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  return createApiKeyAnswer(request, await requireApiUser(request));
}
