// The polite crawler (issue 37 item 7, decision 088) against stand-in stores on 127.0.0.1: the real tracker, the
// real storefront reader and SSRF-safe fetcher, a real migrated database, on a virtual clock. Two readers with
// their own rate limiters and robots caches stand for two processes sharing the database. Every request is logged
// with the virtual moment it was sent, so the pacing is asserted on the times the code scheduled, not on wall time.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { createSafeFetcher, type SafeFetcher } from "~/integrations/safe-fetch.server";
import { createShopifyStorefront, type Clock } from "~/integrations/shopify-storefront.server";
import { createCompetitors } from "~/services/competitors.server";
import { createJobs, type JobsLog } from "~/services/jobs.server";
import { createNotifications } from "~/services/notifications.server";
import { makeCatalogue, startFakeShopifyStore, type FakeShopifyStore } from "../../helpers/fake-shopify-store";
import { createUser } from "../../helpers/site-users";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const time = { ms: Date.parse("2026-12-01T08:00:00Z") };
const now = () => new Date(time.ms);
const clock: Clock = { now: () => time.ms, sleep: async (ms) => void (time.ms += ms) };
const quiet: JobsLog = { info() {}, warn() {}, error() {} };
let shops: FakeShopifyStore;
let fetcher: SafeFetcher;
/** Every request either reader sent: host, path and the virtual moment. */
const sent: { host: string; path: string; at: number; reader: "A" | "B" }[] = [];

function reader(name: "A" | "B") {
  const logged: SafeFetcher = {
    userAgent: fetcher.userAgent,
    close: () => {},
    fetch: (url, init) => {
      const u = new URL(url);
      sent.push({ host: u.hostname, path: `${u.pathname}${u.search}`, at: time.ms, reader: name });
      return fetcher.fetch(url, init);
    },
  };
  // Each "process" has its own limiter and robots cache: only the database connects them.
  return createCompetitors({
    db,
    storefront: createShopifyStorefront({ fetcher: logged, protocol: "http:", clock }),
    jobs: createJobs({ db, ownerId: `polite-${name}`, now, log: quiet }),
    notifications: createNotifications({ db, now }),
    now,
    checkIntervalMs: 6 * HOUR,
    log: { info() {}, warn() {} },
  });
}
let a: ReturnType<typeof reader>;
let b: ReturnType<typeof reader>;

beforeAll(async () => {
  shops = await startFakeShopifyStore();
  fetcher = createSafeFetcher({
    contactUrl: "https://winningproducts.test/bot",
    appName: "WinningProductsStoreTracker",
    lookup: async () => [{ address: "127.0.0.1", family: 4 }],
    allowHosts: [`127.0.0.1:${shops.port}`],
  });
  a = reader("A");
  b = reader("B");
});
afterAll(async () => {
  fetcher.close();
  await shops.close();
});
beforeEach(() => {
  sent.length = 0;
});

async function follow(host: string) {
  const user = await createUser({ userSubscribed: "yes" });
  const summary = await a.add({ id: user.id, userSubscribed: "yes" }, `${host}:${shops.port}`);
  const store = await db.competitorStore.findFirstOrThrow({ where: { domain: `${host}:${shops.port}` }, select: { id: true } });
  return { user, id: summary.id, storeId: store.id };
}
const storeRow = (id: number) =>
  db.competitorStore.findUniqueOrThrow({ where: { id }, select: { status: true, lastError: true, nextCheckAt: true, failures: true, nextRequestAt: true, robots: true } });
const present = (storeId: number) => db.competitorProduct.count({ where: { storeId, removedAt: null } });
const of = (host: string) => sent.filter((r) => r.host === host);

