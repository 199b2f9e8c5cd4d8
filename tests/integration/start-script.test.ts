// `npm start` on a public address (docs/decisions/042): without Paddle keys it refuses to start, naming the
// variables and the explicit setting, before it builds or serves anything. It used to switch the local test
// checkout on by itself, so every plan was free.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);

async function npmStart(extra: Record<string, string>) {
  const dir = process.env.TEST_TMP_DIR!;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: "production",
    PORT: "1",
    DATABASE_URL: `file:${path.join(dir, `start-${randomBytes(4).toString("hex")}.db`)}`,
    SESSION_SECRET: randomBytes(32).toString("hex"),
    TOKEN_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString("base64")}`,
    SHOPIFY_APP: "off",
    SKIP_BUILD: "1",
    ...extra,
  };
  try {
    const { stdout, stderr } = await run(process.execPath, ["scripts/start.mjs"], { env, cwd: path.resolve("."), timeout: 90_000 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, output: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

describe("npm start on a public address", () => {
  it("refuses to start without Paddle keys, and says which variables would let it", { timeout: 120_000 }, async () => {
    const { code, output } = await npmStart({ APP_URL: "https://shop.example.com" });
    expect(code).toBe(1);
    expect(output).toContain("PADDLE_API_KEY is required in production on a public address (APP_URL https://shop.example.com is not on localhost)");
    expect(output).toContain("PADDLE_LOCAL_CHECKOUT=i-understand-plans-are-free");
    expect(output).not.toContain("Demo login");
    expect(output).not.toContain("Ready");
  });
});
