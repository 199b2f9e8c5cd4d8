// The measured demand signal (issue 37 item 6, decision 094) made by the real pipeline (tests/helpers/measured-
// catalogue.ts: stand-in stores on 127.0.0.1 read by the real tracker, real pictures, real matching) and the real
// product page reader: each listing's page read for its schema.org review count through the polite session (robots.txt,
// one request a second per store on the virtual clock), at most once a day, kept as a daily series, summed per
// product with the reviews gained feeding the score and reasons, and answered by GET /api/products/{objectID},
// GET /api/v1/products/{objectID} (validated against the OpenAPI document) and MCP's text. Bad counts ("1,234", -5,
// 10^12), a store whose robots.txt forbids product pages and one behind a wall for bots: a sentence or a skip.
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { loader as productApi } from "~/routes/api.products.$objectID";
import { loader as openApiRoute } from "~/routes/api.v1.openapi[.]json";
import { loader as productV1 } from "~/routes/api.v1.products.$objectID";
import { action as keysAction } from "~/routes/api.keys";
import { productText } from "~/api/mcp/tool-text.server";
import { drawPicture, randomDesign, variantPicture } from "../../../scripts/lib/market-pictures";
import { makeProduct, type FakeShop } from "../../helpers/fake-shopify-store";
import { startMeasuredCatalogue, type MeasuredCatalogue } from "../../helpers/measured-catalogue";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

const DAY = 86_400_000;
const price = (p: string) => [{ id: 1, title: "Default", price: p, compare_at_price: null, available: true, sku: "" }];
const RECENT = "2026-11-25T10:00:00Z";

type Figure = { value: number; measured: boolean; asOf: string } | null;
type Detail = {
  objectID: string;
  insights: { reasons: string[] } | null;
  offers: Array<{ store: string; reviews: number | null; reviewsAsOf: string | null; reviewsNote: string | null }>;
  signals: { reviews: Figure; reviewsGained7d: Figure; reviewsGained30d: Figure; reviewStores: number } | null;
};

let m: MeasuredCatalogue;
let seller: Awaited<ReturnType<typeof createSignedInUser>>;
let shops: Record<string, FakeShop>;
let fan: string;
let kettle: string;
let odd: string;
const host = (name: string) => `${name}.test:${m.tracker.shops.port}`;

async function storeId(name: string): Promise<number> {
  return (await db.competitorStore.findFirstOrThrow({ where: { domain: host(name) }, select: { id: true } })).id;
}

async function detail(objectID: string): Promise<Detail> {
  const res = await call(productApi, `/api/products/${objectID}`, { cookie: seller.cookie, params: { objectID } });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Detail;
}

/** Reads every store's due product pages, as the job does. */
async function readAll(): Promise<void> {
  for (const name of Object.keys(shops)) await m.catalogue.readReviews(await storeId(name));
}

const pagesOf = (name: string) => m.pageRequests.filter((r) => r.host === `${name}.test` && r.path.startsWith("/products/"));

beforeAll(async () => {
  m = await startMeasuredCatalogue({ start: "2026-12-01T06:00:00Z", ownerId: "reviews-test" });
  const design = randomDesign(9401);
  const s = m.tracker.shops;
  shops = {
    alpha: s.addShop("alpha.test", {
      products: [
        makeProduct(1, { title: "Bladeless Neck Fan", handle: "neck-fan", images: m.picture("a-fan", await variantPicture(design, "reencode", 1)), variants: price("19.99"), published_at: RECENT }),
        makeProduct(2, { title: "Glass Kettle 1.7L", handle: "glass-kettle", images: m.picture("a-kettle", await drawPicture(randomDesign(777))), variants: price("39.00") }),
      ],
      reviews: new Map<string, unknown>([["neck-fan", 100]]),
    }),
    bravo: s.addShop("bravo.test", {
      products: [makeProduct(3, { title: "Neck Fan, Bladeless", handle: "fan", images: m.picture("b-fan", await variantPicture(design, "badge", 2)), variants: price("21.00"), published_at: RECENT })],
      reviews: new Map<string, unknown>([["fan", "1,234"]]),
    }),
    charlie: s.addShop("charlie.test", {
      products: [
        makeProduct(4, { title: "Neck fan bladeless hands free", handle: "neck-fan-2", images: m.picture("c-fan", await variantPicture(design, "resize", 3)), variants: price("22.50"), published_at: RECENT }),
        makeProduct(5, { title: "Sunset Lamp Projector", handle: "sunset-lamp", images: m.picture("c-lamp", await drawPicture(randomDesign(4242))), variants: price("29.00") }),
      ],
      reviews: new Map<string, unknown>([
        ["neck-fan-2", 10],
        ["sunset-lamp", -5],
      ]),
    }),
  };
  m.catalogue.registerJobs();
  seller = await createSignedInUser({ userSubscribed: "yes" });
  const measured = await m.measure({ id: seller.id, userSubscribed: "yes" }, ["alpha.test", "bravo.test", "charlie.test"]);
  fan = measured.find((p) => p.storesSelling === 3)!.objectID;
  kettle = measured.find((p) => p.title.startsWith("Glass Kettle"))!.objectID;
  odd = measured.find((p) => p.title.startsWith("Sunset Lamp"))!.objectID;
  m.pageRequests.length = 0;
}, 60_000);

