// One schema source for both providers (decision 098): prisma/postgresql/schema.prisma is generated from
// prisma/schema.prisma by `npm run db:schemas`. These tests read both files: the same models with the same fields
// (name, type, optionality, defaults, relations) and the same indexes and keys, and the committed generated files are
// what the source makes today.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { postgresSchema, staleness } from "../../../scripts/db-schemas.mjs";

interface Model {
  fields: Record<string, string>;
  blockAttributes: string[];
}

/** Each model's fields (the rest of the line after the name, spaces squeezed) and its @@ attributes, sorted. */
function models(schema: string): Record<string, Model> {
  const out: Record<string, Model> = {};
  for (const match of schema.matchAll(/^model (\w+) \{\n([\s\S]*?)^\}/gm)) {
    const model: Model = { fields: {}, blockAttributes: [] };
    for (const raw of match[2].split("\n")) {
      const line = raw.replace(/\/\/.*$/, "").trim();
      if (!line) continue;
      if (line.startsWith("@@")) model.blockAttributes.push(line.replace(/\s+/g, " "));
      else {
        const [name, ...rest] = line.split(/\s+/);
        model.fields[name] = rest.join(" ");
      }
    }
    model.blockAttributes.sort();
    out[match[1]] = model;
  }
  return out;
}

const datasource = (schema: string) => /datasource db \{[^}]*provider\s*=\s*"(\w+)"/.exec(schema)?.[1];

describe("the SQLite and PostgreSQL schemas", () => {
  const sqlite = readFileSync("prisma/schema.prisma", "utf8");
  const postgres = readFileSync("prisma/postgresql/schema.prisma", "utf8");

  it("define the same models, fields, indexes and keys, each for its own provider", () => {
    expect(datasource(sqlite)).toBe("sqlite");
    expect(datasource(postgres)).toBe("postgresql");
    const a = models(sqlite);
    const b = models(postgres);
    expect(Object.keys(a).length).toBeGreaterThan(50);
    expect(Object.keys(b).sort()).toEqual(Object.keys(a).sort());
    for (const name of Object.keys(a)) {
      expect(b[name].fields, name).toEqual(a[name].fields);
      expect(b[name].blockAttributes, name).toEqual(a[name].blockAttributes);
    }
    // Indexes and unique keys are counted on both sides, so a lost @@index cannot pass unnoticed.
    const indexes = (m: Record<string, Model>) =>
      Object.values(m).flatMap((model) => model.blockAttributes.filter((x) => /^@@(index|unique|id)\b/.test(x))).length;
    expect(indexes(b)).toBe(indexes(a));
    expect(indexes(a)).toBeGreaterThan(80);
  });

  it("are told apart by a comparison that sees a changed field or index", () => {
    const changed = models(postgresSchema(sqlite.replace(/(model User \{[\s\S]*?email\s+)String/, "$1Int")));
    expect(changed.User.fields.email).toMatch(/^Int/);
    expect(changed.User.fields).not.toEqual(models(sqlite).User.fields);
    const lostIndex = models(postgresSchema(sqlite.replace(/\n\s*@@index\(\[userId, createdAt\]\)/, "")));
    expect(Object.values(lostIndex).flatMap((m) => m.blockAttributes).length).toBeLessThan(
      Object.values(models(sqlite)).flatMap((m) => m.blockAttributes).length,
    );
  });

  it("are committed as `npm run db:schemas` makes them from the source", () => {
    expect(staleness()).toEqual([]);
    expect(postgres).toBe(postgresSchema(sqlite));
    expect(readFileSync("prisma/postgresql/migrations/migration_lock.toml", "utf8")).toMatch(/provider = "postgresql"/);
  });

  it("make --check fail with a sentence when the source changed and the generated files did not", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "wp-db-schemas-check-"));
    try {
      cpSync("prisma", path.join(dir, "prisma"), { recursive: true });
      const check = () => spawnSync("node", [path.resolve("scripts/db-schemas.mjs"), "--check"], { cwd: dir, encoding: "utf8" });
      expect(check().status).toBe(0);
      writeFileSync(path.join(dir, "prisma/schema.prisma"), `${sqlite}\nmodel Extra {\n  id Int @id\n}\n`);
      const stale = check();
      expect(stale.status).toBe(1);
      expect(stale.stderr.trim()).toBe(
        "prisma/postgresql/schema.prisma is not what prisma/schema.prisma makes. Run `npm run db:schemas` and commit what it writes.",
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