describe("robots.txt and pacing", () => {
  it("asks for robots.txt first, then sends one request a second, and a read in another process waits for the last one's second", async () => {
    shops.addShop("paced.test", { products: makeCatalogue(600), robotsTxt: "User-agent: *\nDisallow: /cart\nDisallow: /checkout\n" });
    const { storeId } = await follow("paced.test");
    await a.runCheck(storeId);
    const first = of("paced.test");
    // The probe on adding, then the read: robots.txt once (kept), pages 1-4 (the fourth empty) and /meta.json.
    expect(first[0].path).toBe("/robots.txt");
    expect(first.filter((r) => r.path === "/robots.txt")).toHaveLength(1);
    expect(first.filter((r) => r.path.startsWith("/products.json")).length).toBeGreaterThanOrEqual(5);
    expect(first.some((r) => /cart|checkout/.test(r.path))).toBe(false);
    for (let i = 1; i < first.length; i++) expect(first[i].at - first[i - 1].at, `${first[i - 1].path} -> ${first[i].path}`).toBeGreaterThanOrEqual(1000);
    expect(await present(storeId)).toBe(600);

    // Process B reads at once (a follower pressed "check now"): its own limiter knows nothing of A's requests, the
    // store row does: B's first request waits for A's last plus a second, and robots.txt is not asked again.
    const lastOfA = first[first.length - 1].at;
    sent.length = 0;
    await b.runCheck(storeId);
    const second = of("paced.test");
    expect(second[0].reader).toBe("B");
    expect(second[0].at - lastOfA).toBeGreaterThanOrEqual(1000);
    expect(second.some((r) => r.path === "/robots.txt")).toBe(false);
    for (let i = 1; i < second.length; i++) expect(second[i].at - second[i - 1].at).toBeGreaterThanOrEqual(1000);

    // A day later robots.txt is asked for again, first.
    time.ms += DAY + HOUR;
    sent.length = 0;
    await a.runCheck(storeId);
    expect(of("paced.test")[0].path).toBe("/robots.txt");
  });

  it("does not read a store whose robots.txt forbids /products.json: its page says why and when it looks again, its products stay", async () => {
    const shop = shops.addShop("private.test", { products: makeCatalogue(4) });
    const { user, id, storeId } = await follow("private.test");
    await a.runCheck(storeId);
    expect(await present(storeId)).toBe(4);

    shop.robotsTxt = "User-agent: *\nDisallow: /products.json\n";
    time.ms += DAY + HOUR; // past the kept robots.txt
    sent.length = 0;
    await a.runCheck(storeId);
    expect(of("private.test").map((r) => r.path)).toEqual(["/robots.txt"]);
    const row = await storeRow(storeId);
    expect(row.status).toBe("robots");
    expect(row.failures).toBe(0);
    expect(row.nextCheckAt!.getTime()).toBe(time.ms + DAY);
    const detail = await a.get(user.id, id);
    expect(detail.status).toBe("robots");
    expect(detail.lastError).toMatch(/robots\.txt asks crawlers like ours not to read \/products\.json \(its rule "Disallow: \/products\.json"\), so we do not read its catalogue\. Its products stay as they were at the last read, and none is counted as removed\. We will look at its robots\.txt again on \d+ Dec 2026 at \d\d:\d\d UTC\./);
    expect(detail.products).toHaveLength(4);
    expect(await db.competitorChange.count({ where: { storeId, kind: "removal" } })).toBe(0);

    // "Check now" within the day: robots.txt is kept, so nothing at all is asked of the store.
    sent.length = 0;
    await b.runCheck(storeId);
    expect(of("private.test")).toHaveLength(0);
    expect((await storeRow(storeId)).status).toBe("robots");

    // A group naming our token that allows it wins over *.
    shop.robotsTxt = "User-agent: *\nDisallow: /\n\nUser-agent: WinningProductsStoreTracker\nAllow: /\n";
    time.ms += DAY + HOUR;
    await a.runCheck(storeId);
    expect((await storeRow(storeId)).status).toBe("ok");
  });

  it("reads a 1 MB robots.txt full of wildcards up to 500 KiB, and a robots.txt answering 5xx stops the reads for now", async () => {
    const filler = Array.from({ length: 30_000 }, (_, i) => `Disallow: /*/collections/*sort_by*${i}*$`).join("\n");
    // The rule past 500 KiB is never read; a 1 MB file is neither refused nor a 5xx.
    const big = `User-agent: *\n${filler}\n${"#".repeat(600_000)}\nDisallow: /products.json\n`;
    expect(big.length).toBeGreaterThan(1_000_000);
    const shop = shops.addShop("huge.test", { products: makeCatalogue(3), robotsTxt: big });
    const { storeId } = await follow("huge.test");
    await a.runCheck(storeId);
    expect((await storeRow(storeId)).status).toBe("ok");
    expect(await present(storeId)).toBe(3);
    const kept = JSON.parse((await storeRow(storeId)).robots!) as Record<string, { kind: string; truncated: boolean }>;
    expect(Object.values(kept)[0]).toMatchObject({ kind: "parsed", truncated: true });

    shop.robotsTxt = null;
    time.ms += DAY + HOUR;
    shops.queue("huge.test", "/robots.txt", ...Array.from({ length: 4 }, () => ({ kind: "status" as const, status: 503 })));
    sent.length = 0;
    await a.runCheck(storeId);
    expect(of("huge.test").every((r) => r.path === "/robots.txt")).toBe(true);
    const row = await storeRow(storeId);
    expect(row.status).toBe("robots");
    expect(row.lastError).toMatch(/robots\.txt could not be read \(it answered 503\), and until it can be we read nothing there/);
    expect(await present(storeId)).toBe(3);
  });
});

