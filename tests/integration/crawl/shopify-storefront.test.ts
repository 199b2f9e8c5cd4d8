// The storefront reader against a fake Shopify on 127.0.0.1 that plays several stores by Host header
// ("store.test" and its "store-test.myshopify.com"). A virtual clock stands in for real waiting, so Retry-After
// and backoff are asserted as the waits the reader asked for, not as wall-clock time.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createSafeFetcher, type HostLookup, type SafeFetcher } from "~/integrations/safe-fetch.server";
import {
  createHostRateLimiter,
  createShopifyStorefront,
  decimalToCents,
  parseRetryAfter,
  productFromJson,
  StorefrontError,
  type Clock,
  type ShopifyStorefrontOptions,
} from "~/integrations/shopify-storefront.server";
import { makeCatalogue, makeProduct, startFakeShopifyStore, type FakeShopifyStore } from "../../helpers/fake-shopify-store";

let store: FakeShopifyStore;
let fetcher: SafeFetcher;
let domain: string;
let myshopify: string;

const lookup: HostLookup = async (name) =>
  name === "metadata.test" ? [{ address: "169.254.169.254", family: 4 }] : [{ address: "127.0.0.1", family: 4 }];

function virtualClock(): Clock & { sleeps: number[] } {
  let t = Date.parse("2026-11-23T12:00:00Z");
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => t,
    sleep: async (ms) => {
      sleeps.push(ms);
      t += ms;
    },
  };
}

let clock: ReturnType<typeof virtualClock>;
function reader(options: Partial<ShopifyStorefrontOptions> = {}) {
  return createShopifyStorefront({ fetcher, protocol: "http:", clock, ...options });
}

async function snapshotFailure(promise: Promise<unknown>): Promise<StorefrontError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(StorefrontError);
    return error as StorefrontError;
  }
  throw new Error("expected the snapshot to fail");
}

const catalogueRequests = () => store.requests.filter((r) => r.path.startsWith("/products.json"));

beforeAll(async () => {
  store = await startFakeShopifyStore();
  fetcher = createSafeFetcher({ contactUrl: "https://winningproducts.test/bot", lookup, allowHosts: [`127.0.0.1:${store.port}`], timeoutMs: 1_000 });
  domain = `store.test:${store.port}`;
  myshopify = `store-test.myshopify.com:${store.port}`;
});
afterAll(async () => {
  fetcher.close();
  await store.close();
});
beforeEach(() => {
  clock = virtualClock();
  store.shops.clear();
  store.requests.length = 0;
  store.addShop("store.test", { products: makeCatalogue(3), currency: "EUR" });
});
afterEach(() => {
  // Every test reads only what any visitor may read.
  for (const r of store.requests) expect(r.path).toMatch(/^\/(robots\.txt$|products\.json\?|products\/[^/]+\.js$|meta\.json$|password$|$|go\b|slow\b)/);
  for (const r of store.requests) expect(r.path).not.toMatch(/cart|checkout/);
});

