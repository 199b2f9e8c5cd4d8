// GET /api/threads/{id} -> { thread, messages } (each answer with its query, products and source label);
// PATCH { title } -> the renamed thread (422 for an empty or long title); DELETE -> { deleted: true } with
// its messages. Another user's thread, or none: 404 (docs/decisions/031).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { parseThreadId } from "~/pages/research/assistant.server";
import { handleServiceErrors, methodNotAllowed, readJson } from "~/pages/http/http.server";
import { requireApiUser } from "~/pages/http/site-session.server";
import { assistant } from "~/services/index.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const id = parseThreadId(params.id);
  return Response.json(await handleServiceErrors(() => assistant.get(user, id)), { headers: { "Cache-Control": "private, no-store" } });
}

const Patch = z.object({ title: z.string({ error: "must be text" }).max(1000) }).strict();

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireApiUser(request);
  const id = parseThreadId(params.id);
  if (request.method === "PATCH") {
    const { title } = await readJson(request, Patch);
    return Response.json(await handleServiceErrors(() => assistant.rename(user.id, id, title)));
  }
  if (request.method === "DELETE") return Response.json(await handleServiceErrors(() => assistant.remove(user.id, id)));
  return methodNotAllowed("GET, PATCH, DELETE");
}
