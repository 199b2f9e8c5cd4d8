// Measured products made by the real pipeline, as tests/integration/catalogue/catalogue.test.ts makes them: stand-in Shopify
// stores (fake-shopify-store.ts) read by the real tracker on a virtual clock, listing pictures served as real JPEG
// bytes from 127.0.0.1, fetched through the SSRF-safe fetcher, fingerprinted with the real library, matched and
// materialised by the real catalogue services. Tests then read the Product rows of source "measured" it wrote.
// Listings' product pages are read for their review counts (decision 094) by the real page reader on the same
// virtual clock, every request logged with the virtual moment it was sent (`pageRequests`).
import { createServer, type Server } from "node:http";
import { db, sqlReader } from "~/db.server";
import { createImageFetcher } from "~/integrations/image-fetch.server";
import { createPictureFingerprinter } from "~/integrations/picture-fingerprint.server";
import { createSafeFetcher, type SafeFetcher } from "~/integrations/safe-fetch.server";
import { createHostRateLimiter } from "~/integrations/storefront-politeness.server";
import { createStorefrontReviews } from "~/integrations/storefront-reviews.server";
import { createCatalogue, type Catalogue } from "~/services/catalogue.server";
import { startCompetitorTracker, type CompetitorTracker } from "./competitor-tracker";

export interface MeasuredCatalogue {
  tracker: CompetitorTracker;
  catalogue: Catalogue;
  /** Serves these JPEG bytes as a listing's main picture; returns the product's `images`. */
  picture(name: string, bytes: Buffer): Array<{ src: string }>;
  /** Every request the product page reader sent (robots.txt included): host, path and the virtual moment. */
  pageRequests: Array<{ host: string; path: string; at: number }>;
  /** Follows the stores as this user, reads them with the tracker and runs the catalogue: the measured products. */
  measure(user: { id: string; userSubscribed: string }, hosts: string[]): Promise<Array<{ id: number; objectID: string; storesSelling: number; title: string }>>;
  close(): Promise<void>;
}

export async function startMeasuredCatalogue(options: { start: string; ownerId: string }): Promise<MeasuredCatalogue> {
  const tracker = await startCompetitorTracker(options);
  const pictures = new Map<string, Buffer>();
  const server: Server = createServer((req, res) => {
    const body = pictures.get(req.url ?? "");
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "image/jpeg", "content-length": body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  const fetcher = createSafeFetcher({ contactUrl: "https://winningproducts.test/bot", allowHosts: [`127.0.0.1:${port}`] });
  const storeFetcher = createSafeFetcher({
    contactUrl: "https://winningproducts.test/bot",
    appName: "WinningProductsStoreTracker",
    lookup: async () => [{ address: "127.0.0.1", family: 4 }],
    allowHosts: [`127.0.0.1:${tracker.shops.port}`],
  });
  const pageRequests: MeasuredCatalogue["pageRequests"] = [];
  const loggedStoreFetcher: SafeFetcher = {
    userAgent: storeFetcher.userAgent,
    close: () => {},
    fetch: (url, init) => {
      const u = new URL(url);
      pageRequests.push({ host: u.hostname, path: `${u.pathname}${u.search}`, at: tracker.time.ms });
      return storeFetcher.fetch(url, init);
    },
  };
  const clock = { now: () => tracker.time.ms, sleep: async (ms: number) => void (tracker.time.ms += ms) };
  const catalogue = createCatalogue({
    db,
    sql: sqlReader,
    images: createImageFetcher({ fetcher }),
    fingerprinter: createPictureFingerprinter(),
    jobs: tracker.jobs,
    pages: createStorefrontReviews({ fetcher: loggedStoreFetcher, protocol: "http:", clock, limiter: createHostRateLimiter({ clock }) }),
    now: tracker.now,
  });
  return {
    tracker,
    catalogue,
    pageRequests,
    picture(name, bytes) {
      pictures.set(`/${name}.jpg`, bytes);
      return [{ src: `http://127.0.0.1:${port}/${name}.jpg` }];
    },
    async measure(user, hosts) {
      for (const host of hosts) await tracker.competitors.add(user, `${host}:${tracker.shops.port}`);
      await tracker.jobs.runDue();
      await catalogue.refresh();
      return db.product.findMany({ where: { source: "measured" }, orderBy: { id: "asc" }, select: { id: true, objectID: true, storesSelling: true, title: true } });
    },
    async close() {
      await tracker.close();
      fetcher.close();
      storeFetcher.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
