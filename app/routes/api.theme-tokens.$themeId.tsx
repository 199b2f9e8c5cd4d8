// DELETE /api/theme-tokens/{themeId}: revokes the theme's token; the theme's licence checks fail from now on.
import type { ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/pages/http/http.server";
import { requireUidMatch } from "~/pages/http/site-session.server";
import { themeTokens } from "~/services/index.server";

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed("DELETE");
  const user = await requireUidMatch(request);
  const themeId = params.themeId ?? "";
  if (!(await themeTokens.revokeThemeToken(user.id, themeId))) {
    return Response.json({ error: `You have no active token for theme ${themeId}.` }, { status: 404 });
  }
  return Response.json({ themeId, revoked: true });
}

export function loader() {
  return methodNotAllowed("DELETE");
}
