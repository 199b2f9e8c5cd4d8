// POST /api/community/join: the user clicked through to the Discord invite (card or prompt). Records
// it (no more prompts) and answers { joined: true, inviteUrl }; 404 when no invite link is configured.
import type { ActionFunctionArgs } from "@remix-run/node";
import { NOT_CONFIGURED_MESSAGE } from "~/domain/community";
import { methodNotAllowed } from "~/pages/http/http.server";
import { requireApiUser } from "~/pages/http/site-session.server";
import { community } from "~/services/index.server";

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request);
  if (!community.inviteUrl) return Response.json({ error: NOT_CONFIGURED_MESSAGE }, { status: 404 });
  const { inviteUrl } = await community.markJoined(user.id);
  return Response.json({ joined: true, inviteUrl });
}

export function loader() {
  return methodNotAllowed("POST");
}
