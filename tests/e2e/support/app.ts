// What the end-to-end tests do again and again: open a page once React has taken it over, sign up
// through the form, and reach into the server's database for the few facts the UI cannot set yet.
import { readFileSync } from "node:fs";
import { createClient, type Client } from "@libsql/client";
import { expect, type Page } from "@playwright/test";
import pg from "pg";
import { offlineSessionRow } from "../../helpers/shopify";
import { E2E_DB_URL, E2E_POSTGRES_URL_FILE } from "./constants";

/** Opens a page and waits until Remix has hydrated it, so typed values and clicks reach React. */
export async function open(page: Page, path: string) {
  await page.goto(path);
  await page.waitForFunction(() => Boolean((window as { __remixRouter?: unknown }).__remixRouter));
}

/** Reloads the page and waits until Remix has taken it over, so what a test types next is not reset by hydration. */
export async function reload(page: Page) {
  await page.reload();
  await page.waitForFunction(() => Boolean((window as { __remixRouter?: unknown }).__remixRouter));
}

export function uniqueEmail(prefix = "e2e"): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** Fills and submits the sign-up form of the page that is open (/signup, with or without a plan). */
export async function submitSignup(page: Page, email: string, password = "correct-horse-battery") {
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await expect(page.getByLabel("E-mail")).toHaveValue(email);
  await page.getByRole("button", { name: "Create account" }).click();
}

/**
 * The same database the server uses. On SQLite its file (WAL mode, so reads and writes from here are safe); a write
 * waits up to 5 s for the server's own writes (page-view analytics, sessions) instead of failing at once with
 * SQLITE_BUSY, which made tests flaky in CI. In the PostgreSQL pass the database the server's wrapper made
 * (tests/e2e/support/postgres-web-server.ts writes its URL beside the mail folder), through the same `execute`
 * and `close` (`?` placeholders numbered; rows read by position as libSQL's are): the helpers' SQL is written for both.
 */
export function e2eDb(): Client {
  if (process.env.E2E_DATABASE === "postgresql") return postgresE2eDb(readFileSync(E2E_POSTGRES_URL_FILE, "utf8").trim());
  const client = createClient({ url: E2E_DB_URL });
  const ready = client.execute("PRAGMA busy_timeout = 5000");
  const execute = client.execute.bind(client);
  client.execute = (async (statement: Parameters<Client["execute"]>[0]) => {
    await ready;
    return execute(statement);
  }) as Client["execute"];
  return client;
}

/** The part of libSQL's Client the helpers use (execute with `?` arguments, close), on a PostgreSQL database. */
function postgresE2eDb(url: string): Client {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const execute = async (statement: Parameters<Client["execute"]>[0]) => {
    const { sql, args = [] } = typeof statement === "string" ? { sql: statement, args: [] } : (statement as { sql: string; args?: unknown[] });
    let n = 0;
    const result = await pool.query({ text: sql.replace(/\?/g, () => `$${++n}`), values: args as unknown[], rowMode: "array" });
    return { rows: result.rows, rowsAffected: result.rowCount ?? 0, columns: result.fields.map((f) => f.name) };
  };
  return { execute, close: () => void pool.end() } as unknown as Client;
}

/** Prisma stores DateTime in SQLite as ISO 8601 text with an explicit offset. */
export function sqliteDate(date: Date): string {
  return date.toISOString().replace("Z", "+00:00");
}

/** What the library stores after installing on `shop`: an offline session row. */
export async function insertOfflineSession(shop: string) {
  const row = offlineSessionRow(shop);
  const db = e2eDb();
  try {
    await db.execute({
      sql: `INSERT INTO "Session" ("id", "shop", "state", "isOnline", "scope", "expires", "accessToken", "refreshToken", "refreshTokenExpires")
            VALUES (?, ?, ?, FALSE, ?, ?, ?, ?, ?)`,
      args: [
        row.id,
        row.shop,
        row.state,
        row.scope,
        sqliteDate(row.expires),
        row.accessToken,
        row.refreshToken,
        sqliteDate(row.refreshTokenExpires),
      ],
    });
  } finally {
    db.close();
  }
}

/** Credits of one feature for the account with this e-mail, which has none yet (a ledger grant, which the ledger trigger applies to the balance; docs/decisions/008). */
export async function grantCredits(email: string, feature: string, amount: number) {
  const db = e2eDb();
  try {
    const user = await db.execute({ sql: `SELECT "id" FROM "User" WHERE "email" = ?`, args: [email] });
    const userId = String(user.rows[0][0]);
    await db.execute({
      sql: `INSERT INTO "CreditLedger" ("userId","feature","kind","amount","cost","balanceAfter","idempotencyKey","reason")
            VALUES (?, ?, 'grant', ?, 0, ?, ?, 'e2e grant')`,
      args: [userId, feature, amount, amount, `e2e-grant:${feature}:${userId}`],
    });
  } finally {
    db.close();
  }
}

/** Product-page credits for the account with this e-mail. */
export async function grantProductPageCredits(email: string, amount: number) {
  await grantCredits(email, "product-pages", amount);
}

/** Until checkout exists, a paid subscription is a subscription_id set on the user row. */
export async function giveSubscription(email: string, subscriptionId = `sub_e2e_${Date.now()}`) {
  const db = e2eDb();
  try {
    const result = await db.execute({
      sql: `UPDATE "User" SET "subscription_id" = ?, "userSubscribed" = 'yes' WHERE "email" = ?`,
      args: [subscriptionId, email],
    });
    expect(result.rowsAffected, `user ${email} exists`).toBe(1);
  } finally {
    db.close();
  }
}

/** Signs a new seller up through the form and gives them a paid subscription; returns their e-mail. */
export async function signUpPaid(page: Page, prefix: string): Promise<string> {
  const email = uniqueEmail(prefix);
  await open(page, "/signup");
  await submitSignup(page, email);
  await expect(page).toHaveURL(/\/choose-plan$/);
  await giveSubscription(email);
  return email;
}
