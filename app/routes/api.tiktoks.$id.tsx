// DELETE /api/tiktoks/{id} -> { deleted: true }. Another user's saved video, or a malformed id: 404.
import type { ActionFunctionArgs } from "@remix-run/node";
import { handleServiceErrors, methodNotAllowed } from "~/pages/http/http.server";
import { requireApiUser } from "~/pages/http/site-session.server";
import { tiktoks } from "~/services/index.server";

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed("DELETE");
  const user = await requireApiUser(request);
  const id = /^[1-9]\d{0,9}$/.test(params.id ?? "") ? Number(params.id) : NaN;
  if (!Number.isSafeInteger(id) || id > 2_147_483_647) return Response.json({ error: "No such saved TikTok." }, { status: 404 });
  return Response.json(await handleServiceErrors(() => tiktoks.remove(user.id, id)));
}
