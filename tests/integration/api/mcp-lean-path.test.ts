// The production server answers POST /mcp on its lean path (server/lean-api.mjs, decision 077): plain node:http
// before Express and Remix, through the function the build exports (app/api/lean.server.ts), which runs the
// route's own mcpAnswer. The same call to /mcp/ is not the lean path's (Express and Remix's route matching take it
// to the same route), so every answer here is compared with its Remix twin: status, every header but the ones that
// differ by nature (Date, the framing, the call's counters one lower), and the JSON-RPC answer (the same but for
// what is left of the limits, one more on the lean call, which came first). A request the lean path must leave to
// Express (no key, a chunked body, a body over the cap) is checked to be answered as Express answers it.
import http from "node:http";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { action as keysAction } from "~/routes/api.keys";
import { ensureProductionBuild, rawRequest, startServer, type RunningServer } from "../../helpers/production-server";
import { insertProducts, PLAIN_FIXTURE } from "../../helpers/products";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

/** The server's body cap for the run (MAX_BODY_BYTES), small so that the test can cross it. */
const CAP = 4096;
const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

let server: RunningServer;
let key: string;

/** One POST on a socket of its own, with exactly these headers (fetch would add its own); chunked: no Content-Length. */
const post = (path: string, headers: Record<string, string>, body: string | Buffer, chunked = false) =>
  rawRequest(server.port, { path, method: "POST", headers, body, chunked });

const FRAMING = ["date", "connection", "content-length", "transfer-encoding", "ratelimit-remaining", "ratelimit-reset", "x-allowance-remaining"];
const comparable = (h: http.IncomingHttpHeaders) => Object.fromEntries(Object.entries(h).filter(([k]) => !FRAMING.includes(k)));

type Limits = { callsLeftThisMinute: number; callsLeftThisMonth: number };
type RpcAnswer = { result?: { content?: { text: string }[]; structuredContent?: { limits?: Limits } } };

/** A tool's answer with what is left of the limits put one higher (the lean call came first), as text and figures. */
function oneCallEarlier(answer: RpcAnswer): RpcAnswer {
  const limits = answer.result?.structuredContent?.limits;
  if (!limits) return answer;
  const earlier = { callsLeftThisMinute: limits.callsLeftThisMinute + 1, callsLeftThisMonth: limits.callsLeftThisMonth + 1 };
  const text = (answer.result?.content ?? []).map((c) => ({
    ...c,
    text: c.text.replace(
      `(${limits.callsLeftThisMinute} calls left this minute, ${limits.callsLeftThisMonth} this month.)`,
      `(${earlier.callsLeftThisMinute} calls left this minute, ${earlier.callsLeftThisMonth} this month.)`,
    ),
  }));
  return { ...answer, result: { ...answer.result, content: text, structuredContent: { ...answer.result?.structuredContent, limits: earlier } } };
}

/** The lean answer, then the same call to /mcp/ (Express and Remix), compared. */
async function sameAsRemix(headers: Record<string, string>, body: string | Buffer, decode: (b: Buffer) => Buffer = (b) => b) {
  const lean = await post("/mcp", headers, body);
  const remix = await post("/mcp/", headers, body);
  expect(lean.status).toBe(remix.status);
  expect(comparable(lean.headers)).toEqual(comparable(remix.headers));
  const [leanText, remixText] = [decode(lean.body).toString(), decode(remix.body).toString()];
  if (lean.headers["content-type"]?.startsWith("application/json") && leanText) {
    expect(JSON.parse(leanText)).toEqual(oneCallEarlier(JSON.parse(remixText) as RpcAnswer));
  } else {
    expect(leanText).toBe(remixText);
  }
  if (lean.headers["ratelimit-remaining"] !== undefined) {
    expect(Number(lean.headers["ratelimit-remaining"])).toBe(Number(remix.headers["ratelimit-remaining"]) + 1);
    expect(Number(lean.headers["x-allowance-remaining"])).toBe(Number(remix.headers["x-allowance-remaining"]) + 1);
  }
  return { lean, remix };
}

