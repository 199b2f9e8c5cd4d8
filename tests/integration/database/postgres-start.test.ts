// `DATABASE_URL=postgresql://… npm start` (issue 38 item 1, decision 098) on a fresh, empty database of the run's throw-away cluster:
// it migrates, seeds the demo account and its products through the import, says Ready, and serves the health check,
// the login page and the demo user's product grid from PostgreSQL.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshPostgresDatabase } from "../../helpers/postgres-cluster";
import { ensureProductionBuild, freePort } from "../../helpers/production-server";

describe("npm start on a PostgreSQL DATABASE_URL", () => {
  let child: ChildProcess | null = null;
  let output = "";
  beforeAll(async () => {
    ensureProductionBuild();
  }, 300_000);
  afterAll(async () => {
    // npm start's own process group: the start script and the server processes it runs.
    if (child?.pid) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
  });

  it("migrates, seeds the demo account, and serves /healthz, /login and the demo user's product grid", { timeout: 300_000 }, async () => {
    const url = await freshPostgresDatabase({ empty: true });
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ["scripts/start.mjs"], {
      cwd: path.resolve("."),
      detached: true,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "production",
        PORT: String(port),
        DATABASE_URL: url,
        SESSION_SECRET: randomBytes(32).toString("hex"),
        TOKEN_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString("base64")}`,
        SHOPIFY_APP: "off",
        SKIP_BUILD: "1",
        WEB_CONCURRENCY: "1",
      },
    });
    const ready = new Promise<void>((resolve, reject) => {
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("Ready: http://localhost:")) resolve();
      };
      child!.stdout!.on("data", read);
      child!.stderr!.on("data", read);
      child!.once("exit", (code) => reject(new Error(`npm start ended (${code}) before Ready:\n${output.slice(-3000)}`)));
    });
    await ready;
    expect(output).toContain(`Applying migrations to ${url.replace(/:[^:@/]+@/, ":***@")}`);
    expect(output).toMatch(/Products: \d+ generated and imported/);

    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const login = await fetch(`${base}/login`);
    expect(login.status).toBe(200);
    expect(await login.text()).toContain('name="password"');

    const signIn = await fetch(`${base}/login?index`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
      body: new URLSearchParams({ email: "demo@winningproducts.test", password: "demo-password-2026" }),
    });
    expect(signIn.status).toBe(302);
    const cookie = signIn.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    expect(cookie).not.toBe("");

    const grid = await fetch(`${base}/dashboard/products`, { headers: { cookie } });
    expect(grid.status).toBe(200);
    const cards = new Set((await grid.text()).match(/gen42-\d{7}/g) ?? []);
    expect(cards.size).toBeGreaterThanOrEqual(12);
    // The search API on the same index and PostgreSQL's text search.
    const search = await fetch(`${base}/api/products?q=led`, { headers: { cookie } });
    expect(search.status).toBe(200);
    expect(((await search.json()) as { items: unknown[] }).items.length).toBeGreaterThan(0);
  });
});
