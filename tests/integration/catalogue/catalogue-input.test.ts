// Bad input reaching the measured catalogue (issue 23, "Bad input"), on the real parts: stand-in Shopify stores
// (tests/helpers/fake-shopify-store.ts, which also serves the listings' pictures at /pictures/...) read by the
// real tracker on a virtual clock, pictures fetched through the SSRF-safe fetcher and fingerprinted with the real
// library, the real catalogue. Every case ends the same way: a sentence in the store's status (what the operator's
// store list and the follower's tracker show), nothing half-written, and the other stores read in the same job
// run unaffected.
import { crc32 } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, sqlReader } from "~/db.server";
import { createImageFetcher } from "~/integrations/image-fetch.server";
import { createPictureFingerprinter } from "~/integrations/picture-fingerprint.server";
import { createSafeFetcher, type SafeFetcher } from "~/integrations/safe-fetch.server";
import { createCatalogue, type Catalogue } from "~/services/catalogue.server";
import { drawPicture, randomDesign } from "../../../scripts/lib/market-pictures";
import { HOUR, startCompetitorTracker, type CompetitorTracker } from "../../helpers/competitor-tracker";
import { makeCatalogue, makeProduct, type FakeProduct } from "../../helpers/fake-shopify-store";
import { png } from "../../helpers/png";
import { createUser } from "../../helpers/site-users";

let tracker: CompetitorTracker;
let catalogue: Catalogue;
let pictureFetcher: SafeFetcher;
let user: { id: string; userSubscribed: string };

beforeAll(async () => {
  tracker = await startCompetitorTracker({ start: "2026-11-01T00:00:00Z", ownerId: "catalogue-input-test" });
  pictureFetcher = createSafeFetcher({
    contactUrl: "https://winningproducts.test/bot",
    lookup: async () => [{ address: "127.0.0.1", family: 4 }],
    allowHosts: [`127.0.0.1:${tracker.shops.port}`],
  });
  catalogue = createCatalogue({
    db,
    sql: sqlReader,
    images: createImageFetcher({ fetcher: pictureFetcher, limits: { timeoutMs: 500 } }),
    fingerprinter: createPictureFingerprinter(),
    jobs: tracker.jobs,
    now: tracker.now,
  });
  const row = await createUser({ userSubscribed: "yes" });
  user = { id: row.id, userSubscribed: "yes" };
});
afterAll(async () => {
  pictureFetcher.close();
  await tracker.close();
});

const price = (p: string, id = 1) => [{ id, title: "Default", price: p, compare_at_price: null, available: true, sku: "" }];
const pictureAt = (name: string) => [{ src: `http://pics.test:${tracker.shops.port}/pictures/${name}` }];
const follow = async (...hosts: string[]) => {
  for (const host of hosts) await tracker.competitors.add(user, `${host}:${tracker.shops.port}`);
};
const storeOf = (host: string) =>
  db.competitorStore.findFirstOrThrow({
    where: { domain: { startsWith: host } },
    select: { id: true, status: true, lastError: true, readNote: true, _count: { select: { products: true, checks: true } } },
  });
const listed = async (host: string) => (await tracker.competitors.listStores()).find((s) => s.domain.startsWith(host))!;
/** The next read of every followed store is due (they are read every 4 hours). */
const nextRun = async () => {
  tracker.time.ms += 4 * HOUR + 60_000;
  await tracker.jobs.runDue();
};

/** A real PNG header that declares width x height, followed by a few bytes of data: a decompression bomb's shape. */
function declaredPng(width: number, height: number): Buffer {
  const small = Buffer.from(png(1, 1, [200, 10, 10]));
  small.writeUInt32BE(width, 16);
  small.writeUInt32BE(height, 20);
  small.writeUInt32BE(crc32(small.subarray(12, 29)) >>> 0, 29);
  return small;
}

