// Before `prisma migrate deploy` touches a PostgreSQL DATABASE_URL (decision 098): can we reach it, log in, and is its
// migration history this version's? Each refusal is one sentence naming DATABASE_URL (its password hidden) and what is
// wrong, thrown as a DatabaseUrlError, instead of the migration engine's "External error id#0" and stack.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";

export class DatabaseUrlError extends Error {
  name = "DatabaseUrlError";
}

/** The URL as it may be printed: the password replaced by ***. */
export function redactedUrl(value) {
  const url = String(value ?? "");
  try {
    const parsed = new URL(url);
    if (!parsed.password) return url;
    parsed.password = "***";
    return parsed.toString();
  } catch {
    return url.startsWith("file:") ? url : "(not a URL)";
  }
}

const NO_ANSWER = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ECONNRESET"]);

/** The sentence for a connection that failed, or null for an error this function does not know. */
export function connectionSentence(url, error) {
  const named = `DATABASE_URL (${redactedUrl(url)})`;
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    return `${named} is not a URL: write it as postgresql://user:password@host:5432/database.`;
  }
  const where = `${parsed.hostname}:${parsed.port || 5432}`;
  const database = decodeURIComponent(parsed.pathname.slice(1)) || parsed.username;
  const code = error?.code;
  if (NO_ANSWER.has(code) || /timeout|terminated unexpectedly/i.test(error?.message ?? "")) {
    return `${named} does not answer: nothing accepted a PostgreSQL connection on ${where} (${code ?? error.message}).`;
  }
  if (code === "28P01" || code === "28000" || /password authentication failed|no password was provided|SASL/i.test(error?.message ?? "")) {
    return `${named} was refused by the server on ${where}: it does not accept user "${decodeURIComponent(parsed.username)}" with this password.`;
  }
  if (code === "3D000") return `${named} names database "${database}", which does not exist on ${where}: create it or correct the name.`;
  if (code === "42501") return `${named}: user "${decodeURIComponent(parsed.username)}" may not use database "${database}" (${error.message}).`;
  return null;
}

const checksum = (file) => createHash("sha256").update(readFileSync(file)).digest("hex");

/**
 * Connects as the app will and compares the database's applied migrations with `migrationsDir`: throws a
 * DatabaseUrlError when the database cannot be used, and leaves pending migrations to `prisma migrate deploy`.
 */
export async function checkPostgres(url, migrationsDir) {
  const named = `DATABASE_URL (${redactedUrl(url)})`;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
  } catch (error) {
    throw new DatabaseUrlError(connectionSentence(url, error) ?? `${named} could not be opened: ${error.message}`);
  }
  try {
    const history = await client.query("SELECT to_regclass('_prisma_migrations') IS NOT NULL AS present");
    if (!history.rows[0].present) {
      const tables = await client.query("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = current_schema()");
      if (tables.rows[0].n > 0) {
        throw new DatabaseUrlError(
          `${named} holds ${tables.rows[0].n} table${tables.rows[0].n === 1 ? "" : "s"} but no migration history of this app: point it at an empty database or at this app's own; nothing was changed.`,
        );
      }
      return;
    }
    const applied = await client.query(
      'SELECT "migration_name", "checksum", "finished_at", "rolled_back_at" FROM "_prisma_migrations" ORDER BY "started_at"',
    );
    const known = new Map(
      readdirSync(migrationsDir, { withFileTypes: true })
        .filter((e) => e.isDirectory() && existsSync(path.join(migrationsDir, e.name, "migration.sql")))
        .map((e) => [e.name, checksum(path.join(migrationsDir, e.name, "migration.sql"))]),
    );
    const live = applied.rows.filter((m) => m.rolled_back_at === null);
    const failed = live.filter((m) => m.finished_at === null).map((m) => m.migration_name);
    if (failed.length > 0) {
      throw new DatabaseUrlError(
        `${named} has a migration that failed part-way (${failed.join(", ")}): repair the database, then mark it with \`npm run prisma -- migrate resolve\`; nothing was changed.`,
      );
    }
    const unknown = live.filter((m) => !known.has(m.migration_name)).map((m) => m.migration_name);
    if (unknown.length > 0) {
      throw new DatabaseUrlError(
        `${named} was migrated by another version of the app (${unknown.join(", ")} is not among this version's migrations): run that version, or point DATABASE_URL at this version's database; nothing was changed.`,
      );
    }
    const changed = live.filter((m) => known.get(m.migration_name) !== m.checksum).map((m) => m.migration_name);
    if (changed.length > 0) {
      throw new DatabaseUrlError(
        `${named} was migrated with an older text of ${changed.join(", ")} than this version's: its schema may differ from what the app expects, so nothing was changed.`,
      );
    }
  } finally {
    await client.end().catch(() => {});
  }
}