const rpc = (method: string, params: Record<string, unknown> = {}, id: number | null = 1) =>
  JSON.stringify(id === null ? { jsonrpc: "2.0", method, params } : { jsonrpc: "2.0", id, method, params });
const searchCall = (args: Record<string, unknown>) => rpc("tools/call", { name: "search_products", arguments: args });

beforeAll(async () => {
  ensureProductionBuild();
  await insertProducts(
    db,
    Array.from({ length: 6 }, (_, i) => ({ ...PLAIN_FIXTURE, objectID: `mcp-lean-${i}`, title: `Lean kettle ${i}`, niches: ["kitchen"], winningScore: 50 + i })),
  );
  const user = await createSignedInUser({ userSubscribed: "yes" });
  ({ key } = (await (await call(keysAction, "/api/keys", { method: "POST", cookie: user.cookie, json: { name: "mcp-lean" } })).json()) as { key: string });
  server = await startServer({ JOBS_WORKER: "off", MAX_BODY_BYTES: String(CAP) });
}, 300_000);

afterAll(async () => {
  await server?.stop();
});

describe("POST /mcp on the production server's lean path", () => {
  it("answers a search_products call as the route does through Remix: status, RateLimit-*, CORS, the JSON-RPC answer", async () => {
    const { lean, remix } = await sameAsRemix({ ...MCP_HEADERS, authorization: `Bearer ${key}` }, searchCall({ niche: "kitchen", limit: 2 }));
    expect(lean.status).toBe(200);
    // Written in one piece by the lean path (its length known); Remix streams its Fetch body, chunked.
    expect(Number(lean.headers["content-length"])).toBe(lean.body.length);
    expect(remix.headers["transfer-encoding"]).toBe("chunked");
    expect(lean.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(lean.headers["access-control-allow-origin"]).toBe("*");
    expect(lean.headers["ratelimit-limit"]).toBe("120");
    const answer = JSON.parse(lean.body.toString()) as { id: number; result: { structuredContent: { items: { objectID: string; url: string }[] } } };
    expect(answer.id).toBe(1);
    expect(answer.result.structuredContent.items.map((i) => i.objectID)).toEqual(["mcp-lean-5", "mcp-lean-4"]);
    expect(answer.result.structuredContent.items[0].url).toBe(`http://127.0.0.1:${server.port}/dashboard/products/mcp-lean-5`);
  });

  it("answers the protocol's other messages as the route does: initialize, tools/list, a notification (202, no body)", async () => {
    const bearer = { ...MCP_HEADERS, authorization: `Bearer ${key}` };
    const init = rpc("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "lean-test", version: "1.0.0" } });
    expect((await sameAsRemix(bearer, init)).lean.status).toBe(200);
    const tools = (await sameAsRemix(bearer, rpc("tools/list"))).lean;
    expect((JSON.parse(tools.body.toString()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(7);
    const note = (await sameAsRemix(bearer, rpc("notifications/initialized", {}, null))).lean;
    expect(note.status).toBe(202);
    expect(note.body.length).toBe(0);
  });

  it("compresses as Express does when the client accepts gzip", async () => {
    const { lean } = await sameAsRemix({ ...MCP_HEADERS, authorization: `Bearer ${key}`, "accept-encoding": "gzip" }, searchCall({ limit: 6 }), gunzipSync);
    expect(lean.headers["content-encoding"]).toBe("gzip");
    expect(lean.headers.vary).toBe("Accept-Encoding");
  });

  it("refuses as the route does: a bad key 401, another site's page 403, a bad Accept 406, a bad Content-Type 415", async () => {
    expect((await sameAsRemix({ ...MCP_HEADERS, authorization: "Bearer dsk_nonsense" }, searchCall({}))).lean.status).toBe(401);
    const foreign = (await sameAsRemix({ ...MCP_HEADERS, authorization: `Bearer ${key}`, origin: "https://evil.example" }, searchCall({}))).lean;
    expect(foreign.status).toBe(403);
    expect((await sameAsRemix({ ...MCP_HEADERS, authorization: `Bearer ${key}`, accept: "text/html" }, searchCall({}))).lean.status).toBe(406);
    expect((await sameAsRemix({ ...MCP_HEADERS, authorization: `Bearer ${key}`, "content-type": "text/plain" }, searchCall({}))).lean.status).toBe(415);
  });

  it("answers a client that accepts only JSON with JSON, as the route does (decision 078)", async () => {
    const { lean } = await sameAsRemix({ ...MCP_HEADERS, authorization: `Bearer ${key}`, accept: "application/json" }, searchCall({ limit: 1 }));
    expect(lean.status).toBe(200);
    expect(lean.headers["content-type"]).toBe("application/json; charset=utf-8");
  });

  it("refuses a JSON-RPC batch as the route does (400, -32600), and counts it on neither path (decision 078)", async () => {
    const bearer = { ...MCP_HEADERS, authorization: `Bearer ${key}` };
    const allowance = async () => Number((await post("/mcp", bearer, rpc("tools/list"))).headers["x-allowance-remaining"]);
    const before = await allowance();
    // As many calls as the test's 4 KB body cap holds, so that the lean path takes it.
    const batch = JSON.stringify(Array.from({ length: 30 }, (_, i) => ({ ...(JSON.parse(searchCall({ limit: 1 })) as object), id: i + 1 })));
    expect(Buffer.byteLength(batch)).toBeLessThanOrEqual(CAP);
    const { lean } = await sameAsRemix(bearer, batch);
    expect(lean.status).toBe(400);
    expect(lean.headers["ratelimit-remaining"]).toBeUndefined();
    expect(JSON.parse(lean.body.toString())).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
    // The single call after is the only one counted since the one before: neither batch took anything.
    expect(await allowance()).toBe(before - 1);
  });

  it("leaves a body that is not JSON, or not JSON-RPC, to the SDK, which refuses it in its own words as through Remix", async () => {
    const bearer = { ...MCP_HEADERS, authorization: `Bearer ${key}` };
    const notJson = (await sameAsRemix(bearer, "{ not json")).lean;
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body.toString())).toMatchObject({ error: { code: -32700, message: "Parse error: Invalid JSON" } });
    const notRpc = (await sameAsRemix(bearer, JSON.stringify({ hello: "world" }))).lean;
    expect(notRpc.status).toBe(400);
    expect(JSON.parse(notRpc.body.toString())).toMatchObject({ error: { code: -32700 } });
    // A byte-order mark is dropped as the SDK's own reading drops it.
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(searchCall({ limit: 1 }))]);
    expect((await sameAsRemix(bearer, withBom)).lean.status).toBe(200);
  });

  it("takes a body of exactly the cap, and leaves one over it to the body limit (413), as Express answers it", async () => {
    const bearer = { ...MCP_HEADERS, authorization: `Bearer ${key}` };
    const call = searchCall({ limit: 1 });
    const atCap = call + " ".repeat(CAP - Buffer.byteLength(call));
    expect((await sameAsRemix(bearer, atCap)).lean.status).toBe(200);
    const over = await post("/mcp", bearer, atCap + " ");
    expect(over.status).toBe(413);
    expect(JSON.parse(over.body.toString())).toEqual({ error: "The request body is larger than 4 KB." });
  });

  it("leaves a call without a key, or with a chunked body, to Express, which answers as the route does", async () => {
    const none = await post("/mcp", MCP_HEADERS, searchCall({}));
    expect(none.status).toBe(401);
    expect(none.headers["transfer-encoding"]).toBe("chunked");
    expect(none.headers["www-authenticate"]).toContain("Bearer");
    const chunked = await post("/mcp", { ...MCP_HEADERS, authorization: `Bearer ${key}` }, searchCall({ limit: 1 }), true);
    expect(chunked.status).toBe(200);
    expect(chunked.headers["transfer-encoding"]).toBe("chunked");
    expect((JSON.parse(chunked.body.toString()) as { result: { structuredContent: { items: unknown[] } } }).result.structuredContent.items).toHaveLength(1);
  });
});
