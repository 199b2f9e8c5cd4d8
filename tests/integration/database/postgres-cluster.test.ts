// The throw-away PostgreSQL cluster the tests on PostgreSQL run on (tests/helpers/postgres-cluster.ts, decision 098):
// it answers on its own port with password authentication, and nothing of it is left after stop().
import { existsSync } from "node:fs";
import net from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgresCluster, type PostgresCluster } from "../../helpers/postgres-cluster";

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

describe("a throw-away PostgreSQL cluster", () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  });
  afterAll(async () => {
    await cluster?.stop();
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
});
