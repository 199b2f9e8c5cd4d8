// `npm start`'s migration step on a postgresql:// DATABASE_URL (scripts/prepare-db.mjs, decision 098): a good
// database is migrated with prisma/postgresql/migrations (and again without change); one that does not answer, refuses
// the login, does not exist, or holds another version's migrations is one sentence naming DATABASE_URL, exit 1, no
// stack, no password, and nothing changed.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedPostgresCluster, type SharedPostgresCluster } from "../../helpers/postgres-cluster";

function prepareDb(url: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.resolve("scripts/prepare-db.mjs")], {
      env: { ...process.env, DATABASE_URL: url },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.listen({ port: 0, host: "127.0.0.1" }, () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const baseline = readFileSync("prisma/postgresql/migrations/000_baseline/migration.sql");

describe("migrating a PostgreSQL DATABASE_URL", () => {
  let cluster: SharedPostgresCluster;
  beforeAll(async () => {
    cluster = await sharedPostgresCluster();
  });

  const refused = async (url: string, sentence: RegExp) => {
    const run = await prepareDb(url);
    expect(run.code).toBe(1);
    const lines = run.stderr.trim().split("\n");
    expect(lines, run.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^DATABASE_URL \(postgresql:\/\/wp:\*\*\*@127\.0\.0\.1:\d+\/\w+\) /);
    expect(lines[0]).toMatch(sentence);
    expect(run.stderr).not.toContain(cluster.password);
    expect(run.stderr).not.toMatch(/External error|\n\s+at /);
  };

  it("migrates an empty database, and a second run changes nothing", async () => {
    const url = await cluster.createDatabase();
    const first = await prepareDb(url);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    const name = url.split("/").pop();
    const count = async () => (await cluster.query(`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'`, name)).rows[0].n;
    expect(await count()).toBeGreaterThan(50);
    const second = await prepareDb(url);
    expect(second.code).toBe(0);
    // Every committed migration once (the baseline, then each schema change since), however often it runs.
    const committed = readdirSync("prisma/postgresql/migrations", { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
    expect(committed[0]).toBe("000_baseline");
    const applied = await cluster.query(`SELECT "migration_name" FROM "_prisma_migrations" ORDER BY "migration_name"`, name);
    expect(applied.rows.map((r) => r.migration_name)).toEqual(committed);
  }, 120_000);

  it("names DATABASE_URL when nothing answers on its port", async () => {
    await refused(cluster.url("postgres").replace(`:${cluster.port}/`, `:${await closedPort()}/`), /does not answer: nothing accepted a PostgreSQL connection on 127\.0\.0\.1:\d+ \(ECONNREFUSED\)\.$/);
  });

  it("names DATABASE_URL when the password is wrong", async () => {
    const url = cluster.url("postgres", { password: "not-the-password" });
    const run = await prepareDb(url);
    expect(run.stderr.trim()).toMatch(/^DATABASE_URL \(postgresql:\/\/wp:\*\*\*@127\.0\.0\.1:\d+\/postgres\) was refused by the server on 127\.0\.0\.1:\d+: it does not accept user "wp" with this password\.$/);
    expect(run.code).toBe(1);
  });

  it("names DATABASE_URL when its database does not exist", async () => {
    await refused(cluster.url("no_such_db"), /names database "no_such_db", which does not exist on 127\.0\.0\.1:\d+: create it or correct the name\.$/);
  });

  it("refuses a database another version migrated, or one migrated with an older text of a migration, and changes nothing", async () => {
    const url = await cluster.createDatabase();
    const name = url.split("/").pop();
    expect((await prepareDb(url)).code).toBe(0);
    await cluster.query(
      `INSERT INTO "_prisma_migrations" ("id", "checksum", "finished_at", "migration_name", "started_at", "applied_steps_count")
       VALUES ('x', 'abc', now(), '999_from_the_future', now(), 1)`,
      name,
    );
    await refused(url, /was migrated by another version of the app \(999_from_the_future is not among this version's migrations\)/);
    await cluster.query(`DELETE FROM "_prisma_migrations" WHERE "id" = 'x'`, name);
    await cluster.query(`UPDATE "_prisma_migrations" SET "checksum" = 'older' WHERE "migration_name" = '000_baseline'`, name);
    await refused(url, /was migrated with an older text of 000_baseline than this version's/);
    const sha = createHash("sha256").update(baseline).digest("hex");
    await cluster.query(`UPDATE "_prisma_migrations" SET "checksum" = '${sha}', "finished_at" = NULL WHERE "migration_name" = '000_baseline'`, name);
    await refused(url, /has a migration that failed part-way \(000_baseline\)/);
  }, 120_000);

  it("refuses a database that holds tables but no migration history", async () => {
    const url = await cluster.createDatabase();
    await cluster.query(`CREATE TABLE "someone_elses" ("id" int)`, url.split("/").pop());
    await refused(url, /holds 1 table but no migration history of this app/);
  });
});
