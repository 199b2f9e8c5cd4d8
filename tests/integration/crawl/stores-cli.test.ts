// `npm run stores` and `npm run catalogue` as an operator runs them (child processes under tsx) on the test's
// database file (docs/decisions/047): usage mistakes exit 2 with the usage, bad domains exit 1 with a sentence and
// add nothing, the list counts followers without naming them, pause / resume / remove change what is read, and a
// removed store nobody follows leaves with its listings.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db, dbReady } from "~/db.server";
import { runScript } from "../../helpers/cli";
import { jobsOf } from "../../helpers/jobs";
import { createUser } from "../../helpers/site-users";

const stores = (...args: string[]) => runScript("stores", args);
const catalogue = (...args: string[]) => runScript("catalogue", args);

describe("npm run stores", () => {
  it("refuses usage mistakes with exit 2 and bad domains with a sentence, adding nothing", async () => {
    await dbReady;
    for (const args of [[], ["frobnicate"], ["add"], ["pause"], ["pause", "a.com", "b.com"], ["list", "extra"], ["add", "--file"], ["add", "--file", "/nonexistent/stores.txt"]]) {
      const r = await stores(...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toContain("Usage:");
    }
    const bad = await stores("add", "good-store.com", "not a domain at all");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^Nothing was added\. Line 2 \("not a domain at all"\): .+/);
    expect(await db.competitorStore.count({ where: { domain: "good-store.com" } })).toBe(0);
  }, 120_000);

  it("adds from arguments and a file, lists with follower counts (never who), pauses, resumes and removes", async () => {
    const file = path.join(process.env.TEST_TMP_DIR!, `stores-${Date.now()}.txt`);
    writeFileSync(file, "# our watch list\nhttps://Alpha-Shop.com/collections/all\n\nbeta-shop.myshopify.com  # a myshopify address\n");
    const fromFile = await stores("add", "--file", file);
    expect(fromFile).toMatchObject({ code: 0 });
    expect(fromFile.stdout).toContain("2 added, 0 listed, 0 already on the list.");
    const again = await stores("add", "alpha-shop.com", "gamma-shop.com");
    expect(again.stdout).toContain("1 added, 0 listed, 1 already on the list.");

    // A store a user follows: listed, counted, never named.
    const user = await createUser({ userSubscribed: "yes", email: "secret-follower@example.com" });
    const followed = await db.competitorStore.create({ data: { domain: "followed-shop.com", fetchDomain: "followed-shop.com", name: "followed-shop.com", status: "ok" } });
    await db.competitor.create({ data: { userId: user.id, storeId: followed.id, name: "My rival" } });
    expect((await stores("add", "followed-shop.com")).stdout).toContain("0 added, 1 listed, 0 already on the list.");

    const list = await stores("list");
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/followed-shop\.com\s+1\s+yes\s+ok/);
    expect(list.stdout).toMatch(/alpha-shop\.com\s+0\s+yes\s+pending/);
    expect(list.stdout).not.toContain("secret-follower");
    expect(list.stdout).not.toContain("My rival");

    expect((await stores("pause", "alpha-shop.com")).stdout).toContain("Paused alpha-shop.com");
    expect(await db.competitorStore.findUniqueOrThrow({ where: { domain: "alpha-shop.com" } })).toMatchObject({ paused: true });
    expect((await stores("list")).stdout).toMatch(/alpha-shop\.com\s+0\s+yes\s+paused/);
    expect((await stores("resume", "alpha-shop.com")).stdout).toContain("Resumed alpha-shop.com");
    expect(await db.competitorStore.findUniqueOrThrow({ where: { domain: "alpha-shop.com" } })).toMatchObject({ paused: false });
    const alpha = await db.competitorStore.findUniqueOrThrow({ where: { domain: "alpha-shop.com" } });
    expect(await jobsOf("competitor.check", `competitor.check:${alpha.id}`)).toHaveLength(1);

    const unknown = await stores("pause", "nobody-lists-this.com");
    expect(unknown).toMatchObject({ code: 1 });
    expect(unknown.stderr).toContain("nobody-lists-this.com is not an observed store.");

    // Removing a store nobody follows deletes it with its listings; a followed one stays for its follower.
    const gamma = await db.competitorStore.findUniqueOrThrow({ where: { domain: "gamma-shop.com" } });
    await db.competitorProduct.create({ data: { storeId: gamma.id, productId: "1", handle: "h", title: "A lamp", productType: "", vendor: "", tags: "[]", images: "[]", variants: "[]", firstSeenAt: new Date(), lastSeenAt: new Date() } });
    expect((await stores("remove", "gamma-shop.com")).stdout).toContain("Removed gamma-shop.com and its listings");
    expect(await db.competitorStore.count({ where: { domain: "gamma-shop.com" } })).toBe(0);
    expect(await db.competitorProduct.count({ where: { storeId: gamma.id } })).toBe(0);
    expect((await stores("remove", "followed-shop.com")).stdout).toContain("Took followed-shop.com off the list");
    expect(await db.competitorStore.findUniqueOrThrow({ where: { id: followed.id } })).toMatchObject({ operatorListed: false });
  }, 180_000);
});

describe("npm run catalogue", () => {
  it("prints its status, matches, and refuses bad ids and unknown listings", async () => {
    const status = await catalogue("status");
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/Listings: \d+ \(pictures: 0 fingerprinted, 0 pending, 0 failed\)/);
    expect(status.stdout).toContain("Measured products: 0");
    expect(status.stdout).toContain("Last match: never");
    const match = await catalogue("match", "--full");
    expect(match.code).toBe(0);
    expect(match.stdout).toMatch(/^Matched \d+ listings \(full\)/m);
    for (const args of [["split"], ["split", "abc"], ["merge", "1"], ["match", "--fast"], ["nope"]]) {
      const r = await catalogue(...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toContain("Usage:");
    }
    const split = await catalogue("split", "999999");
    expect(split).toMatchObject({ code: 1 });
    expect(split.stderr).toContain("Listing 999999 is not in any measured product.");
  }, 180_000);
});