describe("bad store catalogues", () => {
  it("leaves out malformed products, repeated ids and what is past the caps with a sentence, writes nothing of a read that breaks half-way, and reads the other stores whole", async () => {
    const { shops } = tracker;
    shops.addShop("good.test", { products: makeCatalogue(3).map((p) => ({ ...p, images: [] })) });
    const malformed = [
      makeProduct(1, { images: [] }),
      { ...makeProduct(2), id: undefined },
      { ...makeProduct(3), handle: undefined },
      { ...makeProduct(4), id: { nested: 1 } },
      null,
      "not a product",
      { ...makeProduct(5, { images: [] }), title: 42 },
      { ...makeProduct(6, { images: [] }), variants: "none" },
      { ...makeProduct(7, { images: [] }), variants: [{ id: 71, title: "Default", price: "free", available: true }] },
      { ...makeProduct(8), images: "nope", tags: 7, published_at: "yesterday", vendor: ["x"] },
    ] as unknown as FakeProduct[];
    shops.addShop("malformed.test", { products: malformed });
    shops.addShop("twins.test", {
      products: [
        makeProduct(1, { images: [] }),
        makeProduct(1, { title: "The same id again", images: [] }),
        makeProduct(2, { handle: "shared-handle", images: [] }),
        makeProduct(3, { handle: "shared-handle", images: [] }),
      ],
    });
    shops.addShop("big.test", { products: makeCatalogue(10_050).map((p) => ({ ...p, images: [] })) });
    const broken = shops.addShop("broken.test", { products: makeCatalogue(300).map((p) => ({ ...p, images: [] })) });
    await follow("good.test", "malformed.test", "twins.test", "big.test", "broken.test");
    await tracker.jobs.runDue();

    // Malformed products: the readable ones are kept, the rest said.
    const bad = await storeOf("malformed.test");
    expect(bad.status).toBe("ok");
    expect(bad._count.products).toBe(5);
    expect(bad.readNote).toBe(
      "5 of 10 products in the catalogue could not be read (no product id or handle) and were left out. " +
        "2 products show no price we could read, so they are tracked without one.",
    );
    const titled = await db.competitorProduct.findFirstOrThrow({ where: { storeId: bad.id, handle: "product-5" }, select: { title: true } });
    expect(titled.title).toBe("product-5");
    // The operator's list and the follower's tracker both show it.
    expect((await listed("malformed.test")).readNote).toBe(bad.readNote);
    const mine = (await tracker.competitors.list(user.id)).items.find((s) => s.domain.startsWith("malformed.test"))!;
    expect(mine.readNote).toBe(bad.readNote);

    // Repeated ids: read once (the first); a shared handle is said.
    const twins = await storeOf("twins.test");
    expect(twins._count.products).toBe(3);
    expect((await db.competitorProduct.findFirstOrThrow({ where: { storeId: twins.id, handle: "product-1" }, select: { title: true } })).title).toBe("Product 1");
    expect(twins.readNote).toBe(
      "1 product repeats the id of another product in the same catalogue; we kept the first. " +
        'The handle "shared-handle" is used by 2 products, so links to it may open the same page.',
    );

    // Past the caps: what we read is kept, and the sentence says where we stopped.
    const big = await storeOf("big.test");
    expect(big.status).toBe("ok");
    expect(big._count.products).toBe(10_000);
    expect(big.readNote).toBe(
      "This catalogue is larger than one read takes: we stopped after 10,000 products (at most 10,000 products, 40 pages or 100 MB a read). " +
        "Products past that point are not tracked, and none of them is counted as removed.",
    );

    // A whole, clean read says nothing.
    expect((await storeOf("good.test")).readNote).toBeNull();
    expect((await storeOf("broken.test"))._count.products).toBe(300);

    // The next run: broken.test's prices all change, and its second page breaks half-way through the read.
    for (const p of broken.products) p.variants = p.variants.map((v) => ({ ...v, price: "99.00" }));
    shops.queue(
      "broken.test",
      "/products.json",
      { kind: "raw", body: JSON.stringify({ products: broken.products.slice(0, 250) }) },
      { kind: "raw", body: '{"products": [{"id": 1, "handle": "cut-' },
    );
    const changesBefore = await db.competitorChange.count();
    await nextRun();
    const after = await storeOf("broken.test");
    expect(after.status).toBe("failing");
    expect(after.lastError).toMatch(/^broken\.test:\d+ sent a catalogue page we could not read\. We will try again later\.$/);
    // Nothing of the first page's new prices was written.
    expect(await db.competitorProduct.count({ where: { storeId: after.id, priceMinCents: 9900 } })).toBe(0);
    expect(await db.competitorChange.count({ where: { storeId: after.id } })).toBe(0);
    // The other stores were read in the same run, as before.
    expect(await db.competitorChange.count()).toBe(changesBefore);
    expect((await storeOf("good.test"))._count.checks).toBe(2);
    expect((await storeOf("malformed.test")).readNote).toBe(bad.readNote);
    expect((await storeOf("twins.test")).status).toBe("ok");
    // The big store is not read again by the next tests (its reads take a while), and its 10,000 listings without
    // pictures are not placed into the catalogue by them: placing listings without pictures is decision 091's, not
    // this file's, and 10,000 of them take minutes here.
    await tracker.competitors.pauseStore(`big.test:${shops.port}`);
    await db.competitorProduct.deleteMany({ where: { storeId: big.id } });
  }, 120_000);
});

