// GET /api/products/parse?q={question} -> { query, gridParams, source, sourceLabel, notes, problem }: a
// question in plain words as the product grid's filters (the grid's question box; the assistant's
// parser, docs/decisions/031). Nothing is searched or saved. An empty or over-long question -> 422.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { handleServiceErrors, methodNotAllowed } from "~/pages/http/http.server";
import { requireApiUser } from "~/pages/http/site-session.server";
import { assistant } from "~/services/index.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const q = new URL(request.url).searchParams.get("q") ?? "";
  return Response.json(await handleServiceErrors(() => assistant.parseForGrid(user, q)), { headers: { "Cache-Control": "private, no-store" } });
}

export function action() {
  return methodNotAllowed("GET");
}
