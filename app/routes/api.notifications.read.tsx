// POST /api/notifications/read { ids?: number[] } -> { marked, unread }: marks those notifications of the
// signed-in user read, or all of them when ids is omitted. Ids of other users' notifications change nothing.
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { methodNotAllowed, readJson } from "~/pages/http/http.server";
import { requireUidMatch } from "~/pages/http/site-session.server";
import { notifications } from "~/services/index.server";

const Body = z
  .object({ ids: z.array(z.number().int().positive(), { error: "must be a list of notification ids" }).max(500, "at most 500 at once").optional() })
  .strict();

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireUidMatch(request);
  const { ids } = await readJson(request, Body);
  return Response.json(await notifications.markRead(user.id, ids));
}

export function loader() {
  return methodNotAllowed("POST");
}
