// Shared by the fuzz-*.test.ts files: every route module in app/routes that exports an action, found
// on disk at test time (a new route cannot be missed), called through tests/helpers/routes.ts with
// generated malformed requests, and a checksum of the user-owned tables to prove a refusal changed
// nothing. Not a test file itself.
import { createHash } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { ActionFunctionArgs } from "@remix-run/node";
import fc from "fast-check";
import { db, isPostgresUrl } from "~/db.server";
import { getEnv } from "~/env.server";
import { TEST_APP_URL } from "../../helpers/test-env";

export const FOREIGN_ORIGIN = "https://evil.example";

/** Who a route expects: a site cookie, a Shopify session token (embedded app), or a signature (webhooks). */
export type Surface = "site" | "embedded" | "webhook";

export interface ActionRoute {
  /** The module's name in app/routes, e.g. "api.ai-ads.$id" or "auth.login" (a folder). */
  name: string;
  surface: Surface;
  action: (args: ActionFunctionArgs) => unknown;
  /** Dynamic segments, e.g. ["id"] or ["*"] for a splat. */
  params: string[];
  /** The URL path with each dynamic segment replaced by its value. */
  path: (values: Record<string, string>) => string;
}

const ROUTES_DIR = path.resolve("app/routes");

/** Every module of app/routes that exports an action, as Remix's flat routes name them. */
export async function actionRoutes(): Promise<ActionRoute[]> {
  const routes: ActionRoute[] = [];
  for (const entry of readdirSync(ROUTES_DIR).sort()) {
    const full = path.join(ROUTES_DIR, entry);
    const isDir = statSync(full).isDirectory();
    const file = isDir ? ["route.tsx", "route.ts"].map((f) => path.join(full, f)).find((f) => statSync(f, { throwIfNoEntry: false })) : full;
    if (!file || !/\.tsx?$/.test(file)) continue;
    const name = isDir ? entry : entry.replace(/\.tsx?$/, "");
    const mod = (await import(/* @vite-ignore */ file)) as { action?: ActionRoute["action"] };
    if (typeof mod.action !== "function") continue;
    const segments = name.split(".").filter((s) => !s.startsWith("_"));
    const params = segments.filter((s) => s.startsWith("$")).map((s) => (s === "$" ? "*" : s.slice(1)));
    routes.push({
      name,
      surface: name.startsWith("app.") || name === "app" ? "embedded" : name.startsWith("webhooks.") ? "webhook" : "site",
      action: mod.action,
      params,
      path: (values) =>
        "/" +
        segments
          .map((s) => (s === "$" ? values["*"] : s.startsWith("$") ? values[s.slice(1)] : s))
          .map((s) => encodeURIComponent(s ?? ""))
          .join("/"),
    });
  }
  return routes;
}

// ---------- the database before and after ----------

/**
 * Tables a request never owns: the catalogue and course content, the duty table (the starter is loaded on first
 * use, by whichever request first needs a duty), Shopify's own session rows (the library refreshes them), and
 * LoginFailure (a wrong password is counted by design, a refusal that records).
 */
const NOT_USER_OWNED = new Set([
  "_prisma_migrations",
  "Product",
  "ProductHistory",
  "CatalogState",
  "TariffLayer",
  "CourseModule",
  "CourseLesson",
  "Glitch",
  "Session",
  "LoginFailure",
  // On PostgreSQL the rate limiter's counters live in the app's database (decision 098); a refusal counts a try by design.
  "RateLimitCounter",
]);

let checksumSql: string | undefined;

/** The user-owned tables and their columns, from SQLite's catalogue or PostgreSQL's information schema. */
async function userOwnedTables(postgres: boolean): Promise<{ table: string; columns: string[] }[]> {
  const names = (
    await db.$queryRawUnsafe<{ name: string }[]>(
      postgres
        ? "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1"
        : "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
  )
    .map((row) => row.name)
    .filter((name) => !NOT_USER_OWNED.has(name) && !/fts/i.test(name));
  const tables = [];
  for (const table of names) {
    const columns = await db.$queryRawUnsafe<{ name: string }[]>(
      postgres
        ? `SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = '${table}' ORDER BY ordinal_position`
        : `SELECT name FROM pragma_table_info('${table}')`,
    );
    tables.push({ table, columns: columns.map((c) => c.name) });
  }
  return tables;
}

/** One statement that reads every row of every user-owned table, each row quoted column by column, sorted. */
async function buildChecksumSql(): Promise<string> {
  const postgres = isPostgresUrl(getEnv().DATABASE_URL);
  const parts = (await userOwnedTables(postgres)).map(({ table, columns }) => {
    if (postgres) {
      const row = columns.map((c) => `quote_nullable("${c}"::text)`).join(" || ',' || ");
      return `(SELECT '${table}:' || count(*) || ':' || coalesce(string_agg(r, '|' ORDER BY r), '') FROM (SELECT ${row} AS r FROM "${table}") AS t)`;
    }
    const row = columns.map((c) => `quote("${c}")`).join(" || ',' || ");
    return `(SELECT '${table}:' || count(*) || ':' || coalesce(group_concat(r, '|'), '') FROM (SELECT ${row} AS r FROM "${table}" ORDER BY 1))`;
  });
  return `SELECT ${parts.join(" || '#' || ")} AS dump`;
}

/** A checksum of every row of every user-owned table (one query). */
export async function dbChecksum(): Promise<string> {
  checksumSql ??= await buildChecksumSql();
  const [{ dump }] = await db.$queryRawUnsafe<{ dump: string }[]>(checksumSql);
  return createHash("sha256").update(dump).digest("hex");
}

// ---------- malformed requests ----------

/** Field names our forms and APIs read, so wrong types land where a schema looks. */
export const FIELD_NAMES = [
  "intent", "objectID", "title", "description", "feature", "subscriptionId", "email", "password", "shop",
  "status", "connected", "popup", "action", "idToken", "mode", "plan", "billing", "name", "origins",
  "script", "confirmation", "typedWord", "id", "page", "uid", "path", "scenes", "message", "lessonNumber",
];
const FIELD = fc.constantFrom(...FIELD_NAMES);

const LONE_SURROGATES = fc.constantFrom("\ud800", "a\udc00b", "\udfff", "x\ud83d");

const WRONG_VALUE: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 40 }),
  LONE_SURROGATES,
  fc.integer(),
  fc.double(),
  fc.constantFrom(1e308, -1e308, 2 ** 53 + 2, 1e21, -0, 0.1),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
);

