// POST /api/threads/{id}/messages { text } -> 201 the assistant's answer: { id, role: "assistant", text,
// query (the filters, named as the grid's URL parameters), gridParams, products (cards with why each
// fits), source, sourceLabel ("from the AI model" / "from the built-in parser"), notes, total }. A follow-up
// refines the thread's last answer. Empty or over 500 characters -> 422; over 120 questions an hour ->
// 429; another user's thread -> 404. Free: no credit is spent (docs/decisions/031).
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { parseThreadId } from "~/pages/research/assistant.server";
import { handleServiceErrors, methodNotAllowed, readJson } from "~/pages/http/http.server";
import { requireApiUser } from "~/pages/http/site-session.server";
import { assistant } from "~/services/index.server";

const Body = z.object({ text: z.string({ error: "write your question as text" }).max(100_000) });

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request);
  const id = parseThreadId(params.id);
  const { text } = await readJson(request, Body);
  return Response.json(await handleServiceErrors(() => assistant.post(user, id, text)), { status: 201 });
}

export function loader() {
  return methodNotAllowed("POST");
}
