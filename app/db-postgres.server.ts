// PostgreSQL behind the one client (decision 098), imported only by db.server.ts: the Prisma client generated from
// prisma/postgresql/schema.prisma (`npm run db:schemas`) on @prisma/adapter-pg, and the SqlReader's PostgreSQL
// dialect for the prepared-statement readers (docs/decisions/017) whose SQL both engines understand.
import { createRequire } from "node:module";
import type { InValue } from "@libsql/client";
import { PrismaPg } from "@prisma/adapter-pg";
import type { PrismaClient } from "@prisma/client";
import pg from "pg";

/** A DATABASE_URL naming a PostgreSQL server. */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** Values as the SQLite reader gives them: 64-bit integers and counts as numbers, timestamps (stored UTC) as Dates. */
const types = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (format !== "binary") {
      if (oid === pg.types.builtins.INT8) return (text: string) => Number(text);
      if (oid === pg.types.builtins.NUMERIC) return (text: string) => Number(text);
      if (oid === pg.types.builtins.TIMESTAMP) return (text: string) => new Date(`${text.replace(" ", "T")}Z`);
    }
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/** The app's Prisma client on PostgreSQL: the client generated for that provider, typed as the SQLite one (same models). */
export function createPostgresClient(url: string): PrismaClient {
  const require = createRequire(import.meta.url);
  const generated = require(".prisma/client-postgresql") as { PrismaClient: new (options: object) => PrismaClient };
  const client = new generated.PrismaClient({ adapter: new PrismaPg({ connectionString: url }) });
  // Raw statements written for SQLite with `?` placeholders ($queryRawUnsafe, $executeRawUnsafe) get PostgreSQL's.
  return client.$extends({
    query: {
      $queryRawUnsafe: ({ args, query }) => query([toPostgresPlaceholders(args[0]), ...args.slice(1)] as typeof args),
      $executeRawUnsafe: ({ args, query }) => query([toPostgresPlaceholders(args[0]), ...args.slice(1)] as typeof args),
    },
  }) as unknown as PrismaClient;
}

/**
 * SQLite's `?` placeholders as PostgreSQL's `$1, $2 ...`, outside quoted strings and identifiers; `LIKE ... ESCAPE`,
 * `||`, quoted identifiers and the rest of the readers' SQL read the same in both.
 */
export function toPostgresPlaceholders(sql: string): string {
  let n = 0;
  let out = "";
  let quote: string | null = null;
  for (const ch of sql) {
    if (quote) {
      if (ch === quote) quote = null;
      out += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else if (ch === "?") out += `$${++n}`;
    else out += ch;
  }
  return out;
}

export interface PostgresReader {
  readonly dialect: "postgresql";
  rows(sql: string, args?: InValue[]): Promise<unknown[][]>;
  row(sql: string, args?: InValue[]): Promise<unknown[] | undefined>;
  end(): Promise<void>;
}

/** Statements prepared by name (once per connection); past these the rest run unnamed. */
const STATEMENT_NAMES = 256;

/**
 * A small pool of `pg` connections of its own, for a library that speaks `pg` itself (the rate limiter's PostgreSQL
 * store): an idle connection the server closed is dropped, never an unhandled "error" event.
 */
export function createPostgresPool(url: string, max = 4): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, types });
  pool.on("error", () => {});
  return pool;
}

/** Rows as arrays from a small pool of its own, each statement prepared by name once per connection. */
export function createPostgresReader(url: string): PostgresReader {
  const pool = new pg.Pool({ connectionString: url, max: 4, types });
  // An idle connection the server closed (a restart, a failover) is dropped from the pool and the next read opens a
  // new one; unhandled, pg's "error" event would end the process.
  pool.on("error", () => {});
  const names = new Map<string, string>();
  const rows = async (sql: string, args: InValue[] = []) => {
    const text = toPostgresPlaceholders(sql);
    let name = names.get(text);
    if (!name && names.size < STATEMENT_NAMES) {
      name = `wp${names.size}`;
      names.set(text, name);
    }
    const values = args.map((v) => (typeof v === "bigint" ? v.toString() : v instanceof ArrayBuffer ? Buffer.from(v) : v));
    const result = await pool.query({ name, text, values, rowMode: "array" });
    return result.rows as unknown[][];
  };
  return { dialect: "postgresql", rows, row: async (sql, args) => (await rows(sql, args))[0], end: () => pool.end() };
}
