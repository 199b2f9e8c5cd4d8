// The tracker's reads as the composition root builds them (app/integrations/tracker-storefront.server.ts): a store
// TRACKER_RESOLVE maps (a local stand-in) is paced like any store, one request a second, unless
// TRACKER_STANDIN_GAP_MS sets another gap for stand-ins; a store DNS finds is always paced by CRAWL_RULES.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CRAWL_RULES, emptyCrawlMemory } from "~/domain/crawl/politeness";
import { createTrackerReads, type TrackerReads } from "~/integrations/tracker-storefront.server";
import { makeCatalogue, startFakeShopifyStore, type FakeShopifyStore } from "../../helpers/fake-shopify-store";

let shops: FakeShopifyStore;
const reads: TrackerReads[] = [];

function trackerReads(standInGapMs?: number): TrackerReads {
  const made = createTrackerReads({
    contactUrl: "https://winningproducts.test/bot",
    appName: "WinningProductsStoreTracker",
    allowHosts: [`127.0.0.1:${shops.port}`],
    resolve: "*.test=127.0.0.1",
    standInGapMs,
  });
  reads.push(made);
  return made;
}

/** When the fake store saw each request for `host` (its name without the port), and the gaps between them, in ms. */
function requestsAt(host: string): { last: number; gaps: number[] } {
  const times = shops.requests.filter((r) => r.host === host).map((r) => r.at);
  return { last: times[times.length - 1], gaps: times.slice(1).map((t, i) => t - times[i]) };
}

beforeAll(async () => {
  shops = await startFakeShopifyStore();
});
afterAll(async () => {
  for (const r of reads) r.fetcher.close();
  await shops.close();
});

describe("the tracker's reads of a stand-in store", () => {
  it("wait a second between two requests to one store by default", async () => {
    shops.addShop("paced.test", { products: makeCatalogue(3), currency: "USD" });
    const read = await trackerReads().storefront.read(`paced.test:${shops.port}`, emptyCrawlMemory());
    expect(read.snapshot?.products).toHaveLength(3);
    const { last, gaps } = requestsAt("paced.test");
    expect(gaps.length).toBeGreaterThanOrEqual(1);
    // Seen by the store: a second apart, less what one request's trip may take longer than the next's.
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(CRAWL_RULES.minGapMs * 0.9);
    // The store's next moment, kept for the next read: a second after the last request.
    expect(read.memory.notBeforeMs! - last).toBeGreaterThan(CRAWL_RULES.minGapMs / 2);
  }, 30_000);

  it("wait TRACKER_STANDIN_GAP_MS between two requests when it is set, and remember that gap as the store's next moment", async () => {
    shops.addShop("quick.test", { products: makeCatalogue(3), currency: "USD" });
    const read = await trackerReads(40).storefront.read(`quick.test:${shops.port}`, emptyCrawlMemory());
    expect(read.snapshot?.products).toHaveLength(3);
    const { last, gaps } = requestsAt("quick.test");
    expect(gaps.length).toBeGreaterThanOrEqual(1);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(30);
    expect(read.memory.notBeforeMs! - last).toBeLessThan(CRAWL_RULES.minGapMs / 2);
  }, 30_000);
});
