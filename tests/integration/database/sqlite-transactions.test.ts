// Interactive transactions on a SQLite file (app/db.server.ts, SharedFileLibSQL): they run on the client's one
// connection instead of a connection handed over and never closed, which held two file descriptors per transaction
// until the garbage collector found them (~6,700 transactions in a row exhausted 20,000 and every later statement
// failed "unable to open database file"). What a transaction commits is seen by other connections, what it rolls back
// is not, and the connection is left outside any transaction with its pragmas.
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { db, sqlReader } from "~/db.server";

const openFiles = () => readdirSync("/proc/self/fd").length;

describe("interactive transactions on a SQLite file", () => {
  it("open no file per transaction", async () => {
    await db.$transaction(async (tx) => tx.user.count());
    const before = openFiles();
    for (let i = 0; i < 2_000; i++) await db.$transaction(async (tx) => tx.user.count());
    expect(openFiles() - before).toBeLessThan(20);
  });

  it("commit what they wrote, roll back what failed, and leave the connection outside a transaction with its pragmas", async () => {
    await db.$transaction(async (tx) => {
      await tx.user.create({ data: { email: "kept@example.com" } });
    });
    await expect(
      db.$transaction(async (tx) => {
        await tx.user.create({ data: { email: "dropped@example.com" } });
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    // Another connection (the app's reader) sees the commit and not the rollback: nothing is left open.
    const emails = (await sqlReader.rows(`SELECT "email" FROM "User" WHERE "email" IN ('kept@example.com', 'dropped@example.com')`)).map((r) => r[0]);
    expect(emails).toEqual(["kept@example.com"]);
    // A plain write after them is committed at once, and foreign keys are still enforced on the connection.
    await db.user.create({ data: { email: "after@example.com" } });
    expect(await sqlReader.rows(`SELECT count(*) FROM "User" WHERE "email" = 'after@example.com'`)).toEqual([[1]]);
    await expect(db.userSession.create({ data: { userId: "no-such-user", expiresAt: new Date() } })).rejects.toThrow(/foreign key/i);
  });

  it("run one after another when started together, each seeing the last one's writes", async () => {
    const version = async () => Number((await sqlReader.rows(`SELECT "version" FROM "CatalogState" WHERE "id" = 1`))[0][0]);
    const start = await version();
    await Promise.all(
      Array.from({ length: 20 }, () =>
        db.$transaction(async (tx) => {
          const [{ version: seen }] = await tx.$queryRawUnsafe<{ version: number | bigint }[]>(`SELECT "version" FROM "CatalogState" WHERE "id" = 1`);
          await tx.$executeRawUnsafe(`UPDATE "CatalogState" SET "version" = ? WHERE "id" = 1`, Number(seen) + 1);
        }),
      ),
    );
    expect(await version()).toBe(start + 20);
  });
});
