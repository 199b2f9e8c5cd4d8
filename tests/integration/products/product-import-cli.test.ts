// The two product commands run as a user runs them (child processes under tsx), on their own
// database file: exit codes, the printed summary, the rejections file, and generate -> file -> import.
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "~/db.server";
import { startFakeAlgolia } from "../../helpers/algolia-server";
import { TEST_ENV } from "../../helpers/test-env";

const run = promisify(execFile);
const tmp = mkdtempSync(path.resolve("tests/.tmp/product-cli-"));
const opened: Db[] = [];

afterAll(async () => {
  await Promise.all(opened.map((db) => db.$disconnect()));
});

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(
  script: "products-import" | "products-generate",
  args: string[],
  dbName: string,
  extraEnv: Record<string, string> = {},
): Promise<Result> {
  const env = { ...process.env, ...TEST_ENV, DATABASE_URL: `file:${path.join(tmp, dbName)}`, ...extraEnv };
  try {
    const { stdout, stderr } = await run(path.resolve("node_modules/.bin/tsx"), [`scripts/${script}.ts`, ...args], {
      env,
      cwd: path.resolve("."),
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

function copyFixture(name: string): string {
  const target = path.join(tmp, name);
  copyFileSync(path.resolve("tests/fixtures", name), target);
  return target;
}

function openDb(dbName: string): Db {
  const db = createDb(`file:${path.join(tmp, dbName)}`);
  opened.push(db);
  return db;
}

describe("npm run products:import -- FILE", () => {
  it("NDJSON with bad rows: exit 0, a summary with the first rejections, all of them written to a file", async () => {
    const file = copyFixture("products-mixed.ndjson");
    const result = await cli("products-import", [file], "import.db");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("imported: 3 new");
    expect(result.stdout).toContain("updated:  0");
    expect(result.stdout).toContain("rejected: 4");
    expect(result.stdout).toMatch(/line 3: not valid JSON/);
    expect(result.stdout).toContain("line 5: priceCents must be a whole number of cents");
    expect(result.stdout).toContain(`every rejection is in ${file}.rejections.txt`);
    expect(result.stdout).toContain("catalogue version: 1");
    const written = readFileSync(`${file}.rejections.txt`, "utf8").trim().split("\n");
    expect(written.map((l) => l.split(":")[0])).toEqual(["line 3", "line 5", "line 6", "line 8"]);
    expect(await openDb("import.db").product.count()).toBe(3);
  }, 120_000);

  it("CSV into the same database: exit 0, and a second run updates instead of adding", async () => {
    const file = copyFixture("products-mixed.csv");
    const first = await cli("products-import", [file], "import.db");
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain("imported: 2 new");
    expect(first.stdout).toContain("line 5: has 3 fields but the header has 23");
    const second = await cli("products-import", [file], "import.db");
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain("imported: 0 new");
    expect(second.stdout).toContain("updated:  2");
    expect(second.stdout).toContain("catalogue version: 3");
    expect(await openDb("import.db").product.count()).toBe(5);
  }, 120_000);

  it("with Algolia's admin keys set, pushes every imported product to the index (and only those)", async () => {
    const fake = await startFakeAlgolia();
    try {
      const file = copyFixture("products-mixed.ndjson");
      const result = await cli("products-import", [file], "import-algolia.db", {
        ALGOLIA_APP_ID: "TESTAPP42",
        ALGOLIA_SEARCH_KEY: "search-only-key",
        ALGOLIA_ADMIN_KEY: "admin-key-secret",
        ALGOLIA_INDEX: "products_cli",
        ALGOLIA_HOSTS: fake.url,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain('Syncing imported products to the Algolia index "products_cli"');
      const inDb = await openDb("import-algolia.db").product.findMany({ select: { objectID: true } });
      const indexed = [...(fake.records.get("products_cli")?.keys() ?? [])];
      expect(indexed.sort()).toEqual(inDb.map((p) => p.objectID).sort());
      expect(indexed).toHaveLength(3);
      const writes = fake.requests.filter((r) => r.method !== "POST" || !r.path.endsWith("/query"));
      expect(writes.every((r) => r.headers["x-algolia-api-key"] === "admin-key-secret")).toBe(true);
    } finally {
      await fake.close();
    }
  }, 120_000);

  it("every row rejected: exit 2", async () => {
    const result = await cli("products-import", [copyFixture("products-all-bad.ndjson")], "bad.db");
    expect(result.code).toBe(2);
    expect(result.stdout).toContain("rejected: 3");
    expect(result.stderr).toContain("every row was rejected");
  }, 120_000);

  it("a file that cannot be read: exit 1 with the reason", async () => {
    const missing = await cli("products-import", [path.join(tmp, "nope.ndjson")], "bad.db");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("cannot read");
    const header = path.join(tmp, "header.csv");
    writeFileSync(header, "objectID,title\nx,Mug\n");
    const noColumns = await cli("products-import", [header], "bad.db");
    expect(noColumns.code).toBe(1);
    expect(noColumns.stderr).toMatch(/lacks required columns/);
    const usage = await cli("products-import", [], "bad.db");
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain("Usage: npm run products:import -- FILE");
  }, 120_000);
});

describe("npm run products:generate", () => {
  it("--out writes a file that products:import imports in full", async () => {
    const out = path.join(tmp, "generated.ndjson");
    const generated = await cli("products-generate", ["--count", "120", "--seed", "3", "--end-day", "2026-05-31", "--out", out], "unused.db");
    expect(generated.code, generated.stderr).toBe(0);
    expect(generated.stdout).toMatch(/Wrote 120 products \(seed 3, history to 2026-05-31\)/);
    expect(readFileSync(out, "utf8").trim().split("\n")).toHaveLength(120);
    expect(existsSync(path.join(tmp, "unused.db"))).toBe(false);

    const csv = path.join(tmp, "generated.csv");
    expect((await cli("products-generate", ["--count", "120", "--seed", "3", "--end-day", "2026-05-31", "--out", csv], "unused.db")).code).toBe(0);

    const imported = await cli("products-import", [out], "generated.db");
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain("imported: 120 new");
    expect(imported.stdout).toContain("rejected: 0");
    const fromCsv = await cli("products-import", [csv], "generated.db");
    expect(fromCsv.stdout).toContain("updated:  120");
    expect(await openDb("generated.db").product.count()).toBe(120);
  }, 180_000);

  it("straight into the database: the worker thread and the main thread make the same catalogue", async () => {
    const args = ["--count", "150", "--seed", "9", "--end-day", "2026-05-31"];
    const inline = await cli("products-generate", [...args, "--threads", "1"], "inline.db");
    const worker = await cli("products-generate", [...args, "--threads", "2"], "worker.db");
    expect(inline.code, inline.stderr).toBe(0);
    expect(worker.code, worker.stderr).toBe(0);
    expect(worker.stdout).toContain("imported: 150 new");
    const digest = async (db: Db) =>
      JSON.stringify(
        await db.product.findMany({
          orderBy: { objectID: "asc" },
          select: { objectID: true, title: true, priceCents: true, orders: true, winningScore: true, reasons: true, history: { select: { views: true } } },
        }),
      );
    const a = await digest(openDb("inline.db"));
    expect(a).toBe(await digest(openDb("worker.db")));
    expect(JSON.parse(a)).toHaveLength(150);
  }, 180_000);

  it("refuses a missing or bad --count", async () => {
    const result = await cli("products-generate", ["--seed", "3"], "unused.db");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("--count is required");
    expect((await cli("products-generate", ["--count", "0"], "unused.db")).stderr).toContain("--count must be a whole number");
  }, 60_000);
});
