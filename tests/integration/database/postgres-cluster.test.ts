// The throw-away PostgreSQL cluster the tests on PostgreSQL run on (tests/helpers/postgres-cluster.ts, decision 098):
// it answers on its own port with password authentication, and nothing of it is left after stop(). The run shares one
// (started by the first file that asks); each file's databases are its own: migrated copies or empty ones.
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import net from "node:net";
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { freshPostgresDatabase, sharedPostgresCluster, startPostgresCluster, type SharedPostgresCluster } from "../../helpers/postgres-cluster";

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

async function tablesOf(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name");
    return rows.map((r) => r.table_name);
  } finally {
    await client.end();
  }
}

describe("a throw-away PostgreSQL cluster", () => {
  let cluster: SharedPostgresCluster;
  beforeAll(async () => {
    cluster = await sharedPostgresCluster();
  });

  it("serves a fresh database on its port, as its own user with a password", async () => {
    const url = await cluster.createDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query("SELECT current_user AS who, current_database() AS db, version() AS v");
    await client.end();
    expect(rows[0].who).toBe(cluster.user);
    expect(url.endsWith(`/${rows[0].db}`)).toBe(true);
    expect(rows[0].v).toMatch(/^PostgreSQL \d+/);
  });

  it("refuses a wrong password", async () => {
    const client = new pg.Client({ connectionString: cluster.url("postgres", { password: "wrong" }) });
    await expect(client.connect()).rejects.toThrow(/password authentication failed/);
  });

  it("is stopped and removed by stop()", async () => {
    const other = await startPostgresCluster();
    expect(await portAnswers(other.port)).toBe(true);
    expect(existsSync(other.dir)).toBe(true);
    await other.stop();
    expect(await portAnswers(other.port)).toBe(false);
    expect(existsSync(other.dir)).toBe(false);
  });

  it("gives each call a database of its own: migrated from prisma/postgresql/migrations, or empty when asked", async () => {
    const first = await freshPostgresDatabase();
    const second = await freshPostgresDatabase();
    expect(second).not.toBe(first);
    const name = (url: string) => url.split("/").pop()!;
    const committed = readdirSync("prisma/postgresql/migrations", { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
    const applied = await cluster.query(`SELECT "migration_name" FROM "_prisma_migrations" WHERE "finished_at" IS NOT NULL ORDER BY "migration_name"`, name(first));
    expect(applied.rows.map((r) => r.migration_name)).toEqual(committed);
    expect((await tablesOf(first)).length).toBeGreaterThan(50);
    // A row written in one is not in the other.
    await cluster.query(`INSERT INTO "User" ("id", "email", "updatedAt") VALUES ('only-here', 'a@example.com', now())`, name(first));
    expect((await cluster.query(`SELECT count(*)::int AS n FROM "User"`, name(first))).rows[0].n).toBe(1);
    expect((await cluster.query(`SELECT count(*)::int AS n FROM "User"`, name(second))).rows[0].n).toBe(0);
    expect(await tablesOf(await freshPostgresDatabase({ empty: true }))).toEqual([]);
  }, 120_000);

  it("a shared cluster that failed to start fails every later caller with the same sentence", async () => {
    const saved = { run: process.env.TEST_TMP_DIR, bin: process.env.POSTGRES_BIN_DIR };
    const runDir = mkdtempSync(path.join(os.tmpdir(), "wp-run-"));
    Object.assign(process.env, { TEST_TMP_DIR: runDir, POSTGRES_BIN_DIR: path.join(runDir, "no-postgres-here") });
    try {
      const first = await sharedPostgresCluster().catch((e: Error) => e.message);
      expect(first).toMatch(/^The test PostgreSQL cluster did not start: /);
      expect(await sharedPostgresCluster().catch((e: Error) => e.message)).toBe(first);
      expect(await freshPostgresDatabase().catch((e: Error) => e.message)).toBe(first);
    } finally {
      Object.assign(process.env, { TEST_TMP_DIR: saved.run, POSTGRES_BIN_DIR: saved.bin });
      if (saved.bin === undefined) delete process.env.POSTGRES_BIN_DIR;
      rmSync(runDir, { recursive: true, force: true });
    }
  });
});
