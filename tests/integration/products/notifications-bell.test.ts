// The notifications bell every dashboard page reads (docs/decisions/039): the list and unread count come from
// prepared statements on the SqlReader; they must answer exactly what the Prisma reads answer (a client with no
// reader, e.g. a transaction's, still reads through Prisma), scoped to the user, newest first, ties by id.
import { describe, expect, it } from "vitest";
import { db, type Db } from "~/db.server";
import { loadNotificationsBell } from "~/pages/notifications/notifications.server";
import { createNotifications } from "~/services/notifications.server";
import { createUser } from "../../helpers/site-users";

/** The same list read through Prisma: a transaction's client has no SqlReader. */
function listThroughPrisma(userId: string, limit?: number) {
  return db.$transaction((tx) => createNotifications({ db: tx as unknown as Db }).list(userId, { limit }));
}

describe("the notifications bell's reads", () => {
  it("answer what Prisma answers: newest first, ties by id, read and unread, a missing url, only the user's own", async () => {
    const owner = await createUser();
    const other = await createUser();
    let at = Date.UTC(2026, 10, 20, 8, 0, 0, 123);
    const clock = { now: () => new Date(at) };
    const notifications = createNotifications({ db, now: clock.now });
    const item = (userId: string, n: number, url: string | null = `/dashboard/competitors/${n}`) => ({
      userId,
      kind: n % 2 ? "competitor.launch" : "competitor.price-drop",
      title: `Alert ${n}`,
      body: `Body ${n} with "quotes" and émoji 🚀`,
      url,
      dedupeKey: `bell-${userId}-${n}`,
    });
    // Two written in the same millisecond (ordered by id), one without a url, then later ones.
    await notifications.notify([item(owner.id, 1), item(owner.id, 2, null)]);
    at += 60_000;
    await notifications.notify([item(owner.id, 3), item(other.id, 4)]);
    at += 60_000;
    await notifications.notify([item(owner.id, 5)]);
    const first = (await notifications.list(owner.id)).items.find((n) => n.title === "Alert 1")!;
    await notifications.markRead(owner.id, [first.id]);

    const bell = await notifications.list(owner.id);
    expect(bell).toEqual(await listThroughPrisma(owner.id));
    expect(bell.items.map((n) => n.title)).toEqual(["Alert 5", "Alert 3", "Alert 2", "Alert 1"]);
    expect(bell.unread).toBe(3);
    expect(bell.items.find((n) => n.title === "Alert 2")).toMatchObject({
      url: null,
      readAt: null,
      createdAt: "2026-11-20T08:00:00.123Z",
    });
    expect(bell.items.find((n) => n.title === "Alert 1")?.readAt).toBe("2026-11-20T08:02:00.123Z");

    // The limit cuts the list, not the unread count.
    const two = await notifications.list(owner.id, { limit: 2 });
    expect(two).toEqual(await listThroughPrisma(owner.id, 2));
    expect(two).toMatchObject({ unread: 3, items: [{ title: "Alert 5" }, { title: "Alert 3" }] });

    // What the layouts' loaders read.
    expect(await loadNotificationsBell(other.id)).toEqual(await listThroughPrisma(other.id, 20));
    expect((await loadNotificationsBell(other.id)).items.map((n) => n.title)).toEqual(["Alert 4"]);
    const nobody = await createUser();
    expect(await loadNotificationsBell(nobody.id)).toEqual({ items: [], unread: 0 });
  });
});
