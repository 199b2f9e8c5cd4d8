// Competitor tracker: how many snapshots of a 5,000-product Shopify store (21 catalogue pages + /meta.json) the
// storefront reader takes per minute, against the fake store on 127.0.0.1 (tests/helpers/fake-shopify-store.ts).
//   polite, one store:   at the real per-host limit (2 requests/s): the ceiling for following any one store
//   polite, 10 stores:   10 different hosts at once (the limit is per host), as a scheduler would run them
//   unthrottled:         no rate limit: the reader's own cost (parse + map), i.e. CPU headroom
// Prints; asserts nothing. BENCH_RUNS (default 5) sets the unthrottled count.
import { createSafeFetcher } from "~/integrations/safe-fetch.server";
import { createHostRateLimiter, createShopifyStorefront } from "~/integrations/shopify-storefront.server";
import { makeCatalogue, startFakeShopifyStore } from "../tests/helpers/fake-shopify-store";

const PRODUCTS = 5_000;
const runs = Number(process.env.BENCH_RUNS ?? 5);
const store = await startFakeShopifyStore();
const catalogue = makeCatalogue(PRODUCTS);
const hosts = Array.from({ length: 10 }, (_, i) => `shop-${i}.test`);
for (const host of hosts) store.addShop(host, { products: catalogue });

const fetcher = createSafeFetcher({
  contactUrl: "https://winningproducts.test/bot",
  lookup: async () => [{ address: "127.0.0.1", family: 4 }],
  allowHosts: [`127.0.0.1:${store.port}`],
});
const domain = (host: string) => `${host}:${store.port}`;
const perMinute = (count: number, ms: number) => ((count * 60_000) / ms).toFixed(1);
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

async function timed(label: string, count: number, work: () => Promise<unknown>) {
  const requestsBefore = store.requests.length;
  const start = performance.now();
  await work();
  const ms = performance.now() - start;
  const requests = store.requests.length - requestsBefore;
  console.log(
    `${label.padEnd(22)} ${count} snapshot(s) in ${(ms / 1000).toFixed(2)} s = ${perMinute(count, ms)} snapshots/min ` +
      `(${requests} requests, rss ${mb(process.memoryUsage().rss)} MB)`,
  );
}

console.log(`store: ${PRODUCTS} products, 250 a page`);

const polite = createShopifyStorefront({ fetcher, protocol: "http:", rateLimiter: createHostRateLimiter({ requestsPerSecond: 2 }) });
await timed("polite, one store", 1, async () => {
  const snap = await polite.snapshot(domain(hosts[0]));
  if (snap.products.length !== PRODUCTS || snap.truncated) throw new Error(`read ${snap.products.length} products`);
});
await timed("polite, 10 stores", hosts.length, () => Promise.all(hosts.map((h) => polite.snapshot(domain(h)))));

const fast = createShopifyStorefront({ fetcher, protocol: "http:", rateLimiter: createHostRateLimiter({ requestsPerSecond: 1e9 }) });
await fast.snapshot(domain(hosts[1])); // warm-up
await timed("unthrottled", runs, async () => {
  for (let i = 0; i < runs; i++) await fast.snapshot(domain(hosts[1]));
});
const heap = process.memoryUsage().heapUsed;
console.log(`heap after: ${mb(heap)} MB`);

fetcher.close();
await store.close();
