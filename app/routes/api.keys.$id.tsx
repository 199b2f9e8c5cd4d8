// DELETE /api/keys/{id}: revokes one of the signed-in user's API keys at once (it answers 401 from then on);
// another user's or an unknown id: 404. Decision 053.
import type { ActionFunctionArgs } from "@remix-run/node";
import { revokeApiKeyAnswer } from "~/pages/accounts/api-keys.server";
import { methodNotAllowed } from "~/pages/http/http.server";
import { requireApiUser } from "~/pages/http/site-session.server";

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed("DELETE");
  const user = await requireApiUser(request);
  return revokeApiKeyAnswer(user, params.id);
}

export function loader() {
  return methodNotAllowed("DELETE");
}
