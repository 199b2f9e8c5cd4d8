// The PostgreSQL database `prisma migrate deploy` makes from prisma/postgresql/migrations (decision 098) is the SQLite
// database prisma/migrations makes: the same tables, columns (and which may be null), indexes (and which are unique),
// and what SQLite's hand-written SQL does (the credit ledger's triggers and check, the partial indexes), with the
// products' full-text index in PostgreSQL's own words.
import Database from "libsql";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshPostgresDatabase } from "../../helpers/postgres-cluster";

type Shape = { columns: Record<string, string[]>; indexes: string[] };

function sqliteShape(file: string): Shape {
  const d = new Database(file, { readonly: true });
  const tables = (d.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'").all() as { name: string }[])
    .map((t) => t.name)
    .filter((t) => !t.startsWith("_prisma") && !t.startsWith("sqlite_") && !t.startsWith("ProductSearch"));
  const columns: Shape["columns"] = {};
  const indexes: string[] = [];
  for (const table of tables) {
    const info = d.prepare(`PRAGMA table_info("${table}")`).all() as { name: string; notnull: number; pk: number }[];
    columns[table] = info.map((c) => `${c.name}${c.notnull || c.pk ? " not null" : ""}`).sort();
    for (const index of d.prepare(`PRAGMA index_list("${table}")`).all() as { name: string; unique: number; origin: string }[]) {
      if (index.origin === "pk") continue;
      indexes.push(`${table}.${index.name}${index.unique ? " unique" : ""}`);
    }
  }
  d.close();
  return { columns, indexes: indexes.sort() };
}

async function postgresShape(client: pg.Client): Promise<Shape> {
  const columns: Shape["columns"] = {};
  const { rows } = await client.query<{ table_name: string; column_name: string; is_nullable: string }>(
    "SELECT table_name, column_name, is_nullable FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'",
  );
  for (const row of rows) (columns[row.table_name] ??= []).push(`${row.column_name}${row.is_nullable === "NO" ? " not null" : ""}`);
  for (const list of Object.values(columns)) list.sort();
  const indexes = await client.query<{ tablename: string; indexname: string; indexdef: string }>(
    "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename <> '_prisma_migrations' AND indexname NOT LIKE '%\\_pkey'",
  );
  return {
    columns,
    indexes: indexes.rows.map((i) => `${i.tablename}.${i.indexname}${/^CREATE UNIQUE/.test(i.indexdef) ? " unique" : ""}`).sort(),
  };
}

describe("the PostgreSQL database the migrations make", () => {
  let client: pg.Client;
  beforeAll(async () => {
    const url = await freshPostgresDatabase();
    client = new pg.Client({ connectionString: url });
    await client.connect();
  }, 120_000);
  afterAll(async () => {
    await client?.end();
  });

  it("has SQLite's tables, columns, nullability and indexes, plus the products' full-text index", async () => {
    const sqlite = sqliteShape(process.env.TEST_DB_FILE!);
    const postgres = await postgresShape(client);
    expect(Object.keys(sqlite.columns).length).toBeGreaterThan(50);
    expect(Object.keys(postgres.columns).sort()).toEqual(Object.keys(sqlite.columns).sort());
    for (const table of Object.keys(sqlite.columns)) expect(postgres.columns[table], table).toEqual(sqlite.columns[table]);
    expect(postgres.indexes.filter((i) => i !== "Product.Product_search_idx")).toEqual(sqlite.indexes);
    expect(sqlite.indexes).toContain("Product.Product_glitchSpread_idx");
    expect(postgres.indexes).toContain("Product.Product_search_idx");
  });

  it("holds the rows SQLite's migrations insert: the catalogue's one state row", async () => {
    const { rows } = await client.query(`SELECT "id", "version" FROM "CatalogState"`);
    expect(rows).toEqual([{ id: 1, version: 0 }]);
  });

  it("keeps credit balances from the ledger, append-only, never below zero, as SQLite's triggers do", async () => {
    await client.query(`INSERT INTO "User" ("id", "email", "updatedAt") VALUES ('u1', 'a@example.com', now())`);
    const grant = (amount: number, key: string) =>
      client.query(
        `INSERT INTO "CreditLedger" ("userId", "feature", "kind", "amount", "balanceAfter", "idempotencyKey") VALUES ('u1', 'ai_ads', 'grant', $1, 0, $2)`,
        [amount, key],
      );
    await grant(5, "k1");
    await grant(-2, "k2");
    const balance = async () =>
      (await client.query(`SELECT "balance" FROM "CreditBalance" WHERE "userId" = 'u1' AND "feature" = 'ai_ads'`)).rows[0]?.balance;
    expect(await balance()).toBe(3);
    await expect(grant(-4, "k3")).rejects.toThrow(/CreditBalance_balance_check/);
    expect(await balance()).toBe(3);
    await expect(client.query(`UPDATE "CreditLedger" SET "amount" = 100`)).rejects.toThrow(/CreditLedger is append-only/);
    await expect(client.query(`DELETE FROM "CreditLedger"`)).rejects.toThrow(/CreditLedger is append-only/);
    // Once the user is erased, its ledger may go (009_account_erasure).
    await client.query(`DELETE FROM "User" WHERE "id" = 'u1'`);
    await client.query(`DELETE FROM "CreditLedger" WHERE "userId" = 'u1'`);
    expect((await client.query(`SELECT count(*)::int AS n FROM "CreditLedger"`)).rows[0].n).toBe(0);
  });

  it("matches products' words stemmed, as FTS5's porter tokenizer does, with the function its index is built on", async () => {
    const matches = async (query: string) =>
      (
        await client.query(
          `SELECT "product_search_document"($1, $2, $3, $4) @@ websearch_to_tsquery('english', $5) AS hit`,
          ["Posture corrector", "Straightens shoulders", '["health"]', '["back"]', query],
        )
      ).rows[0].hit;
    expect(await matches("correctors shoulder")).toBe(true);
    expect(await matches("HEALTH")).toBe(true);
    expect(await matches("kitchen")).toBe(false);
  });
});