afterAll(async () => {
  await m.close();
});

describe("review counts read from product pages", () => {
  it("shows no review data before any page is read, never 0", async () => {
    const d = await detail(fan);
    expect(d.signals?.reviews).toBeNull();
    expect(d.signals?.reviewStores).toBe(0);
    expect(d.offers.map((o) => o.reviews)).toEqual([null, null, null]);
  });

  it("reads each listing's page politely and sums the counts per product, measured with its day", async () => {
    await readAll();
    // One request per listing's page (after its store's robots.txt), a second apart on each store.
    expect(pagesOf("alpha").map((r) => r.path).sort()).toEqual(["/products/glass-kettle", "/products/neck-fan"]);
    expect(pagesOf("bravo").map((r) => r.path)).toEqual(["/products/fan"]);
    // The store's robots.txt as its catalogue read kept it (today's) is obeyed, not fetched again.
    const alpha = m.pageRequests.filter((r) => r.host === "alpha.test");
    expect(alpha.map((r) => r.path)).not.toContain("/robots.txt");
    expect(await db.competitorStore.findFirstOrThrow({ where: { domain: host("alpha") }, select: { robots: true } })).toMatchObject({ robots: expect.stringContaining("alpha.test") });
    for (let i = 1; i < alpha.length; i++) expect(alpha[i].at - alpha[i - 1].at).toBeGreaterThanOrEqual(1_000);
    expect(m.pageRequests.every((r) => r.at >= Date.parse("2026-12-01T06:00:00Z"))).toBe(true);

    const d = await detail(fan);
    expect(d.signals?.reviews).toEqual({ value: 100 + 1234 + 10, measured: true, asOf: "2026-12-01" });
    expect(d.signals?.reviewStores).toBe(3);
    expect(d.signals?.reviewsGained30d).toEqual({ value: 0, measured: true, asOf: "2026-12-01" });
    const byStore = Object.fromEntries(d.offers.map((o) => [o.store.split(".")[0], o]));
    expect(byStore.alpha).toMatchObject({ reviews: 100, reviewsAsOf: "2026-12-01", reviewsNote: null });
    expect(byStore.bravo).toMatchObject({ reviews: 1234 });
    expect(byStore.charlie).toMatchObject({ reviews: 10 });
  });

  it("says why a listing has no review data: no aggregateRating, or a count that is not one (-5)", async () => {
    const k = await detail(kettle);
    expect(k.signals?.reviews).toBeNull();
    expect(k.offers[0]).toMatchObject({ reviews: null, reviewsAsOf: null, reviewsNote: expect.stringMatching(/^No review data: its page's Product data has no review count/) });
    const lamp = await detail(odd);
    expect(lamp.signals?.reviews).toBeNull();
    expect(lamp.offers[0]).toMatchObject({ reviews: null, reviewsNote: expect.stringMatching(/Review count not used: .*-5 is negative/) });
    // The operator's status (npm run catalogue -- status).
    expect((await m.catalogue.status()).reviews).toEqual({ withCount: 3, noReviewData: 2, due: 0 });
  });

  it("reads a listing at most once a day, and counts the reviews gained into the score and reasons", async () => {
    const before = await db.product.findUniqueOrThrow({ where: { objectID: fan }, select: { winningScore: true } });
    const sent = m.pageRequests.length;
    expect(await m.catalogue.queueReviews()).toBe(0);
    await readAll();
    expect(m.pageRequests.length).toBe(sent);

    m.tracker.time.ms += DAY;
    shops.alpha.reviews.set("neck-fan", 130);
    shops.charlie.reviews.set("neck-fan-2", 18);
    // As in production: the sweep queues one keyed run per store with listings due, and the worker runs them.
    expect(await m.catalogue.queueReviews()).toBe(3);
    expect(await db.job.count({ where: { kind: "catalogue.reviews", status: "queued" } })).toBe(3);
    await m.tracker.jobs.runDue();
    expect(await db.job.count({ where: { kind: "catalogue.reviews", status: "done" } })).toBe(3);
    expect(pagesOf("alpha").filter((r) => r.path === "/products/neck-fan")).toHaveLength(2);
    const d = await detail(fan);
    expect(d.signals?.reviews).toEqual({ value: 130 + 1234 + 18, measured: true, asOf: "2026-12-02" });
    expect(d.signals?.reviewsGained7d).toEqual({ value: 38, measured: true, asOf: "2026-12-02" });
    expect(d.insights?.reasons).toContain("+38 reviews in 1 day across 3 stores");
    const after = await db.product.findUniqueOrThrow({ where: { objectID: fan }, select: { winningScore: true } });
    expect(after.winningScore).toBeGreaterThan(before.winningScore);
    const series = await db.listingReviewCount.findMany({ where: { listing: { handle: "neck-fan" } }, orderBy: { day: "asc" }, select: { day: true, count: true } });
    expect(series).toEqual([
      { day: "2026-12-01", count: 100 },
      { day: "2026-12-02", count: 130 },
    ]);
  });

  it("answers the API's contract: offers' reviews and signals.reviews, valid against the OpenAPI document, and MCP's text", async () => {
    const res = await call(keysAction, "/api/keys", { method: "POST", cookie: seller.cookie, json: { name: "reviews" } });
    const { key } = (await res.json()) as { key: string };
    const v1 = await call(productV1, `/api/v1/products/${fan}`, { headers: { authorization: `Bearer ${key}` }, params: { objectID: fan } });
    expect(v1.status).toBe(200);
    const body = (await v1.json()) as Detail;
    expect(body.signals?.reviews).toEqual({ value: 1382, measured: true, asOf: "2026-12-02" });
    expect(body.offers.every((o) => typeof o.reviews === "number")).toBe(true);
    const doc = (await (await call(openApiRoute, "/api/v1/openapi.json")).json()) as object;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(doc, "openapi");
    const validate = ajv.getSchema("openapi#/paths/~1products~1{objectID}/get/responses/200/content/application~1json/schema");
    expect(validate, "the document describes GET /products/{objectID}").toBeTruthy();
    expect(validate!(body), JSON.stringify(validate!.errors)).toBe(true);
    const lamp = (await (await call(productV1, `/api/v1/products/${odd}`, { headers: { authorization: `Bearer ${key}` }, params: { objectID: odd } })).json()) as Detail;
    expect(validate!(lamp), JSON.stringify(validate!.errors)).toBe(true);
    expect(lamp.signals?.reviews).toBeNull();
    // MCP's get_product text, written from the same answer.
    const text = productText(body as unknown as Parameters<typeof productText>[0]);
    expect(text).toContain("Reviews: 1,382 across 3 stores (measured, 2026-12-02); +38 in 7 days, +38 in 30 days.");
    expect(text).toMatch(/alpha\.test:\d+ \([^)]*; 130 reviews on 2026-12-02\)/);
    expect(productText(lamp as unknown as Parameters<typeof productText>[0])).toContain("Reviews: no review data (none of its stores publishes a review count).");
  });
});

describe("bad input from stores", () => {
  it("reads '1,234' as 1234 and refuses 10^12 with a sentence; nothing answers a 5xx", async () => {
    shops.bravo.reviews.set("fan", 1e12);
    m.tracker.time.ms += DAY;
    await readAll();
    const d = await detail(fan);
    const bravo = d.offers.find((o) => o.store.startsWith("bravo"))!;
    expect(bravo).toMatchObject({ reviews: null, reviewsNote: expect.stringMatching(/more reviews than any product has/) });
    // The product's sum is now of the two stores that publish a count.
    expect(d.signals?.reviewStores).toBe(2);
    expect(d.signals?.reviews?.value).toBe(130 + 18);
  });

  it("does not ask for product pages robots.txt forbids, and says so", async () => {
    shops.alpha.robotsTxt = "User-agent: *\nDisallow: /products/\nAllow: /products.json\n";
    // The store's kept robots.txt expires after a day.
    m.tracker.time.ms += DAY + 1;
    await db.competitorStore.update({ where: { id: await storeId("alpha") }, data: { robots: null } });
    const before = pagesOf("alpha").length;
    await readAll();
    expect(pagesOf("alpha").length).toBe(before);
    const d = await detail(kettle);
    expect(d.offers[0].reviewsNote).toMatch(/robots\.txt asks crawlers like ours not to read its product pages/);
    shops.alpha.robotsTxt = null;
  });

  it("stops at a wall for bots: one page asked, the store's other listings wait a day with the sentence", async () => {
    shops.charlie.mode = "blocked";
    m.tracker.time.ms += DAY + 1;
    const before = pagesOf("charlie").length;
    const summary = await m.catalogue.readReviews(await storeId("charlie"));
    expect(pagesOf("charlie").length - before).toBe(1);
    expect(summary.note).toMatch(/refused its product pages \(403\)/);
    const states = await db.listingReviews.findMany({ where: { listing: { store: { domain: host("charlie") } } }, select: { note: true, nextReadAt: true } });
    expect(states).toHaveLength(2);
    for (const s of states) expect(s.nextReadAt.getTime()).toBeGreaterThan(m.tracker.time.ms + DAY - 60_000);
    expect(states.some((s) => /wall for bots|refused its product pages/.test(s.note ?? ""))).toBe(true);
    shops.charlie.mode = "open";
  });

  it("keeps a run within its time: a store's crawl-delay of 60 s gets a few pages a run, the next run goes on", async () => {
    const delta = m.tracker.shops.addShop("delta.test", {
      robotsTxt: "User-agent: *\nCrawl-delay: 60\n",
      products: Array.from({ length: 9 }, (_, i) => makeProduct(20 + i, { title: `Desk item number ${i + 1} ${["lamp", "tray", "clock", "stand", "mat", "pad", "rack", "hook", "bin"][i]}`, images: [], variants: price("9.00") })),
      reviews: new Map(Array.from({ length: 9 }, (_, i) => [`product-${20 + i}`, i] as [string, unknown])),
    });
    await m.measure({ id: seller.id, userSubscribed: "yes" }, ["delta.test"]);
    const id = await storeId("delta");
    const started = m.tracker.time.ms;
    const first = await m.catalogue.readReviews(id);
    expect(first.pages).toBeGreaterThanOrEqual(4);
    expect(first.pages).toBeLessThan(9);
    const times = pagesOf("delta").map((r) => r.at);
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(60_000);
    // No page is started past the run's five minutes; the last one started may wait out one crawl-delay more.
    expect(times.at(-1)! - started).toBeLessThanOrEqual(5 * 60_000 + 60_000);
    const second = await m.catalogue.readReviews(id);
    expect(first.pages + second.pages).toBe(9);
    expect(await db.listingReviews.count({ where: { listing: { storeId: id }, count: { not: null } } })).toBe(9);
    delta.products = [];
  });

  it("waits while the store's catalogue read is running in any process", async () => {
    const id = await storeId("bravo");
    m.tracker.time.ms += DAY + 1;
    // The store's read, claimed by another process (its row says running under the store's key).
    const { id: jobId } = await m.tracker.jobs.enqueue("competitor.check", { storeId: id }, { key: `competitor.check:${id}`, runAt: new Date(m.tracker.time.ms + DAY) });
    await db.job.update({ where: { id: Number(jobId) }, data: { status: "running", leaseOwner: "another-process#1" } });
    const before = pagesOf("bravo").length;
    const summary = await m.catalogue.readReviews(id);
    expect(summary).toMatchObject({ result: "skipped", note: expect.stringMatching(/catalogue is being read/) });
    expect(pagesOf("bravo").length).toBe(before);
    await db.job.update({ where: { id: Number(jobId) }, data: { status: "done", leaseOwner: null } });
    await m.catalogue.readReviews(id);
    expect(pagesOf("bravo").length).toBe(before + 1);
  });
});