describe("probe", () => {
  it("confirms a Shopify store from /products.json", async () => {
    expect(await reader().probe(domain)).toMatchObject({ ok: true, domain, firstPageProducts: 3 });
    expect(catalogueRequests()[0]).toMatchObject({ host: "store.test", path: "/products.json?limit=250&page=1" });
    expect(catalogueRequests()[0].headers["user-agent"]).toMatch(/WinningProductsStoreTracker.*winningproducts\.test\/bot/);
  });

  it("says not-shopify for a normal site and for JSON of another shape", async () => {
    const plain = await reader().probe(`plain.test:${store.port}`);
    expect(plain).toMatchObject({ ok: false, reason: "not-shopify" });
    expect(!plain.ok && plain.message).toBe(`plain.test:${store.port} does not look like a Shopify store: it has no public product catalogue.`);

    store.queue("store.test", "/products.json", { kind: "raw", body: JSON.stringify({ items: [] }) });
    expect(await reader().probe(domain)).toMatchObject({ ok: false, reason: "not-shopify" });
    store.queue("store.test", "/products.json", { kind: "raw", body: '{"products": [ {"id": 1,' });
    expect(await reader().probe(domain)).toMatchObject({ ok: false, reason: "not-shopify" });
  });

  it("says password-protected for a redirect to /password and for a 401", async () => {
    store.shops.get("store.test")!.mode = "password";
    const redirected = await reader().probe(domain);
    expect(redirected).toMatchObject({ ok: false, reason: "password-protected" });
    expect(!redirected.ok && redirected.message).toMatch(/password-protected/);
    store.shops.get("store.test")!.mode = "unauthorized";
    expect(await reader().probe(domain)).toMatchObject({ ok: false, reason: "password-protected" });
    store.shops.get("store.test")!.mode = "open";
    store.queue("store.test", "/products.json", { kind: "raw", contentType: "text/html", body: '<form method="post" action="/password"><input type="password"></form>' });
    expect(await reader().probe(domain)).toMatchObject({ ok: false, reason: "password-protected" });
  });

  it("reads a blocked own domain through its *.myshopify.com address found in the page", async () => {
    store.shops.get("store.test")!.mode = "blocked";
    store.addShop("store-test.myshopify.com", { products: makeCatalogue(3) });
    expect(await reader().probe(domain)).toMatchObject({ ok: true, domain: myshopify, firstPageProducts: 3 });
    const snap = await reader().snapshot(domain);
    expect(snap.domain).toBe(myshopify);
    expect(snap.products.map((p) => p.handle)).toEqual(["product-1", "product-2", "product-3"]);
  });

  it("says blocked when the own domain hides its catalogue and the myshopify address does not answer either", async () => {
    store.shops.get("store.test")!.mode = "hidden";
    const result = await reader().probe(domain);
    expect(result).toMatchObject({ ok: false, reason: "blocked" });
    expect(!result.ok && result.message).toMatch(/hides its product catalogue/);
  });

  it("says rate-limited after repeated 429s, having waited as told", async () => {
    store.queue("store.test", "/products.json", ...Array.from({ length: 4 }, () => ({ kind: "status" as const, status: 429, headers: { "retry-after": "2" } })));
    const result = await reader().probe(domain);
    expect(result).toMatchObject({ ok: false, reason: "rate-limited" });
    expect(catalogueRequests()).toHaveLength(4);
    expect(clock.sleeps.filter((ms) => ms >= 2000)).toHaveLength(3);
  });

  it("says unreachable for a name that does not resolve and for an answer slower than the timeout", async () => {
    const noDns = createSafeFetcher({ contactUrl: "https://x.test", lookup: async () => [] });
    expect(await reader({ fetcher: noDns }).probe("nowhere.test")).toMatchObject({ ok: false, reason: "unreachable" });
    noDns.close();

    store.queue("store.test", "/products.json", { kind: "hang", ms: 3_000 }, { kind: "hang", ms: 3_000 });
    const slow = await reader().probe(domain);
    expect(slow).toMatchObject({ ok: false, reason: "unreachable" });
    expect(!slow.ok && slow.message).toBe(`We could not reach ${domain}. Check the address; if it is right, the site may be down, so try again later.`);
  });

  it("says refused when the store redirects to a private address or to cloud metadata", async () => {
    for (const location of [`http://127.0.0.1:${store.port + 1}/products.json`, "http://169.254.169.254/latest/meta-data/", "http://metadata.test/x"]) {
      store.queue("store.test", "/products.json", { kind: "redirect", location });
      const result = await reader().probe(domain);
      expect(result, location).toMatchObject({ ok: false, reason: "refused" });
      expect(!result.ok && result.message).toMatch(/private or internal network/);
    }
  });
});

