// GET /api/theme-tokens: the user's theme tokens, newest first, without tokens.
// POST /api/theme-tokens { themeId, selectedStore, whitelistedUrls, version, blockMessage? }: creates (or
// rotates) the theme's token and answers 201 with the entry and its authToken, the only time it is shown.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { AppError } from "~/domain/errors";
import { ThemeTokenInputSchema } from "~/domain/shopify/theme-tokens";
import { methodNotAllowed, readJson, toErrorResponse } from "~/pages/http/http.server";
import { requireUidMatch } from "~/pages/http/site-session.server";
import { themeTokens } from "~/services/index.server";

const noStore = { "Cache-Control": "private, no-store" };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUidMatch(request);
  return Response.json({ themeTokens: await themeTokens.listThemeTokens(user.id) }, { headers: noStore });
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  const user = await requireUidMatch(request);
  const input = await readJson(request, ThemeTokenInputSchema);
  try {
    return Response.json(await themeTokens.createThemeToken(user.id, input), { status: 201, headers: noStore });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    // Refusals are not cached either.
    const refused = toErrorResponse(error);
    refused.headers.set("Cache-Control", noStore["Cache-Control"]);
    return refused;
  }
}
