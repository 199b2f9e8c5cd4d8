// The production server answers GET /api/v1/products on its lean path (server/lean-api.mjs, decision 068): plain
// node:http before Express, through the function the build exports (app/api/lean.server.ts). The same
// call with a trailing slash is not the lean path's (it goes through Express and Remix's route matching to the
// same route), so every answer here is compared with its Remix twin: status, every header but the ones that
// differ by nature (Date, the call's RateLimit-Remaining one lower, the framing), and the body byte for byte.
import http from "node:http";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { action as keysAction } from "~/routes/api.keys";
import { ensureProductionBuild, rawRequest, startServer, type RunningServer } from "../../helpers/production-server";
import { insertProducts, PLAIN_FIXTURE } from "../../helpers/products";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

let server: RunningServer;
let key: string;

/** One request on a socket of its own, with exactly these headers (fetch would add Accept-Encoding). */
const get = (path: string, headers: Record<string, string>, method = "GET") => rawRequest(server.port, { path, method, headers });

const FRAMING = ["date", "connection", "content-length", "transfer-encoding", "ratelimit-remaining", "ratelimit-reset", "x-allowance-remaining"];
const comparable = (h: http.IncomingHttpHeaders) => Object.fromEntries(Object.entries(h).filter(([k]) => !FRAMING.includes(k)));

/** The lean answer, then the same call through Remix (the trailing slash), compared. */
async function sameAsRemix(path: string, headers: Record<string, string>, method = "GET") {
  const lean = await get(path, headers, method);
  const [p, q] = path.split("?");
  const remix = await get(`${p}/${q === undefined ? "" : `?${q}`}`, headers, method);
  expect(lean.status).toBe(remix.status);
  expect(comparable(lean.headers)).toEqual(comparable(remix.headers));
  expect(lean.body.equals(remix.body)).toBe(true);
  if (lean.headers["ratelimit-remaining"] !== undefined) {
    expect(Number(lean.headers["ratelimit-remaining"])).toBe(Number(remix.headers["ratelimit-remaining"]) + 1);
    expect(Number(lean.headers["x-allowance-remaining"])).toBe(Number(remix.headers["x-allowance-remaining"]) + 1);
  }
  return { lean, remix };
}

beforeAll(async () => {
  ensureProductionBuild();
  await insertProducts(
    db,
    Array.from({ length: 6 }, (_, i) => ({ ...PLAIN_FIXTURE, objectID: `lean-${i}`, title: `Lean lamp ${i}`, niches: ["home"], winningScore: 50 + i })),
  );
  const user = await createSignedInUser({ userSubscribed: "yes" });
  ({ key } = (await (await call(keysAction, "/api/keys", { method: "POST", cookie: user.cookie, json: { name: "lean" } })).json()) as { key: string });
  server = await startServer({ JOBS_WORKER: "off" });
}, 300_000);

afterAll(async () => {
  await server?.stop();
});

describe("GET /api/v1/products on the production server's lean path", () => {
  it("answers a search as the route does through Remix: status, RateLimit-*, CORS and every other header, the body", async () => {
    const { lean } = await sameAsRemix("/api/v1/products?niche=home&limit=2", { authorization: `Bearer ${key}` });
    expect(lean.status).toBe(200);
    expect(lean.headers["ratelimit-limit"]).toBe("120");
    expect(lean.headers["ratelimit-policy"]).toBe("120;w=60");
    expect(lean.headers["access-control-allow-origin"]).toBe("*");
    expect(lean.headers["cache-control"]).toBe("private, no-store");
    expect(lean.headers["content-type"]).toBe("application/json; charset=utf-8");
    // Written in one piece: its length is known, not chunked as a streamed Fetch body is.
    expect(Number(lean.headers["content-length"])).toBe(lean.body.length);
    const page = JSON.parse(lean.body.toString()) as { items: { objectID: string; url: string }[]; limit: number; nextCursor: string | null };
    expect(page.items.map((i) => i.objectID)).toEqual(["lean-5", "lean-4"]);
    expect(page.items[0].url).toBe(`http://127.0.0.1:${server.port}/dashboard/products/lean-5`);
    expect(page.nextCursor).not.toBeNull();
  });

  it("compresses as Express does when the client accepts gzip", async () => {
    const { lean } = await sameAsRemix("/api/v1/products?niche=home&limit=6", { authorization: `Bearer ${key}`, "accept-encoding": "gzip" });
    expect(lean.headers["content-encoding"]).toBe("gzip");
    expect(lean.headers.vary).toBe("Accept-Encoding");
    expect((JSON.parse(gunzipSync(lean.body).toString()) as { items: unknown[] }).items).toHaveLength(6);
  });

  it("refuses as the route does: no key 401 with WWW-Authenticate, a bad key 401, a bad parameter 400 with its sentence", async () => {
    const none = (await sameAsRemix("/api/v1/products", {})).lean;
    expect(none.status).toBe(401);
    // No credentials: the bare challenge; a bad key: invalid_token (RFC 6750 3.1).
    expect(none.headers["www-authenticate"]).toBe('Bearer realm="api"');
    const badKey = (await sameAsRemix("/api/v1/products", { authorization: "Bearer dsk_nonsense" })).lean;
    expect(badKey.status).toBe(401);
    expect(badKey.headers["www-authenticate"]).toBe('Bearer realm="api", error="invalid_token"');
    const bad = (await sameAsRemix("/api/v1/products?limit=0", { authorization: `Bearer ${key}` })).lean;
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body.toString())).toMatchObject({ error: "limit must be a whole number from 1 to 48." });
  });

  it("answers HEAD with the headers and no body, as the route does", async () => {
    const { lean } = await sameAsRemix("/api/v1/products?limit=1", { authorization: `Bearer ${key}` }, "HEAD");
    expect(lean.status).toBe(200);
    expect(lean.body.length).toBe(0);
  });
});