describe("snapshot", () => {
  it("maps Shopify's fields into the snapshot", async () => {
    const snap = await reader().snapshot(domain);
    expect(snap).toMatchObject({ domain, currency: "EUR", truncated: false, takenAt: new Date(clock.now()).toISOString() });
    expect(snap.takenAt >= "2026-11-23T12:00:00.000Z").toBe(true);
    expect(snap.products).toHaveLength(3);
    expect(snap.products[0]).toEqual({
      id: "7000000000001",
      handle: "product-1",
      title: "Product 1",
      productType: "Pet Supplies",
      vendor: "Acme",
      tags: ["new", "batch-1"],
      createdAt: "2026-02-02T09:00:00-05:00",
      publishedAt: "2026-02-02T10:00:00-05:00",
      updatedAt: "2026-02-02T11:00:00-05:00",
      images: ["https://cdn.shopify.com/s/files/1/0000/0001/products/product-1.jpg?v=1"],
      variants: [
        { id: "40000000000010", title: "Small", sku: "SKU-1-S", priceCents: 1199, compareAtCents: 2100, available: true },
        { id: "40000000000011", title: "Large", sku: "SKU-1-L", priceCents: 1650, compareAtCents: null, available: true },
      ],
    });
  });

  it("keeps ids beyond 2^53 exact", async () => {
    store.queue("store.test", "/products.json", {
      kind: "raw",
      body: '{"products":[{"id":98765432109876543,"handle":"big","title":"Big","variants":[{"id":12345678901234567890,"title":"x","price":"1.00","available":true}]}]}',
    });
    const snap = await reader().snapshot(domain);
    expect(snap.products[0].id).toBe("98765432109876543");
    expect(snap.products[0].variants[0].id).toBe("12345678901234567890");
  });

  it("reads a 5,000-product catalogue to the empty page", async () => {
    store.shops.get("store.test")!.products = makeCatalogue(5_000);
    const snap = await reader().snapshot(domain);
    expect(snap.truncated).toBe(false);
    expect(snap.products).toHaveLength(5_000);
    expect(new Set(snap.products.map((p) => p.id)).size).toBe(5_000);
    expect(catalogueRequests().map((r) => r.path)).toEqual(Array.from({ length: 21 }, (_, i) => `/products.json?limit=250&page=${i + 1}`));
  });

  it("stops at the page, product and byte caps and says the snapshot is truncated", async () => {
    store.shops.get("store.test")!.products = makeCatalogue(1_000);
    const byPages = await reader({ maxPages: 2 }).snapshot(domain);
    expect(byPages).toMatchObject({ truncated: true });
    expect(byPages.products).toHaveLength(500);
    const byProducts = await reader({ maxProducts: 600 }).snapshot(domain);
    expect(byProducts.truncated).toBe(true);
    expect(byProducts.products).toHaveLength(600);
    const byBytes = await reader({ maxBytes: 10_000 }).snapshot(domain);
    expect(byBytes.truncated).toBe(true);
    expect(byBytes.products).toHaveLength(250);
    store.shops.get("store.test")!.products[300].body_html = "x".repeat(500_000);
    const byPageSize = await reader({ pageMaxBytes: 400_000 }).snapshot(domain);
    expect(byPageSize.truncated).toBe(true);
    expect(byPageSize.products).toHaveLength(250);
  });

  it("sees launches, removals, price changes and restocks between snapshots", async () => {
    const shop = store.shops.get("store.test")!;
    shop.products = makeCatalogue(4);
    const before = await reader().snapshot(domain);
    expect(before.products.find((p) => p.handle === "product-4")!.variants[1].available).toBe(false);

    shop.products.splice(1, 1); // product-2 removed
    shop.products.push(makeProduct(99)); // launch
    shop.products[0].variants[0].price = "9.49"; // price drop on product-1
    shop.products.find((p) => p.handle === "product-4")!.variants[1].available = true; // restock
    const after = await reader().snapshot(domain);

    const handles = (s: typeof before) => s.products.map((p) => p.handle).sort();
    expect(handles(before)).toEqual(["product-1", "product-2", "product-3", "product-4"]);
    expect(handles(after)).toEqual(["product-1", "product-3", "product-4", "product-99"]);
    expect(after.products.find((p) => p.handle === "product-1")!.variants[0].priceCents).toBe(949);
    expect(after.products.find((p) => p.handle === "product-4")!.variants[1].available).toBe(true);
  });

  it("reads /products/{handle}.js only where availability is missing, a bounded number per run", async () => {
    const shop = store.shops.get("store.test")!;
    shop.publishAvailability = false;
    shop.products = makeCatalogue(4);
    const snap = await reader({ maxProductJsPerRun: 3 }).snapshot(domain);
    const js = store.requests.filter((r) => r.path.endsWith(".js")).map((r) => r.path);
    expect(js).toEqual(["/products/product-1.js", "/products/product-2.js", "/products/product-3.js"]);
    expect(snap.products[3].variants.map((v) => v.available)).toEqual([null, null]);
    expect(snap.products[3].variants[1].priceCents).toBe(1950);
    expect(snap.products.slice(0, 3).map((p) => p.variants.map((v) => v.available))).toEqual([
      [true, true],
      [true, true],
      [true, true],
    ]);
    store.requests.length = 0;
    shop.publishAvailability = true;
    await reader().snapshot(domain);
    expect(store.requests.filter((r) => r.path.endsWith(".js"))).toHaveLength(0);
  });

  it("honours Retry-After (seconds or an HTTP date): a short one is waited out, a long one ends the read with when to come back", async () => {
    store.queue("store.test", "/products.json", { kind: "status", status: 429, headers: { "retry-after": "7" } });
    const snap = await reader({ maxRetryAfterMs: 30_000 }).snapshot(domain);
    expect(snap.products).toHaveLength(3);
    expect(clock.sleeps).toContain(7_000);

    const inTwoMinutes = new Date(clock.now() + 120_000).toUTCString();
    store.queue("store.test", "/products.json", { kind: "status", status: 429, headers: { "retry-after": inTwoMinutes } });
    const before = store.requests.length;
    const err = await snapshotFailure(reader({ maxRetryAfterMs: 30_000 }).snapshot(domain));
    expect(err.reason).toBe("rate-limited");
    expect(err.detail.retryAtMs).toBeGreaterThanOrEqual(Date.parse(inTwoMinutes) - 1000);
    expect(err.memory?.notBeforeMs).toBe(err.detail.retryAtMs);
    // Nothing more was asked of the store after it said to wait two minutes.
    expect(store.requests.slice(before).map((r) => r.path)).toEqual(["/robots.txt", "/products.json?limit=250&page=1"]);
    expect(Math.max(...clock.sleeps)).toBeLessThan(30_000);
  });

  it("retries a few 5xx with backoff, then gives up as unreachable", async () => {
    store.queue("store.test", "/products.json", { kind: "status", status: 502 }, { kind: "status", status: 503 });
    expect((await reader().snapshot(domain)).products).toHaveLength(3);
    // robots.txt, then page 1 a second later (the gap), 1 s and 2 s of backoff, then page 2 and /meta.json a second apart.
    expect(clock.sleeps).toEqual([1000, 1000, 2000, 1000, 1000]);

    store.queue("store.test", "/products.json", ...Array.from({ length: 4 }, () => ({ kind: "status" as const, status: 500 })));
    const err = await snapshotFailure(reader().snapshot(domain));
    expect(err.reason).toBe("unreachable");
  });

  it("fails with bad-response when a later page is malformed", async () => {
    store.queue("store.test", "/products.json", { kind: "raw", body: JSON.stringify({ products: makeCatalogue(250) }) }, { kind: "raw", body: "<html>oops" });
    const err = await snapshotFailure(reader().snapshot(domain));
    expect(err.reason).toBe("bad-response");
    expect(err.message).toBe(`${domain} sent a catalogue page we could not read. We will try again later.`);
  });

  it("refuses the snapshot of a store that redirects to the metadata endpoint", async () => {
    store.queue("store.test", "/products.json", { kind: "redirect", location: "http://169.254.169.254/latest/meta-data/" });
    expect((await snapshotFailure(reader().snapshot(domain))).reason).toBe("refused");
  });

  it("gives up on an endless catalogue page at the page cap without growing memory", async () => {
    store.endless.bytesWritten = 0;
    store.queue("store.test", "/products.json", { kind: "endless" });
    const err = await snapshotFailure(reader({ pageMaxBytes: 512 * 1024 }).snapshot(domain));
    expect(err.reason).toBe("not-shopify");
    await new Promise((r) => setTimeout(r, 50));
    expect(store.endless.clientClosed).toBe(true);
    expect(store.endless.bytesWritten).toBeLessThan(20 * 1024 * 1024);
  });
});

