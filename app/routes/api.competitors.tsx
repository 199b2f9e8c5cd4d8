// GET /api/competitors -> { items: [{ id, domain, name, status, lastCheckedAt, nextCheckAt, lastError, ... }] }:
// the rival stores the signed-in user follows, newest first.
// POST /api/competitors { url } -> 201 the followed store; its first read is queued at once. 400 when the input
// is not a store's address, 422 with a sentence when the store cannot be read (not Shopify, unreachable,
// password-protected, blocked, rate-limited, refused), 409 already followed, 402 { upsell, upgradeUrl, limit }
// over the plan's cap, 403 { upgradeUrl } without a paid state (docs/decisions/024).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { competitorCall } from "~/pages/competitors/api.server";
import { methodNotAllowed, readJson } from "~/pages/http/http.server";
import { requireUidMatch } from "~/pages/http/site-session.server";
import { competitors } from "~/services/index.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUidMatch(request);
  return Response.json(await competitors.list(user.id), { headers: { "Cache-Control": "private, no-store" } });
}

const Body = z.object({ url: z.string({ error: "enter the store's address" }).max(2000, "is too long to be a store's address") });

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  const user = await requireUidMatch(request);
  const { url } = await readJson(request, Body);
  const store = await competitorCall(() => competitors.add(user, url));
  return Response.json(store, { status: 201 });
}
