// The competitor tracker as the tracker tests build it: the real service with its own dependencies (the real
// storefront reader and safe fetcher against the fake Shopify on 127.0.0.1, the real job system and notifications)
// on a virtual clock the test moves by changing `time.ms`. Reads are scheduled every 4 hours.
import { db } from "~/db.server";
import { createSafeFetcher } from "~/integrations/safe-fetch.server";
import { createShopifyStorefront, type Clock } from "~/integrations/shopify-storefront.server";
import { createCompetitors, type Competitors, type CompetitorsDeps } from "~/services/competitors.server";
import { createJobs, type Jobs, type JobsLog } from "~/services/jobs.server";
import { createNotifications } from "~/services/notifications.server";
import { startFakeShopifyStore, type FakeShopifyStore } from "./fake-shopify-store";

export const HOUR = 3_600_000;

export interface CompetitorTracker {
  /** The virtual clock's time in epoch ms: tests move it forward (or set it) directly. */
  time: { ms: number };
  now: () => Date;
  shops: FakeShopifyStore;
  jobs: Jobs;
  competitors: Competitors;
  close(): Promise<void>;
}

export async function startCompetitorTracker(options: {
  start: string;
  ownerId: string;
  /** Settings passed on to the service (operator interval, parking, the readers of a store read). */
  competitors?: Pick<CompetitorsDeps, "operatorIntervalMs" | "parkAfterFailures" | "afterStoreRead" | "onStoreRemoved">;
}): Promise<CompetitorTracker> {
  const time = { ms: Date.parse(options.start) };
  const now = () => new Date(time.ms);
  const clock: Clock = { now: () => time.ms, sleep: async (ms) => void (time.ms += ms) };
  const quiet: JobsLog = { info() {}, warn() {}, error() {} };
  const jobs = createJobs({ db, ownerId: options.ownerId, now, log: quiet });
  const shops = await startFakeShopifyStore();
  const fetcher = createSafeFetcher({
    contactUrl: "https://winningproducts.test/bot",
    lookup: async () => [{ address: "127.0.0.1", family: 4 }],
    allowHosts: [`127.0.0.1:${shops.port}`],
  });
  const competitors = createCompetitors({
    db,
    storefront: createShopifyStorefront({ fetcher, protocol: "http:", clock }),
    jobs,
    notifications: createNotifications({ db, now }),
    now,
    checkIntervalMs: 4 * HOUR,
    log: quiet,
    ...options.competitors,
  });
  competitors.registerJobs();
  return {
    time,
    now,
    shops,
    jobs,
    competitors,
    async close() {
      fetcher.close();
      await shops.close();
    },
  };
}