describe("the per-host rate limit", () => {
  it("spaces requests to one host across concurrent snapshots", async () => {
    store.shops.get("store.test")!.products = makeCatalogue(600);
    const limiter = createHostRateLimiter({ requestsPerSecond: 20 });
    // When each request is sent (arrival times at the server would add network jitter to the spacing).
    const sent: number[] = [];
    const timed = { ...fetcher, fetch: (url: string, init?: Parameters<SafeFetcher["fetch"]>[1]) => (sent.push(Date.now()), fetcher.fetch(url, init)) };
    const a = createShopifyStorefront({ fetcher: timed, protocol: "http:", rateLimiter: limiter });
    const b = createShopifyStorefront({ fetcher: timed, protocol: "http:", rateLimiter: limiter });
    const [snapA, snapB] = await Promise.all([a.snapshot(domain), b.snapshot(domain)]);
    expect(snapA.products).toHaveLength(600);
    expect(snapB.products).toHaveLength(600);
    // Each reader fetched robots.txt once (it keeps it a day): 10 catalogue requests and 2 of robots.txt.
    expect(store.requests).toHaveLength(12);
    expect(store.requests.filter((r) => r.path === "/robots.txt")).toHaveLength(2);
    expect(sent).toHaveLength(12);
    // The k-th request is never sent before k intervals (50 ms at 20/s) after the first: at most 20 a second.
    sent.sort((x, y) => x - y);
    for (let i = 1; i < sent.length; i++) expect(sent[i] - sent[0]).toBeGreaterThanOrEqual(i * 50 - 5);
  });

  it("asks the clock to wait 500 ms between requests to one host at 2 requests/s, and not between hosts", async () => {
    // A clock that stands still: three callers at the same instant get slots 0, 500 and 1000 ms out.
    const sleeps: number[] = [];
    const still: Clock = { now: () => 1_000_000, sleep: async (ms) => void sleeps.push(ms) };
    const limiter = createHostRateLimiter({ requestsPerSecond: 2, clock: still });
    await Promise.all([limiter.acquire("a.test"), limiter.acquire("a.test"), limiter.acquire("a.test"), limiter.acquire("b.test")]);
    expect(sleeps).toEqual([500, 1000]);
    limiter.pushBack("b.test", 1_000_000 + 30_000);
    await limiter.acquire("b.test");
    expect(sleeps).toEqual([500, 1000, 30_000]);
  });
});

