// GET /api/threads -> { threads: [{ id, title, createdAt, updatedAt }] } (the caller's, last active first).
// POST /api/threads { title? } -> 201 the new thread ("New thread" until the first question names it);
// a title that is empty or over 80 characters -> 422 (docs/decisions/031).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { handleServiceErrors, methodNotAllowed, readJson } from "~/pages/http/http.server";
import { requireApiUser } from "~/pages/http/site-session.server";
import { assistant } from "~/services/index.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  return Response.json({ threads: await assistant.list(user.id) }, { headers: { "Cache-Control": "private, no-store" } });
}

const Body = z.object({ title: z.string({ error: "must be text" }).max(1000).optional() });

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  const user = await requireApiUser(request);
  const { title } = await readJson(request, Body);
  return Response.json(await handleServiceErrors(() => assistant.create(user.id, { title })), { status: 201 });
}
