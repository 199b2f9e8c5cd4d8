// GET /auth/discord: sends a signed-in user to Discord to allow connecting their account (OAuth2, scope
// identify), with a state cookie that the callback checks. POST /auth/discord disconnects the account.
// Without DISCORD_CLIENT_ID / DISCORD_CLIENT_SECRET the community is the invite link alone.
// (A static segment, so Shopify's auth.$ splat never sees these URLs.)
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { startDiscordConnect } from "~/pages/course/discord-connect.server";
import { requireUser } from "~/pages/http/site-session.server";
import { community } from "~/services/index.server";

const BACK = "/dashboard?location=dashboard";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const start = await startDiscordConnect(user.id);
  if (!start) return redirect(`${BACK}&discord=disabled#community`);
  return redirect(start.url, { headers: { "Set-Cookie": start.setCookie } });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  await community.disconnect(user.id);
  return redirect(`${BACK}&discord=disconnected#community`);
}
