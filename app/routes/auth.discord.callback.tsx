// GET /auth/discord/callback?code&state (or ?error): Discord sends the browser back here. The code is
// exchanged at Discord's token endpoint, /users/@me says who it is, and discordId / discordUserName
// are stored. The dashboard then says what happened (?discord=connected|denied|state|taken|failed).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { finishDiscordConnect } from "~/pages/course/discord-connect.server";
import { requireUser } from "~/pages/http/site-session.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { result, clearCookie } = await finishDiscordConnect(user.id, request);
  const outcome = result.ok ? "connected" : result.reason;
  return redirect(`/dashboard?location=dashboard&discord=${outcome}#community`, { headers: { "Set-Cookie": clearCookie } });
}
