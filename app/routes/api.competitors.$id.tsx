// GET /api/competitors/{id} -> the followed store with its products (and our per-product signals), launches,
// changes (newest first, kind "measured"), series (catalogue size per read), and estimate { low, high, unit,
// confidence, evidence, kind: "estimated" } or estimate: null with estimateReason.
// PATCH { name } -> the store renamed (for this user only); DELETE -> { deleted: true }. Another user's id: 404.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { competitorCall, competitorIdParam } from "~/pages/competitors/api.server";
import { methodNotAllowed, readJson } from "~/pages/http/http.server";
import { requireUidMatch } from "~/pages/http/site-session.server";
import { competitors } from "~/services/index.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUidMatch(request);
  const id = competitorIdParam(params.id);
  return Response.json(await competitorCall(() => competitors.get(user.id, id)), { headers: { "Cache-Control": "private, no-store" } });
}

const Patch = z.object({ name: z.string({ error: "is required" }).max(1000, "is too long") }).strict();

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PATCH" && request.method !== "DELETE") return methodNotAllowed("GET, PATCH, DELETE");
  const user = await requireUidMatch(request);
  const id = competitorIdParam(params.id);
  if (request.method === "PATCH") {
    const { name } = await readJson(request, Patch);
    return Response.json(await competitorCall(() => competitors.rename(user.id, id, name)));
  }
  return Response.json(await competitorCall(() => competitors.remove(user.id, id)));
}
