// The reads every dashboard page makes (the credit balances, also `GET /api/me`; the next drop's date, also the drops
// page; the community prompt's Discord profile and lessons completed) are prepared statements on the SqlReader
// (docs/decisions/076); each must answer exactly what its Prisma read answers (a client with no reader, e.g. a
// transaction's, still reads through Prisma), for a new user and one with data.
import { beforeAll, describe, expect, it } from "vitest";
import { db, readerFor, type Db } from "~/db.server";
import { syncCourseContent } from "~/services/course/content.server";
import { createCommunity } from "~/services/community.server";
import { completeLesson, countCompletedLessons } from "~/services/course.server";
import { getBalances } from "~/services/billing/credits.server";
import { createProductDrops } from "~/services/products/drops.server";
import { throughPrisma } from "../../helpers/prisma-reads";
import { createUser } from "../../helpers/site-users";

const NOW = new Date("2026-11-26T09:00:00Z");

beforeAll(async () => {
  await syncCourseContent(db);
});

const community = (client: Db) => createCommunity({ db: client, inviteUrl: "https://discord.gg/example", discord: null });
const drops = (client: Db) => createProductDrops({ db: client, notifications: { notify: async () => {} } as never, now: () => NOW });

describe("the dashboard's reads", () => {
  it("answer what Prisma answers for a new user", async () => {
    expect(readerFor(db)).not.toBeNull();
    const user = await createUser();
    expect(await getBalances(db, user.id)).toEqual(await throughPrisma((c) => getBalances(c, user.id)));
    expect(await countCompletedLessons(db, user.id)).toBe(0);
    expect(await throughPrisma((c) => countCompletedLessons(c, user.id))).toBe(0);
    const facts = { id: user.id, createdAt: new Date(NOW.getTime() - 40 * 86_400_000) };
    expect(await community(db).overview(facts, NOW)).toEqual(await throughPrisma((c) => community(c).overview(facts, NOW)));
  });

  it("answer what Prisma answers once there are balances, completed lessons, a Discord profile and a drop date", async () => {
    const user = await createUser();
    await db.creditBalance.createMany({ data: [{ userId: user.id, feature: "ai-ads", balance: 35 }, { userId: user.id, feature: "glitch-mode", balance: 0 }] });
    for (const lesson of [1, 2, 5]) await completeLesson(db, user.id, lesson);
    await db.discordProfile.create({
      data: { userId: user.id, discordUserName: "seller#1", discordPopup1: true, discordPopup2: true, lastPopupDate: new Date("2026-09-01T12:34:56.789Z"), joined: false },
    });
    const balances = await getBalances(db, user.id);
    expect(balances).toEqual(await throughPrisma((c) => getBalances(c, user.id)));
    expect(balances.find((b) => b.feature === "ai-ads")?.balance).toBe(35);
    expect(await countCompletedLessons(db, user.id)).toBe(3);
    expect(await throughPrisma((c) => countCompletedLessons(c, user.id))).toBe(3);
    for (const days of [1, 3, 40]) {
      const facts = { id: user.id, createdAt: new Date(NOW.getTime() - days * 86_400_000) };
      const overview = await community(db).overview(facts, NOW);
      expect(overview).toEqual(await throughPrisma((c) => community(c).overview(facts, NOW)));
      // Not connected (no Discord id): no name shown.
      expect(overview.discordUserName).toBeNull();
      // The first two prompts were shown: a due prompt is a later one.
      if (overview.popup) expect(overview.popup.popup).toBeGreaterThan(2);
    }
    const old = { id: user.id, createdAt: new Date(NOW.getTime() - 40 * 86_400_000) };
    expect((await community(db).overview(old, NOW)).popup).not.toBeNull();
    // A prompt shown two hours ago: none now.
    await db.discordProfile.update({ where: { userId: user.id }, data: { lastPopupDate: new Date(NOW.getTime() - 2 * 3_600_000) } });
    expect((await community(db).overview(old, NOW)).popup).toBeNull();
    expect(await community(db).overview(old, NOW)).toEqual(await throughPrisma((c) => community(c).overview(old, NOW)));

    const before = await drops(db).nextDropDate();
    expect(before).toBe(await throughPrisma((c) => drops(c).nextDropDate()));
    await drops(db).setNextDropDate("2026-12-03");
    expect(await drops(db).nextDropDate()).toBe("2026-12-03");
    expect(await throughPrisma((c) => drops(c).nextDropDate())).toBe("2026-12-03");

    // The drops list (the drops page, GET /api/drops): counts, order, the user's revealed ones, none dated ahead.
    const item = (position: number) => ({ productId: 900_000 + position, objectID: `dr-${position}`, position, reason: "Because" });
    for (const [date, items] of [["2026-11-02", 3], ["2026-11-09", 0], ["2026-11-16", 2], ["2026-11-30", 4]] as const) {
      await db.productDrop.create({ data: { date, source: "operator", publishedAt: NOW, items: { create: Array.from({ length: items }, (_, i) => item(i + 1)) } } });
    }
    await db.userProductDrop.createMany({ data: [{ userId: user.id, date: "2026-11-02" }, { userId: user.id, date: "2026-11-16" }] });
    for (const limit of [undefined, 2]) {
      const list = await drops(db).list(user.id, { limit });
      expect(list).toEqual(await throughPrisma((c) => drops(c).list(user.id, { limit })));
      if (limit === 2) {
        expect(list.drops).toEqual([
          { date: "2026-11-16", productCount: 2, revealed: true },
          { date: "2026-11-09", productCount: 0, revealed: false },
        ]);
      }
    }
    expect((await drops(db).list(user.id)).drops.filter((d) => d.date >= "2026-11-02").map((d) => [d.date, d.productCount, d.revealed])).toEqual([
      ["2026-11-16", 2, true],
      ["2026-11-09", 0, false],
      ["2026-11-02", 3, true],
    ]);
  });
});
