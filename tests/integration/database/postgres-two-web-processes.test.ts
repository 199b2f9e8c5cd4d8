// Two web processes that share only a PostgreSQL database (issue 38 item 3, decisions 098 and 102), each with a data
// folder of its own, as two hosts would run them (`node server/index.mjs`, the job worker on in both): a session made
// on one is honoured by the other, and a log-out on one ends it on both; API calls through both count into one
// per-minute limit; a product imported while both run is found by both searches (the catalogue version in the
// database makes each process reload its own index).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "~/db.server";
import { runScript } from "../../helpers/cli";
import { freshPostgresDatabase } from "../../helpers/postgres-cluster";
import { ensureProductionBuild, startServer, type RunningServer } from "../../helpers/production-server";

const dirs: string[] = [];
const servers: RunningServer[] = [];
let url: string;
let db: Db;

beforeAll(async () => {
  ensureProductionBuild();
  url = await freshPostgresDatabase();
  db = createDb(url);
}, 300_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await db?.$disconnect();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** One "host": the production server on the shared database, with its own data folder. */
async function host(sessionSecret: string): Promise<{ base: string; get: (p: string, headers?: Record<string, string>) => Promise<Response> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "two-web-"));
  dirs.push(dir);
  const server = await startServer({
    DATABASE_URL: url,
    VIDEO_STORAGE_DIR: path.join(dir, "videos"),
    SESSION_SECRET: sessionSecret,
    API_CALLS_PER_MINUTE: "4",
    SHOPIFY_APP: "off",
  });
  servers.push(server);
  const base = `http://127.0.0.1:${server.port}`;
  return { base, get: (p, headers = {}) => fetch(`${base}${p}`, { headers, redirect: "manual" }) };
}

describe("two web processes on one PostgreSQL database", () => {
  it("share sessions, the API's minute limit and the catalogue version", { timeout: 300_000 }, async () => {
    // The hosts share the session secret (sealed cookies), as a deployment's hosts share their settings.
    const secret = randomBytes(32).toString("hex");
    const [a, b] = await Promise.all([host(secret), host(secret)]);

    // A session made on A is a session on B.
    const email = `two-web-${Date.now().toString(36)}@example.com`;
    const signup = await fetch(`${a.base}/signup`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: a.base },
      body: new URLSearchParams({ email, password: "correct-horse-battery" }),
    });
    expect(signup.status).toBe(302);
    const cookie = signup.headers.get("set-cookie")!.split(";")[0];
    expect((await b.get("/dashboard/account")).status).toBe(302);
    const account = await b.get("/dashboard/account", { cookie });
    expect(account.status).toBe(200);
    expect(await account.text()).toContain(email);

    // A paying user's key, made on B, counts into one minute on both: the fifth call is refused wherever it lands.
    await db.user.update({ where: { email }, data: { subscription_id: `sub_two_web_${Date.now()}`, userSubscribed: "yes" } });
    const made = await fetch(`${b.base}/api/keys`, {
      method: "POST",
      headers: { cookie, Origin: b.base, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "two hosts" }),
    });
    expect(made.status).toBe(201);
    const bearer = { authorization: `Bearer ${((await made.json()) as { key: string }).key}` };
    const statuses: number[] = [];
    for (const h of [a, b, a, b, a, b]) statuses.push((await h.get("/api/v1/products?q=pillow", bearer)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    const refused = await b.get("/api/v1/products?q=pillow", bearer);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toMatch(/minute/i);

    // Both have loaded their search index; a product imported now (the operator's CLI on a third "host") reaches both.
    const search = (h: typeof a) => h.get("/api/products?q=quokka&literal=1", { cookie }).then(async (r) => ({ status: r.status, body: await r.text() }));
    for (const h of [a, b]) expect((await search(h)).body).not.toContain("Quokka Travel Pillow");
    const file = path.join(dirs[0], "quokka.ndjson");
    // A product of the fixture file with a name of its own.
    const brush = JSON.parse(readFileSync(path.resolve("tests/fixtures/products-mixed.ndjson"), "utf8").split("\n")[0]) as object;
    writeFileSync(file, `${JSON.stringify({ ...brush, objectID: "two-web-quokka", title: "Quokka Travel Pillow", images: [] })}\n`);
    const imported = await runScript("products-import", [file, "--no-wait-images"], { env: { ...process.env, DATABASE_URL: url }, timeout: 120_000 });
    expect(imported.code, `${imported.stdout}\n${imported.stderr}`).toBe(0);
    for (const h of [a, b]) {
      const found = await search(h);
      expect(found.status).toBe(200);
      expect(found.body).toContain("Quokka Travel Pillow");
    }

    // A log-out on B ends the session on A too (the session row is gone).
    const logout = await fetch(`${b.base}/logout`, { method: "POST", redirect: "manual", headers: { cookie, Origin: b.base } });
    expect([302, 303]).toContain(logout.status);
    expect((await a.get("/dashboard/account", { cookie })).status).toBe(302);
  });
});
