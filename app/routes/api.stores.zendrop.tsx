// POST /api/stores/zendrop { connected: boolean }: the user's Zendrop connection flag (seed zendropConnected).
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { methodNotAllowed, readJson } from "~/pages/http/http.server";
import { requireUidMatch } from "~/pages/http/site-session.server";
import { stores } from "~/services/index.server";

const ZendropSchema = z.object({ connected: z.boolean({ error: "must be true or false" }) });

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireUidMatch(request);
  const { connected } = await readJson(request, ZendropSchema);
  return Response.json(await stores.setZendropConnected(user.id, connected), {
    headers: { "Cache-Control": "private, no-store" },
  });
}

export function loader() {
  return methodNotAllowed("POST");
}
