// GET /api/tiktoks[?objectID=] -> { tiktoks }: the signed-in user's saved TikTok videos (newest first), each
// with its product, note and oEmbed metadata (metaStatus pending | fetched | not-fetched, with fetchError).
// POST /api/tiktoks { url, objectID, note? } -> 201 the saved video (its metadata is fetched in the
// background); 422 with a sentence for a link that is not a TikTok video; 404 unknown product; 409 already saved.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { handleServiceErrors, methodNotAllowed, readJson } from "~/pages/http/http.server";
import { requireApiUser } from "~/pages/http/site-session.server";
import { tiktoks } from "~/services/index.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const objectID = new URL(request.url).searchParams.get("objectID")?.trim().slice(0, 200) || undefined;
  return Response.json({ tiktoks: await tiktoks.list(user.id, { objectID }) });
}

const Body = z.object({ url: z.string().max(2000), objectID: z.string().max(200), note: z.string().max(5000).optional() }).strict();

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  const user = await requireApiUser(request);
  const body = await readJson(request, Body);
  return Response.json(await handleServiceErrors(() => tiktoks.add(user.id, body)), { status: 201 });
}
