// Connecting a Discord account over HTTP: the short-lived, signed state cookie that ties Discord's
// redirect back (/auth/discord/callback) to the browser and the user who started it (/auth/discord).
// The OAuth rules themselves are the community service's (app/services/community.server.ts).
import { createCookie } from "@remix-run/node";
import { getEnv, sessionSecret } from "~/env.server";
import type { ConnectResult, DiscordReturn } from "~/services/community.server";
import { community } from "~/services/index.server";

let cookie: ReturnType<typeof createCookie> | undefined;
function stateCookie() {
  const env = getEnv();
  return (cookie ??= createCookie("__discord_oauth", {
    secrets: [sessionSecret(env)],
    httpOnly: true,
    sameSite: "lax", // sent on the top-level redirect back from discord.com
    secure: env.NODE_ENV === "production",
    path: "/auth/discord",
    maxAge: 600,
  }));
}

/** Step 1: where to send the browser, and the cookie that remembers the state; null without OAuth keys. */
export async function startDiscordConnect(userId: string): Promise<{ url: string; setCookie: string } | null> {
  const start = community.startConnect();
  if (!start) return null;
  return { url: start.url, setCookie: await stateCookie().serialize({ state: start.state, userId }) };
}

/** Step 2: how connecting ended, and the header that clears the state cookie (whatever the ending). */
export async function finishDiscordConnect(
  userId: string,
  request: Request,
): Promise<{ result: ConnectResult; clearCookie: string }> {
  const clearCookie = await stateCookie().serialize("", { maxAge: 0, expires: new Date(0) });
  const url = new URL(request.url);
  const saved = (await stateCookie().parse(request.headers.get("cookie"))) as DiscordReturn["saved"];
  const result = await community.finishConnect(userId, {
    error: url.searchParams.get("error") || null,
    state: url.searchParams.get("state") ?? "",
    code: url.searchParams.get("code") ?? "",
    saved,
  });
  return { result, clearCookie };
}