describe("Retry-After, 304 and walls for bots", () => {
  it("waits out a short Retry-After inside the read, and a long one ends it: no request before it, whoever asks", async () => {
    shops.addShop("busy.test", { products: makeCatalogue(3) });
    const { user, id, storeId } = await follow("busy.test");
    shops.queue("busy.test", "/products.json", { kind: "status", status: 503, headers: { "retry-after": "20" } });
    await a.runCheck(storeId);
    const reads = of("busy.test").filter((r) => r.path.startsWith("/products.json?limit=250&page=1"));
    expect(reads.at(-1)!.at - reads.at(-2)!.at).toBeGreaterThanOrEqual(20_000);
    expect((await storeRow(storeId)).status).toBe("ok");

    shops.queue("busy.test", "/products.json", { kind: "status", status: 429, headers: { "retry-after": "7200" } });
    sent.length = 0;
    const asked = time.ms;
    await a.runCheck(storeId);
    expect(of("busy.test").map((r) => r.path)).toEqual(["/products.json?limit=250&page=1"]);
    const row = await storeRow(storeId);
    expect(row.status).toBe("failing");
    expect(row.nextCheckAt!.getTime()).toBeGreaterThanOrEqual(asked + 7200_000);
    expect(row.nextRequestAt!.getTime()).toBeGreaterThanOrEqual(asked + 7200_000);
    expect((await a.get(user.id, id)).lastError).toMatch(/asked us to slow down \(it answered 429 or 503 with Retry-After\)\. Its products stay as they were at the last read, and none is counted as removed; we will try again on /);
    expect(await present(storeId)).toBe(3);

    // Another process asked to read it an hour later sends nothing.
    time.ms += HOUR;
    sent.length = 0;
    expect(await b.runCheck(storeId)).toMatchObject({ result: "skipped" });
    expect(of("busy.test")).toHaveLength(0);
    time.ms += 2 * HOUR;
    expect(await b.runCheck(storeId)).toMatchObject({ result: "ok" });
  });

  it("sends If-None-Match; when every page answers 304 nothing is written or removed, and a changed page is read whole", async () => {
    const shop = shops.addShop("etag.test", { products: makeCatalogue(300), etags: true });
    const { storeId } = await follow("etag.test");
    await a.runCheck(storeId);
    const updatedBefore = await db.competitorProduct.findMany({ where: { storeId }, select: { productId: true, lastSeenAt: true }, orderBy: { productId: "asc" } });
    expect(updatedBefore).toHaveLength(300);

    time.ms += 7 * HOUR;
    sent.length = 0;
    await b.runCheck(storeId);
    const conditional = of("etag.test");
    // Pages 1-3 (the third empty), each answered 304: no /meta.json, no product page.
    expect(conditional.map((r) => r.path)).toEqual([1, 2, 3].map((p) => `/products.json?limit=250&page=${p}`));
    const req = shops.requests.filter((r) => r.host === "etag.test" && r.path.startsWith("/products.json")).slice(-3);
    for (const r of req) expect(r.headers["if-none-match"]).toMatch(/^"[0-9a-f]{16}"$/);
    expect(await present(storeId)).toBe(300);
    expect(await db.competitorChange.count({ where: { storeId } })).toBe(0);
    const checks = await db.competitorCheck.findMany({ where: { storeId }, orderBy: { takenAt: "asc" }, select: { ok: true, products: true } });
    expect(checks).toEqual([
      { ok: true, products: 300 },
      { ok: true, products: 300 },
    ]);

    // A price on page 2 changes: page 1 answers 304, page 2 does not, so the catalogue is read again from page 1.
    shop.products[260].variants[0].price = "1.00";
    time.ms += 7 * HOUR;
    sent.length = 0;
    await a.runCheck(storeId);
    const paths = of("etag.test").map((r) => r.path);
    expect(paths.slice(0, 3)).toEqual(["/products.json?limit=250&page=1", "/products.json?limit=250&page=2", "/products.json?limit=250&page=1"]);
    const changes = await db.competitorChange.findMany({ where: { storeId }, select: { kind: true, productId: true } });
    expect(changes).toEqual([{ kind: "price-change", productId: String(shop.products[260].id) }]);
    expect(await present(storeId)).toBe(300);
  });

  it("an HTML bot wall, a captcha or a 403 is 'blocked': the products stay, none is removed, and the page says when it tries again", async () => {
    const shop = shops.addShop("walled.test", { products: makeCatalogue(5) });
    const { user, id, storeId } = await follow("walled.test");
    await a.runCheck(storeId);
    const walls = [
      { step: { kind: "raw" as const, body: "<!doctype html><html><body><h1>Welcome to our store</h1></body></html>", contentType: "text/html; charset=utf-8" }, sentence: /web page for people instead of its catalogue's data/ },
      { step: { kind: "raw" as const, body: '<html><script src="/cdn-cgi/challenge-platform/h/b/orchestrate"></script>Verify you are human</html>', contentType: "text/html" }, sentence: /captcha/ },
      { step: { kind: "status" as const, status: 403, body: "<h1>Forbidden</h1>" }, sentence: /refused it \(403 Forbidden\)/ },
    ];
    for (const wall of walls) {
      time.ms += 7 * HOUR;
      // The wall stands on the custom domain and its home page alike (the home page hides the myshopify address).
      shops.queue("walled.test", "/products.json", wall.step);
      shops.queue("walled.test", "/", { kind: "raw", body: "<html>Checking your browser</html>", contentType: "text/html" });
      await a.runCheck(storeId);
      const detail = await a.get(user.id, id);
      expect(detail.status).toBe("blocked");
      expect(detail.lastError).toMatch(wall.sentence);
      expect(detail.lastError).toMatch(/Its products stay as they were at the last read, and none is counted as removed\. We will try again on /);
      expect(Date.parse(detail.nextCheckAt!)).toBeGreaterThan(time.ms);
      expect(detail.products).toHaveLength(5);
    }
    expect(await db.competitorChange.count({ where: { storeId, kind: "removal" } })).toBe(0);
    expect(shop.products).toHaveLength(5);
    time.ms += 3 * DAY;
    await a.runCheck(storeId);
    expect(await a.get(user.id, id)).toMatchObject({ status: "ok", lastError: null });
  });
});
