// The Discord prompts (app/domain/community.ts has the schedule).
// GET  /api/community/popup -> { popup: { popup, key, title, message, last } | null }: what to show now.
// POST /api/community/popup { popup: 1-5, action: "shown" | "joined" | "dismissed" } -> { ok, finished,
//      joined }; 409 when that prompt is not due (a client cannot skip ahead or show two in a day).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { POPUP_ACTIONS, type PopupNumber } from "~/domain/community";
import { handleServiceErrors, readJson } from "~/pages/http/http.server";
import { requireApiUser } from "~/pages/http/site-session.server";
import { community } from "~/services/index.server";

const Body = z.object({
  popup: z.number({ error: "must be a number from 1 to 5" }).int().min(1).max(5),
  action: z.enum(POPUP_ACTIONS, { error: `must be one of ${POPUP_ACTIONS.join(", ")}` }),
});

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  return Response.json({ popup: await community.duePopup(user) }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireApiUser(request);
  const { popup, action } = await readJson(request, Body);
  return Response.json(await handleServiceErrors(() => community.recordPopup(user, popup as PopupNumber, action)));
}
