// prisma/schema.prisma and prisma/migrations must describe the same database: migrations are written by
// hand here (`prisma migrate dev` cannot run on these machines, docs/decisions/001), so a column typed in one
// and not the other would only show up as a runtime error. This test builds the schema's database with
// `prisma migrate diff --from-empty` and compares it, table by table, with the migrated test database.
// What Prisma cannot express is allowed on the migrations' side only: the FTS5 search tables and partial or
// expression indexes (see migrations 004, 007, 013).
import { execFileSync } from "node:child_process";
import path from "node:path";
import { createClient, type Client } from "@libsql/client";
import { afterAll, describe, expect, it } from "vitest";

const tmp = process.env.TEST_TMP_DIR!;
const migrated = createClient({ url: `file:${process.env.TEST_DB_FILE}` });
const fromSchema = createClient({ url: `file:${path.join(tmp, `schema-only-${process.pid}.db`)}` });

afterAll(() => {
  migrated.close();
  fromSchema.close();
});

interface TableShape {
  columns: Record<string, string>;
  indexes: Record<string, string>;
  foreignKeys: string[];
}

async function shapes(db: Client): Promise<Record<string, TableShape>> {
  const tables = await db.execute(
    `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' AND name NOT LIKE '\\_%' ESCAPE '\\'`,
  );
  const out: Record<string, TableShape> = {};
  for (const { name } of tables.rows as unknown as { name: string }[]) {
    const columns: Record<string, string> = {};
    for (const c of (await db.execute(`PRAGMA table_info("${name}")`)).rows) {
      columns[String(c.name)] = `${String(c.type).toUpperCase()} ${c.notnull ? "NOT NULL" : "NULL"} default=${String(c.dflt_value)} pk=${String(c.pk)}`;
    }
    const indexes: Record<string, string> = {};
    for (const i of (await db.execute(`PRAGMA index_list("${name}")`)).rows) {
      const cols = (await db.execute(`PRAGMA index_info("${String(i.name)}")`)).rows.map((r) => String(r.name));
      const sql = (await db.execute({ sql: "SELECT sql FROM sqlite_master WHERE name = ?", args: [i.name] })).rows[0]?.sql;
      const special = typeof sql === "string" && /\bWHERE\b|\(\(/i.test(sql);
      indexes[`${i.unique ? "unique" : "index"}(${cols.join(",")})${special ? " partial-or-expression" : ""}`] = String(i.name);
    }
    const foreignKeys = (await db.execute(`PRAGMA foreign_key_list("${name}")`)).rows
      .map((f) => `${String(f.from)} -> ${String(f.table)}.${String(f.to)} on delete ${String(f.on_delete)}`)
      .sort();
    out[name] = { columns, indexes, foreignKeys };
  }
  return out;
}

describe("schema.prisma and the migrations", () => {
  it("describe the same tables, columns, indexes and foreign keys", async () => {
    const sql = execFileSync(
      path.resolve("node_modules/.bin/prisma"),
      ["migrate", "diff", "--from-empty", "--to-schema-datamodel", "prisma/schema.prisma", "--script"],
      { env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: "/bin/true" }, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
    );
    await fromSchema.executeMultiple(sql);
    const [want, got] = await Promise.all([shapes(fromSchema), shapes(migrated)]);

    const searchTables = (t: string) => /^ProductSearch/.test(t);
    expect(Object.keys(got).filter((t) => !searchTables(t)).sort()).toEqual(Object.keys(want).sort());
    for (const table of Object.keys(want)) {
      expect({ table, columns: got[table].columns }).toEqual({ table, columns: want[table].columns });
      expect({ table, foreignKeys: got[table].foreignKeys }).toEqual({ table, foreignKeys: want[table].foreignKeys });
      const migratedIndexes = Object.keys(got[table].indexes).filter((k) => !k.endsWith("partial-or-expression"));
      expect({ table, indexes: migratedIndexes.sort() }).toEqual({ table, indexes: Object.keys(want[table].indexes).sort() });
    }
  }, 60_000);
});
