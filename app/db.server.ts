// The one Prisma client, shared by our services and Shopify's session storage. It talks to SQLite (a
// file, by default) or a libSQL server through the libSQL driver adapter (docs/decisions/002).
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { PrismaClient } from "@prisma/client";
import { getEnv } from "~/env.server";

export type Db = PrismaClient;

export function createDb(url: string, authToken?: string): Db {
  return new PrismaClient({ adapter: new PrismaLibSQL({ url, authToken }) });
}

/**
 * WAL lets readers run beside one writer; busy_timeout makes a second writer wait instead of failing
 * with SQLITE_BUSY (measured in ENVIRONMENT.md). Only meaningful for a local file.
 */
export async function tuneSqlite(db: Db, url: string): Promise<void> {
  if (!url.startsWith("file:")) return;
  await db.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  await db.$queryRawUnsafe("PRAGMA busy_timeout = 5000");
  await db.$queryRawUnsafe("PRAGMA foreign_keys = ON");
}

declare global {
  var __db: { client: Db; ready: Promise<void> } | undefined;
}

function init() {
  const env = getEnv();
  const client = createDb(env.DATABASE_URL, env.DATABASE_AUTH_TOKEN);
  return { client, ready: tuneSqlite(client, env.DATABASE_URL) };
}

// One client per process, kept across Vite's hot reloads in development.
const holder = (globalThis.__db ??= init());

export const db: Db = holder.client;
/** Resolves once connection pragmas are set; awaited by the health check and start-up. */
export const dbReady: Promise<void> = holder.ready;
export default db;
