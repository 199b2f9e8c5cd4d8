// The seed's marketing calls over HTTP (docs/decisions/032): who is asking (signed in, and ?uid= when
// given must be them: 401 / 403), the query or body checked (400 with a sentence), then the marketing
// service, whose answer is 202: the call is queued, and what happens to it later is never shown.
import type { z } from "zod";
import { handleServiceErrors, readJson } from "~/pages/http/http.server";
import { requireUidMatch } from "~/pages/http/site-session.server";
import { marketing } from "~/services/index.server";
import type { Marketing, MarketingUser } from "~/services/marketing.server";

type Call = keyof Marketing;

/** A GET call's query string against its schema: 400 "field: sentence" otherwise. */
function readQuery<T extends z.ZodType>(request: Request, schema: T): z.infer<T> {
  const params = new URL(request.url).searchParams;
  const raw: Record<string, string> = {};
  for (const [key, value] of params) if (key !== "uid") raw[key] = value;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw Response.json({ error: `${issue?.path.join(".") || "query"}: ${issue?.message ?? "invalid"}` }, { status: 400 });
  }
  return parsed.data;
}

async function run(call: Call, user: MarketingUser, input: unknown): Promise<Response> {
  const fn = marketing[call] as (u: MarketingUser, i: unknown) => Promise<{ queued: number }>;
  const result = await handleServiceErrors(() => fn(user, input));
  return Response.json({ ok: true, queued: result.queued }, { status: 202 });
}

/** POST calls: the JSON body. */
export async function marketingPost<T extends z.ZodType>(request: Request, call: Call, schema: T): Promise<Response> {
  const user = await requireUidMatch(request);
  return run(call, user, await readJson(request, schema));
}

/** GET calls: the query string. */
export async function marketingGet<T extends z.ZodType>(request: Request, call: Call, schema: T): Promise<Response> {
  const user = await requireUidMatch(request);
  return run(call, user, readQuery(request, schema));
}
