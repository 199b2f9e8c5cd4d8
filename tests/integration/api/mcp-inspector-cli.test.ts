// The official MCP Inspector's CLI (`mcp-inspector --cli`, @modelcontextprotocol/inspector; decision 064) against
// /mcp on the production server started as `npm start` starts it (node server/index.mjs on the production build):
// tools/list names the seven tools, tools/call of each one answers a result that is not an error and carries
// structuredContent, and a bad key gets the authentication error. The inspector runs as a child process, as a seller
// or a CI job would run it, with its own empty home folder (it keeps a catalogue and secrets there).
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { action as keysAction } from "~/routes/api.keys";
import { productDrops } from "~/services/index.server";
import { ensureProductionBuild, startServer, type RunningServer } from "../../helpers/production-server";
import { insertProducts, PLAIN_FIXTURE } from "../../helpers/products";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

const INSPECTOR = path.resolve("node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js");
// The inspector needs Node >= 22.19; `npm test` already runs under the `node` package's Node 22, a bare `npx vitest`
// may not.
const NODE = Number(process.versions.node.split(".")[0]) >= 22 ? process.execPath : path.resolve("node_modules/.bin/node");
const HOME = mkdtempSync(path.join(process.env.TEST_TMP_DIR ?? tmpdir(), "mcp-inspector-home-"));

type Run = { code: number; stdout: string; stderr: string };

function inspector(serverUrl: string, key: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      NODE,
      [INSPECTOR, "--cli", "--transport", "http", "--server-url", serverUrl, "--header", `Authorization: Bearer ${key}`, "--stored-auth-only", "--format", "json", ...args],
      { env: { ...process.env, HOME, CI: "true" }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof (error as { code?: unknown }).code === "number" ? ((error as { code: number }).code) : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

let server: RunningServer;
let mcpUrl: string;
let key: string;
let competitorId: number;

beforeAll(async () => {
  ensureProductionBuild();
  await insertProducts(
    db,
    Array.from({ length: 8 }, (_, i) => ({ ...PLAIN_FIXTURE, objectID: `insp-${i}`, title: `Inspector lamp ${i}`, niches: ["home"], winningScore: 60 + i })),
  );
  const user = await createSignedInUser({ userSubscribed: "yes" });
  ({ key } = (await (await call(keysAction, "/api/keys", { method: "POST", cookie: user.cookie, json: { name: "inspector" } })).json()) as { key: string });
  const store = await db.competitorStore.create({ data: { domain: "rival-insp.test", fetchDomain: "rival-insp.test", name: "Rival", status: "ok" }, select: { id: true } });
  ({ id: competitorId } = await db.competitor.create({ data: { userId: user.id, storeId: store.id, name: "Rival" }, select: { id: true } }));
  await productDrops.publish("2026-11-16", Array.from({ length: 8 }, (_, i) => ({ objectID: `insp-${i}`, reason: "picked for the test" })));
  await productDrops.reveal(await db.user.findUniqueOrThrow({ where: { id: user.id } }), "2026-11-16");
  // The server reads the same database file as this test (DATABASE_URL from tests/setup).
  server = await startServer({ JOBS_WORKER: "off" });
  mcpUrl = `http://127.0.0.1:${server.port}/mcp`;
}, 300_000);

afterAll(async () => {
  await server?.stop();
  rmSync(HOME, { recursive: true, force: true });
});

describe("the MCP Inspector's CLI against /mcp", () => {
  it("tools/list names the seven tools", async () => {
    const run = await inspector(mcpUrl, key, ["--method", "tools/list"]);
    expect(run.code, run.stderr).toBe(0);
    // --format json: one object, the method's result under "result".
    const { tools } = (JSON.parse(run.stdout) as { result: { tools: { name: string }[] } }).result;
    expect(tools.map((t) => t.name).sort()).toEqual(["explain_score", "get_competitor", "get_product", "list_competitors", "list_drops", "profit", "search_products"]);
  });

  const calls: [string, () => string[]][] = [
    ["search_products", () => ["niche=home", "limit=2"]],
    ["get_product", () => ["objectID=insp-2"]],
    ["explain_score", () => ["objectID=insp-2"]],
    ["list_drops", () => []],
    ["list_competitors", () => []],
    ["get_competitor", () => [`id=${competitorId}`]],
    ["profit", () => ["objectID=insp-2", "priceCents=2999", "cpaCents=800"]],
  ];
  it.each(calls)("tools/call %s answers structuredContent, not an error", async (name, toolArgs) => {
    const args = toolArgs();
    const run = await inspector(mcpUrl, key, ["--method", "tools/call", "--tool-name", name, ...(args.length ? ["--tool-arg", ...args] : [])]);
    expect(run.code, run.stderr).toBe(0);
    const { result } = JSON.parse(run.stdout) as { result: { isError?: boolean; content: { text: string }[]; structuredContent?: Record<string, unknown> } };
    expect(result.isError ?? false, result.content[0]?.text).toBe(false);
    expect(result.content[0].text).toMatch(/calls left this minute/);
    expect(result.structuredContent).toMatchObject({ limits: { callsLeftThisMinute: expect.any(Number) } });
  });

  it("a bad key gets the authentication error", async () => {
    const run = await inspector(mcpUrl, `wpk_${"x".repeat(32)}`, ["--method", "tools/list"]);
    // The CLI's error envelope on stderr: exit code 3, auth_required, with our 401's sentence.
    expect(run.code).toBe(3);
    expect(run.stdout).not.toMatch(/search_products/);
    const { error } = JSON.parse(run.stderr) as { error: { code: string; message: string } };
    expect(error.code).toBe("auth_required");
    expect(error.message).toContain("That API key is not valid.");
  });
});
