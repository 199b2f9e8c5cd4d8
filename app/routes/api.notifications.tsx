// GET /api/notifications -> { items: [{ id, kind, title, body, url, createdAt, readAt }], unread }: the signed-in
// user's in-app notifications, newest first (every alert kind: competitor launches, price drops, ...).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/pages/http/http.server";
import { requireUidMatch } from "~/pages/http/site-session.server";
import { notifications } from "~/services/index.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUidMatch(request);
  return Response.json(await notifications.list(user.id), { headers: { "Cache-Control": "private, no-store" } });
}

export function action() {
  return methodNotAllowed("GET");
}