describe("parsing helpers", () => {
  it("reads Retry-After as seconds or an HTTP date", () => {
    const now = Date.parse("2026-11-23T12:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter("Mon, 23 Nov 2026 12:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Mon, 23 Nov 2026 11:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });

  it("turns decimal prices into exact cents", () => {
    expect(decimalToCents("19.99")).toBe(1999);
    expect(decimalToCents("0.10")).toBe(10);
    expect(decimalToCents("5")).toBe(500);
    expect(decimalToCents("5.5")).toBe(550);
    expect(decimalToCents("1234.567")).toBe(123456);
    expect(decimalToCents(null)).toBeNull();
    expect(decimalToCents("free")).toBeNull();
    expect(decimalToCents("-1.00")).toBeNull();
  });

  it("reads older shapes: tags as a comma list, protocol-relative images, numbers as prices; skips products without an id", () => {
    const product = productFromJson({
      id: "42",
      handle: "mug",
      title: "Mug",
      tags: "kitchen, gift ,, sale",
      images: [{ src: "//cdn.shopify.com/mug.jpg" }, { nope: 1 }],
      variants: [
        { id: 1, title: "Default Title", price: 12.5, compare_at_price: "", sku: "", available: false },
        { id: 2, title: "No price" },
      ],
    });
    expect(product).toMatchObject({
      id: "42",
      tags: ["kitchen", "gift", "sale"],
      images: ["https://cdn.shopify.com/mug.jpg"],
      productType: "",
      vendor: "",
      createdAt: null,
      variants: [{ id: "1", priceCents: 1250, compareAtCents: null, sku: null, available: false }],
    });
    expect(productFromJson({ handle: "no-id" })).toBeNull();
    expect(productFromJson({ id: 1 })).toBeNull();
    expect(productFromJson("text")).toBeNull();
  });
});