export interface Body {
  kind: string;
  contentType: string | undefined;
  body: string;
}

const JSON_TYPES = fc.constantFrom("application/json", "application/json; charset=utf-8", "text/plain", undefined);
const ANY_TYPE = fc.constantFrom(
  "application/json",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "multipart/form-data; boundary=----fuzz",
  "application/xml",
  undefined,
);

const deep = (n: number, open: string, close: string) => open.repeat(n) + "1" + close.repeat(n);

/** Bodies a client may send by mistake or on purpose; none of them should be a 5xx. */
export const MALFORMED_BODY: fc.Arbitrary<Body> = fc.oneof(
  fc.record({ kind: fc.constant("wrong types"), contentType: JSON_TYPES, body: fc.dictionary(FIELD, WRONG_VALUE, { maxKeys: 5 }).map((v) => JSON.stringify(v)) }),
  fc.record({ kind: fc.constant("not JSON"), contentType: JSON_TYPES, body: fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom("{", "[1,", '{"a":}', "nul", "\u0000", "{\"title\":\"\\ud800\"")) }),
  fc.record({
    kind: fc.constant("lone surrogate"),
    contentType: JSON_TYPES,
    body: fc.tuple(FIELD, fc.constantFrom("\\ud800", "\\udfff", "a\\udc00")).map(([k, v]) => `{"${k}":"${v}","title":"${v}"}`),
  }),
  fc.record({
    kind: fc.constant("deep nesting"),
    contentType: JSON_TYPES,
    body: fc.tuple(fc.integer({ min: 33, max: 5000 }), fc.boolean()).map(([n, arrays]) => (arrays ? deep(n, "[", "]") : deep(n, '{"a":', "}"))),
  }),
  fc.record({
    kind: fc.constant("huge numbers"),
    contentType: JSON_TYPES,
    body: fc.tuple(FIELD, fc.constantFrom("1e999", "-1e400", "123456789012345678901234567890", "9007199254740993")).map(([k, n]) => `{"${k}":${n},"page":${n},"id":${n}}`),
  }),
  fc.record({
    kind: fc.constant("huge string"),
    contentType: ANY_TYPE,
    body: fc.tuple(FIELD, fc.integer({ min: 10_000, max: 300_000 })).map(([k, n]) => JSON.stringify({ [k]: "x".repeat(n) })),
  }),
  fc.record({
    kind: fc.constant("form with wrong fields"),
    contentType: fc.constantFrom("application/x-www-form-urlencoded", "application/json", "text/plain"),
    body: fc.dictionary(FIELD, fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom("%ED%A0%80", "\u0000", "-1", "1e999"))).map((v) => new URLSearchParams(v as Record<string, string>).toString()),
  }),
  fc.record({
    kind: fc.constant("multipart without boundary"),
    contentType: fc.constantFrom("multipart/form-data", "multipart/form-data; boundary=", "multipart/form-data; boundary=other"),
    body: fc.constant('------fuzz\r\nContent-Disposition: form-data; name="intent"\r\n\r\nsave\r\n------fuzz--\r\n'),
  }),
  fc.record({ kind: fc.constant("empty"), contentType: ANY_TYPE, body: fc.constant("") }),
);

export const METHOD = fc.constantFrom("POST", "POST", "PUT", "PATCH", "DELETE");

/** Where the request says it comes from: nowhere (a program), our pages, or another site. */
export const ORIGIN_HEADERS = fc.constantFrom<Record<string, string>>(
  {},
  { origin: TEST_APP_URL, "sec-fetch-site": "same-origin" },
  { origin: FOREIGN_ORIGIN, "sec-fetch-site": "cross-site" },
  { origin: "null" },
  { "sec-fetch-site": "cross-site" },
);

export function isForeign(headers: Record<string, string>): boolean {
  return (headers.origin !== undefined && headers.origin !== TEST_APP_URL) || headers["sec-fetch-site"] === "cross-site";
}

/** fast-check settings every fuzz file uses: seeded, so a failure reproduces. */
export const FUZZ = { seed: 20261123, numRuns: 30, endOnFailure: true } as const;