describe("bad listing pictures", () => {
  it("records a sentence for each picture it cannot use, says so in the store's status, and matches the rest", async () => {
    const { shops } = tracker;
    const real = await drawPicture(randomDesign(4242));
    shops.pictures.set("ok.jpg", real);
    shops.pictures.set("page.jpg", Buffer.from("<!doctype html><title>Not a picture</title><p>Sorry</p>"));
    shops.pictures.set("cut.jpg", real.subarray(0, Math.floor(real.length / 2)));
    shops.pictures.set("bomb.png", declaredPng(50_000, 50_000));
    shops.pictures.set("empty.jpg", Buffer.alloc(0));
    shops.queue("pics.test", "/pictures/slow.jpg", { kind: "hang", ms: 5_000 });
    const names = ["ok.jpg", "gone.jpg", "slow.jpg", "page.jpg", "cut.jpg", "bomb.png", "empty.jpg"];
    shops.addShop("pics.test", {
      products: names.map((name, i) => makeProduct(100 + i, { title: `Picture case ${name}`, images: pictureAt(name), variants: price("9.99", 100 + i) })),
    });
    await follow("pics.test");
    await tracker.jobs.runDue();
    const before = await db.product.findMany({ where: { source: "measured" }, orderBy: { id: "asc" }, select: { objectID: true, storesSelling: true } });
    await catalogue.refresh();

    const store = await storeOf("pics.test");
    const rows = await db.listingPicture.findMany({
      where: { listing: { storeId: store.id } },
      orderBy: { listingId: "asc" },
      select: { status: true, error: true, listing: { select: { title: true } } },
    });
    // Decision 091: a permanent failure is said once ("failed"); a transient one (the slow server) stays pending.
    expect(rows.map((r) => [r.listing.title.replace("Picture case ", ""), r.status, r.error])).toEqual([
      ["ok.jpg", "ok", null],
      ["gone.jpg", "failed", "The image is not there any more (the server answered 404)."],
      ["slow.jpg", "pending", "The image's server did not answer within 0.5 s."],
      ["page.jpg", "failed", expect.stringMatching(/^The file is not a JPEG, PNG, WebP or GIF image/)],
      ["cut.jpg", "failed", "The picture is damaged or cut short and could not be read."],
      ["bomb.png", "failed", expect.stringMatching(/^The image is 50000x50000 pixels/)],
      ["empty.jpg", "failed", expect.stringMatching(/empty|not a JPEG/)],
    ]);
    // One product from the one usable picture; the other stores' products as they were.
    // Every listing counts (decision 091): the six without a usable picture are placed on their titles at once, and
    // the products made before are as they were.
    const after = await db.product.findMany({ where: { source: "measured" }, orderBy: { id: "asc" }, select: { objectID: true, storesSelling: true } });
    expect(await db.catalogueMember.count({ where: { listing: { storeId: store.id } } })).toBe(7);
    expect(after.slice(0, before.length)).toEqual(before);
    // The store's status says it, in the operator's list.
    expect((await listed("pics.test")).pictureNote).toBe(
      "6 of 7 product pictures could not be used, so those products are not matched until the picture can be read. " +
        "The most common reason: The image is not there any more (the server answered 404).",
    );
  }, 60_000);
});

