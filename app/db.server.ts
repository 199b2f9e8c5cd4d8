// The one Prisma client, shared by our services and Shopify's session storage. It talks to SQLite (a
// file, by default) or a libSQL server through the libSQL driver adapter (docs/decisions/002).
import {
  createClient,
  type Client as LibsqlClient,
  type Config as LibsqlConfig,
  type InStatement,
  type InValue,
  type TransactionMode,
} from "@libsql/client";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import LibsqlDatabaseCtor from "libsql";
import { Prisma, PrismaClient } from "@prisma/client";
import { createPostgresClient, createPostgresReader, isPostgresUrl } from "~/db-postgres.server";
import { getEnv } from "~/env.server";

export type Db = PrismaClient;

type LibsqlDatabase = InstanceType<typeof LibsqlDatabaseCtor>;
type LibsqlStatement = ReturnType<LibsqlDatabase["prepare"]>;

/** A JSON array stored in a text column; bad JSON or anything but an array reads as empty. */
export function parseJsonList(text: string): unknown[] {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

/** A JSON array of strings stored in a text column (niches, tags, images ...), each entry as a string. */
export function parseStringList(text: string): string[] {
  return parseJsonList(text).map(String);
}

/** A write refused by a unique index: Prisma's P2002, or the driver's own message for raw SQL. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string; meta?: unknown };
  return (
    e.code === "P2002" ||
    e.code === "23505" ||
    /UNIQUE constraint failed|duplicate key value violates unique constraint/i.test(`${e.message ?? ""} ${JSON.stringify(e.meta ?? "")}`)
  );
}

const isBusyError = (e: unknown) =>
  /SQLITE_BUSY|database is locked/i.test(`${(e as { code?: string })?.code ?? ""} ${(e as Error)?.message ?? ""}`);

/**
 * The libSQL adapter with four repairs for a local SQLite file shared by several processes
 * (docs/decisions/002, measured by tests/integration/billing/credits-busy.test.ts):
 * - transactions run on the client's one connection: @libsql/client 0.8 hands its connection to each transaction
 *   and opens a fresh one for the next statement, and the one it handed over is never closed (its file handles stay
 *   until the garbage collector finds it, or for good: libsql-client-ts#350), so ~6,700 transactions in a row
 *   used up 20,000 file descriptors and every later statement failed "unable to open database file". Prisma's
 *   adapter runs nothing else on the client while a transaction is open (it holds its lock until commit or
 *   rollback), so the transaction can have the connection to itself (tests/integration/database/sqlite-transactions.test.ts);
 * - every connection gets busy_timeout and foreign_keys (a replaced one is a fresh connection), so writers do not
 *   fail at once under contention;
 * - a connection whose statement failed with SQLITE_BUSY is replaced: libsql 0.3 leaves it inside an
 *   unfinished implicit transaction, and a later "successful" write on it was never committed;
 * - transactions begin IMMEDIATE, waiting for the write lock up front instead of failing when a
 *   read snapshot cannot be upgraded.
 */
class SharedFileLibSQL extends PrismaLibSQL {
  createClient(config: LibsqlConfig): LibsqlClient {
    const local = config.url.startsWith("file:");
    const open = () => super.createClient(config);
    let inner = open();
    let tuned = !local;
    const tune = async () => {
      if (tuned) return;
      tuned = true;
      await inner.execute("PRAGMA busy_timeout = 5000");
      await inner.execute("PRAGMA foreign_keys = ON");
    };
    const replace = () => {
      const broken = inner;
      inner = open();
      tuned = !local;
      try {
        broken.close();
      } catch {
        // already closed
      }
    };
    const guarded = async <T>(fn: () => Promise<T>): Promise<T> => {
      await tune();
      try {
        return await fn();
      } catch (error) {
        if (isBusyError(error)) replace();
        throw error;
      }
    };
    /** A transaction on the client's connection (a local file), begun as libSQL would begin it for that mode. */
    const ownTransaction = async (mode: "read" | "write") => {
      await guarded(() => inner.execute(mode === "read" ? "BEGIN TRANSACTION READONLY" : "BEGIN IMMEDIATE"));
      const connection = inner;
      let open = true;
      const during = <T>(fn: () => Promise<T>): Promise<T> => {
        if (!open) throw new Error("The transaction is closed.");
        return fn();
      };
      const end = async (sql: "COMMIT" | "ROLLBACK") => {
        if (!open) return;
        open = false;
        try {
          await connection.execute(sql);
        } catch (error) {
          // A connection left inside its transaction is not used again.
          try {
            await connection.execute("ROLLBACK");
          } catch {
            if (connection === inner) replace();
          }
          if (sql === "COMMIT") throw error;
        }
      };
      return {
        execute: (stmt: InStatement) => during(() => connection.execute(stmt)),
        batch: (...args: Parameters<LibsqlClient["batch"]>) => during(() => connection.batch(...args)),
        executeMultiple: (sql: string) => during(() => connection.executeMultiple(sql)),
        commit: () => end("COMMIT"),
        rollback: () => end("ROLLBACK"),
        close: () => void end("ROLLBACK").catch(() => undefined),
        get closed() {
          return !open;
        },
      };
    };
    const client = {
      execute: (stmt: InStatement) => guarded(() => inner.execute(stmt)),
      batch: (...args: Parameters<LibsqlClient["batch"]>) => guarded(() => inner.batch(...args)),
      executeMultiple: (sql: string) => guarded(() => inner.executeMultiple(sql)),
      async transaction(mode?: TransactionMode) {
        if (local) return ownTransaction(mode === "read" ? "read" : "write");
        // A libSQL server's transaction (nothing to tune: the pragmas are the server's).
        return guarded(() => inner.transaction(mode === "read" ? "read" : "write"));
      },
      close: () => inner.close(),
      get closed() {
        return inner.closed;
      },
      get protocol() {
        return inner.protocol;
      },
    };
    return client as unknown as LibsqlClient;
  }
}

/** Each client's SqlReader on the same database, opened on first use (readerFor). */
const readers = new WeakMap<object, () => SqlReader>();

/** The clients createDb made on PostgreSQL (decision 098); every other one speaks SQLite. */
const postgresClients = new WeakSet<object>();

/** Whether a DATABASE_URL is PostgreSQL's (postgresql:// or postgres://); file: and libsql URLs are SQLite. */
export { isPostgresUrl };
/** A `pg` pool on a PostgreSQL URL, for a library that speaks `pg` itself (decision 098). */
export { createPostgresPool } from "~/db-postgres.server";

/** Which SQL the database behind a client made by createDb speaks. */
export function dialectOf(db: DbClient | Db): "postgresql" | "sqlite" {
  return postgresClients.has(db) ? "postgresql" : "sqlite";
}

export function createDb(url: string, authToken?: string): Db {
  if (isPostgresUrl(url)) {
    const client = createPostgresClient(url);
    postgresClients.add(client);
    let reader: SqlReader | null = null;
    readers.set(client, () => (reader ??= createPostgresReader(url)));
    return client;
  }
  const client = new PrismaClient({ adapter: new SharedFileLibSQL({ url, authToken }) });
  let reader: SqlReader | null = null;
  readers.set(client, () => (reader ??= createSqlReader(url, authToken)));
  return client;
}

/**
 * The SqlReader on the same database as a client made by createDb, or null (e.g. for the client of
 * an open transaction, which must keep reading through Prisma to see its own writes).
 */
export function readerFor(db: DbClient | Db): SqlReader | null {
  return readers.get(db)?.() ?? null;
}

export type Dialect = ReturnType<typeof dialectOf>;

/**
 * Rows of a JSON array bound as ONE parameter (`?`), each element as `alias.value`: SQLite's json_each, PostgreSQL's
 * jsonb_array_elements (`texts`: the elements are strings, read as text, jsonb_array_elements_text). Writers send a
 * batch as one JSON parameter on both engines (decision 011); read the elements' items with jsonItem.
 */
export function jsonRows(dialect: Dialect, alias: string, texts = false): string {
  if (dialect === "sqlite") return `json_each(?) AS ${alias}`;
  return `jsonb_array_elements${texts ? "_text" : ""}(CAST(? AS jsonb)) AS ${alias}(value)`;
}

const POSTGRES_TYPES: Record<string, string> = {
  String: "text",
  Int: "integer",
  BigInt: "bigint",
  Float: "double precision",
  Boolean: "boolean",
  DateTime: "timestamp(3)",
  Bytes: "bytea",
};

/**
 * Item `index` of a jsonRows element that is an array, as column `model.field` takes it: SQLite stores the JSON
 * value as it is; PostgreSQL's `->>` is text, cast to the column's type (from the schema; text without a field).
 */
export function jsonItem(dialect: Dialect, alias: string, index: number, model?: Prisma.ModelName, field?: string): string {
  const item = `${alias}.value ->> ${index}`;
  if (dialect === "sqlite" || !model || !field) return item;
  const type = Prisma.dmmf.datamodel.models.find((m) => m.name === model)?.fields.find((f) => f.name === field)?.type;
  if (!type || !POSTGRES_TYPES[type]) throw new Error(`jsonItem: ${model}.${field} is not a scalar column`);
  return type === "String" ? item : `CAST(${item} AS ${POSTGRES_TYPES[type]})`;
}

/** A DateTime column as whole seconds since 1970 (an integer on both engines). */
export function epochSeconds(dialect: Dialect, column: string): string {
  return dialect === "sqlite" ? `CAST(strftime('%s', ${column}) AS INTEGER)` : `CAST(floor(extract(epoch FROM ${column})) AS bigint)`;
}

/**
 * The first element of a JSON array held in a text column, when it is a string (`value`), and the condition that it
 * is one (`isText`). PostgreSQL reads the column as jsonb: the columns read this way are only ever written by
 * JSON.stringify, so they always parse (SQLite's json_valid guard has no PostgreSQL 15 twin that does not throw).
 */
export function jsonFirstText(dialect: Dialect, column: string): { value: string; isText: string } {
  if (dialect === "sqlite") return { value: `json_extract(${column}, '$[0]')`, isText: `json_valid(${column}) AND json_type(${column}, '$[0]') = 'text'` };
  return { value: `(CAST(${column} AS jsonb) ->> 0)`, isText: `jsonb_typeof(CAST(${column} AS jsonb) -> 0) = 'string'` };
}

/** A DateTime literal in a raw statement, typed on PostgreSQL (where a bare literal can be read as text). */
export function timeLiteral(dialect: Dialect, text: string): string {
  return dialect === "sqlite" ? `'${text}'` : `CAST('${text}' AS timestamp(3))`;
}

/** DateTime as Prisma's SQLite adapter writes it ("2026-01-31T00:00:00.000+00:00"), for raw statements: text order = time order. */
export function toDbTime(date: Date): string {
  return date.toISOString().replace("Z", "+00:00");
}

/** A nullable text column as the driver gives it: null, or the text. */
export function textOrNull(value: unknown): string | null {
  return value === null ? null : String(value);
}

/** A DateTime column as Prisma writes it (ISO text), or as SQLite's CURRENT_TIMESTAMP default does. */
export function dateFromDb(value: unknown): Date {
  if (value instanceof Date) return value;
  if (typeof value === "number") return new Date(value);
  const text = String(value);
  return new Date(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?$/.test(text) ? `${text.replace(" ", "T")}Z` : text);
}

/** A nullable DateTime column as the driver gives it: null, or the Date (dateFromDb). */
export function dateOrNull(value: unknown): Date | null {
  return value === null ? null : dateFromDb(value);
}

/** A row of the driver's values keyed by the names of its columns, given in the SELECT's order. */
export function namedRow<Field extends string>(fields: readonly Field[], row: unknown[]): Record<Field, unknown> {
  return Object.fromEntries(fields.map((field, i) => [field, row[i]])) as Record<Field, unknown>;
}

/**
 * WAL lets readers run beside one writer; busy_timeout makes a second writer wait instead of failing
 * with SQLITE_BUSY (measured in ENVIRONMENT.md). Only meaningful for a local file. The switch to WAL is
 * refused at once, not waited for, while another process holds the file's write lock (SQLite's busy wait
 * could deadlock there): the server's workers starting together on a file not yet in WAL mode, or a
 * command writing to it, would stop the one refused; it is retried as a write that lost the lock is.
 */
export async function tuneSqlite(db: Db, url: string): Promise<void> {
  if (!url.startsWith("file:")) return;
  await db.$queryRawUnsafe("PRAGMA busy_timeout = 5000");
  await retryBusy(() => db.$queryRawUnsafe("PRAGMA journal_mode = WAL"));
  await db.$queryRawUnsafe("PRAGMA foreign_keys = ON");
}

/**
 * Reads that return rows as arrays (no per-row objects), outside Prisma: the search index loads a
 * million rows and reads FTS5 posting lists through this, and the hot paths of every signed-in request
 * (session, product cards, saved marks) use it because a Prisma query costs ~0.6 ms of CPU where a
 * prepared statement costs ~0.02 ms (measured by `npm run bench -- search`, docs/decisions/017).
 * Read-only by convention; writes go through Prisma.
 */
export interface SqlReader {
  /** The SQL it speaks: a reader whose statement differs between the engines picks its text by this (decision 098). */
  readonly dialect: "sqlite" | "postgresql";
  rows(sql: string, args?: InValue[]): Promise<unknown[][]>;
  /** The first row only (a lookup by key): one call into the driver instead of a cursor. */
  row(sql: string, args?: InValue[]): Promise<unknown[] | undefined>;
}

/** Statements kept prepared per reader; the app uses a few dozen distinct SQL texts. */
const STATEMENT_CACHE_SIZE = 256;

/** A local file: the libsql driver directly, with prepared statements reused. */
function createFileReader(url: string): SqlReader {
  const file = url.slice("file:".length).split("?")[0];
  let database: LibsqlDatabase | null = null;
  // Each statement with whether it returns rows, asked once: `reader` and `raw` are calls into the driver's native
  // code, which cost as much as a one-row read when made on every call. Raw mode stays set on the statement.
  const statements = new Map<string, { statement: LibsqlStatement; reader: boolean }>();
  const open = (): LibsqlDatabase => {
    if (database) return database;
    const opened: LibsqlDatabase = new LibsqlDatabaseCtor(file);
    opened.pragma("busy_timeout = 5000");
    database = opened;
    return opened;
  };
  const prepare = (sql: string) => {
    let prepared = statements.get(sql);
    if (!prepared) {
      const statement = open().prepare(sql);
      const reader = statement.reader;
      // PRAGMA and other statements that return nothing cannot run in raw mode.
      if (reader) statement.raw(true);
      prepared = { statement, reader };
      if (statements.size >= STATEMENT_CACHE_SIZE) statements.clear();
      statements.set(sql, prepared);
    }
    return prepared;
  };
  return {
    dialect: "sqlite",
    async rows(sql, args = []) {
      const { statement, reader } = prepare(sql);
      if (!reader) {
        statement.run(args.map(toDriverValue));
        return [];
      }
      return statement.all(args.map(toDriverValue)) as unknown[][];
    },
    async row(sql, args = []) {
      const { statement, reader } = prepare(sql);
      if (!reader) {
        statement.run(args.map(toDriverValue));
        return undefined;
      }
      return statement.get(args.map(toDriverValue)) as unknown[] | undefined;
    },
  };
}

function toDriverValue(value: InValue): unknown {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  return value;
}

export function createSqlReader(url: string, authToken?: string): SqlReader {
  if (url.startsWith("file:")) return createFileReader(url);
  const client = createClient({ url, authToken, intMode: "number" });
  const rows = async (sql: string, args: InValue[] = []) => {
    const result = await client.execute({ sql, args });
    return result.rows.map((row) => Array.from({ length: result.columns.length }, (_, i) => row[i]));
  };
  return { dialect: "sqlite", rows, row: async (sql, args = []) => (await rows(sql, args))[0] };
}

declare global {
  var __db: { client: Db; ready: Promise<void>; reader: SqlReader } | undefined;
}

function init() {
  const env = getEnv();
  const client = createDb(env.DATABASE_URL, env.DATABASE_AUTH_TOKEN);
  return { client, ready: tuneSqlite(client, env.DATABASE_URL), reader: readerFor(client)! };
}

// One client per process, kept across Vite's hot reloads in development.
const holder = (globalThis.__db ??= init());

export const db: Db = holder.client;
export const sqlReader: SqlReader = holder.reader;
/** Resolves once connection pragmas are set; awaited by the health check and start-up. */
export const dbReady: Promise<void> = holder.ready;
export default db;

/** Any Prisma client, or the client of an open transaction. */
export type DbClient = Prisma.TransactionClient;

function isBusy(error: unknown): boolean {
  const e = error as { code?: string; message?: string; cause?: unknown };
  const text = `${e.code ?? ""} ${e.message ?? ""} ${String(e.cause ?? "")}`;
  return /SQLITE_BUSY|database is locked|P1008|P2034/i.test(text);
}

/**
 * Writes this process retried because another process held SQLite's write lock, and those that gave up: how
 * close one database file is to its limit (`npm run bench -- crawl`).
 */
export const busyCounts = { retried: 0, gaveUp: 0 };

/** Retries a write that lost the race for SQLite's write lock to another process. */
export async function retryBusy<T>(fn: () => Promise<T>, retries = 8): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (!isBusy(error)) throw error;
      if (attempt >= retries) {
        busyCounts.gaveUp++;
        throw error;
      }
      busyCounts.retried++;
      await new Promise((r) => setTimeout(r, 5 * 2 ** attempt + Math.random() * 10));
    }
  }
}

/**
 * An all-or-nothing unit of work. libSQL opens a fresh connection for each transaction, without the
 * start-up pragmas, so busy_timeout is set again inside it, and the whole unit is retried when another
 * process held the lock (ENVIRONMENT.md measured ~43% failures under contention without this).
 * Keep it short: the adapter serialises every query of this process while it is open.
 */
export function writeTransaction<T>(db: Db, fn: (tx: DbClient) => Promise<T>): Promise<T> {
  const sqlite = dialectOf(db) === "sqlite";
  return retryBusy(() =>
    db.$transaction(
      async (tx) => {
        if (sqlite) await tx.$queryRawUnsafe("PRAGMA busy_timeout = 5000");
        return fn(tx);
      },
      // SQLite runs one writer at a time, so a unit that reads and then writes sees no other writer in between. On
      // PostgreSQL the same promise is SERIALIZABLE: a unit that would have interleaved with another fails with a
      // serialization failure (P2034; also a duplicate key its own read would have seen) and is run again whole.
      sqlite ? undefined : { isolationLevel: "Serializable" },
    ),
  );
}
