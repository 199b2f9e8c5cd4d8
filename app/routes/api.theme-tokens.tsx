// GET /api/theme-tokens: the user's theme tokens, newest first, without tokens.
// POST /api/theme-tokens { themeId, selectedStore, whitelistedUrls, version, blockMessage? }: creates (or
// rotates) the theme's token and answers 201 with the entry and its authToken, the only time it is shown.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed, readJson } from "~/pages/http.server";
import { auth, themeTokens } from "~/services/index.server";
import { ThemeTokenInputSchema } from "~/services/theme-tokens.server";

const noStore = { "Cache-Control": "private, no-store" };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await auth.requireUidMatch(request);
  return Response.json({ themeTokens: await themeTokens.listThemeTokens(user.id) }, { headers: noStore });
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  const user = await auth.requireUidMatch(request);
  const input = await readJson(request, ThemeTokenInputSchema);
  const result = await themeTokens.createThemeToken(user.id, input);
  if (!result.ok) return Response.json({ error: result.error }, { status: result.status, headers: noStore });
  return Response.json(result.entry, { status: 201, headers: noStore });
}