describe("a store that changes every product on every read", () => {
  it("keeps only what changed, fetches each picture once, does not re-match, and thins its history", async () => {
    const { shops } = tracker;
    // Only this store is read from here on. The stores of the tests before are paused: their reads would bring
    // changes of their own (broken.test's 300 new prices, its listings products on their titles since decision
    // 091), whose products a refresh rightly recomputes too, and this test counts the products it recomputes.
    for (const s of await tracker.competitors.listStores()) await tracker.competitors.pauseStore(s.domain);
    for (let n = 1; n <= 10; n++) shops.pictures.set(`churn-${n}.jpg`, await drawPicture(randomDesign(6000 + n)));
    const churn = shops.addShop("churn.test", {
      products: Array.from({ length: 10 }, (_, i) =>
        makeProduct(200 + i, { title: `Churning gadget ${i + 1}`, variants: price("10.00", 200 + i), published_at: "2026-10-01T10:00:00Z" }),
      ),
    });
    const churnRead = (read: number) => {
      churn.products = churn.products.map((p, i) => ({
        ...p,
        updated_at: new Date(tracker.time.ms).toISOString(),
        variants: price(`${10 + read}.00`, 200 + i),
        // Shopify's CDN puts the upload time in ?v=; some stores' apps touch every image on every sync.
        images: [{ src: `http://churn.test:${shops.port}/pictures/churn-${i + 1}.jpg?v=${1_700_000_000 + read}` }],
      }));
    };
    churnRead(0);
    await follow("churn.test");
    await tracker.jobs.runDue();
    const first = await catalogue.refresh();
    expect(first.fetched).toBeGreaterThanOrEqual(10);
    const store = await storeOf("churn.test");
    const products = await db.product.count({ where: { source: "measured" } });
    const pictureRequests = () => shops.requests.filter((r) => r.host === "churn.test" && r.path.startsWith("/pictures/")).length;
    expect(pictureRequests()).toBe(10);

    for (let read = 1; read <= 3; read++) {
      churnRead(read);
      await nextRun();
      const refreshed = await catalogue.refresh();
      // The same pictures under a new ?v=: not fetched again, nothing re-matched; the store's 10 products recomputed.
      expect(refreshed.match).toMatchObject({ mode: "incremental", changed: [] });
      expect(refreshed.products.products).toBe(10);
    }
    expect(pictureRequests()).toBe(10);
    expect(await db.product.count({ where: { source: "measured" } })).toBe(products);
    // Only the products whose listings changed are recomputed, and their prices follow the store's: $13.00 now.
    const churned = await db.product.findMany({
      where: { source: "measured", members: { some: { listing: { storeId: store.id } } } },
      select: { priceCents: true },
    });
    expect(churned.map((p) => p.priceCents)).toEqual(Array(10).fill(1300));
    expect(await db.listingPicture.count({ where: { listing: { storeId: store.id }, status: "ok" } })).toBe(10);
    // One product row per listing, one check per read, one change per price that moved.
    expect(await db.competitorProduct.count({ where: { storeId: store.id } })).toBe(10);
    expect(await db.competitorCheck.count({ where: { storeId: store.id } })).toBe(4);
    expect(await db.competitorChange.count({ where: { storeId: store.id } })).toBe(30);
    expect(await db.competitorChange.count({ where: { storeId: store.id, kind: { not: "price-change" } } })).toBe(0);

    // Past 30 days the store's reads are thinned to one a day; its changes stay for 400 days.
    tracker.time.ms += 40 * 24 * HOUR;
    await tracker.competitors.applyRetention();
    expect(await db.competitorCheck.count({ where: { storeId: store.id } })).toBe(1);
    expect(await db.competitorChange.count({ where: { storeId: store.id } })).toBe(30);
  }, 120_000);
});
