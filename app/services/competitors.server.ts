// Competitor tracking (docs/decisions/023, 024): sellers follow rival Shopify stores. Composed from its jobs in
// app/services/competitors/, each a module of plain functions taking its dependencies first:
// - follows.server.ts: following stores (ONE CompetitorStore row per domain, shared by every follower) and products;
// - check-now.server.ts: a follower's "check now", rate-limited;
// - product-import.server.ts: a rival's product added to our product database (decision 026);
// - store-views.server.ts and estimates.server.ts: a store's page and the estimated weekly orders;
// - tracker.server.ts: the "competitor.check" job and its schedule, writing reads through catalogue.server.ts
//   and alerting followers through alerts.server.ts;
// - observed-stores.server.ts: the operator's list of stores the measured catalogue observes (decision 047);
// - retention.server.ts: the daily "competitor.retention" job thinning and deleting old history (decision 047);
// - shared.server.ts: the job's names, the rows' selects, and the guards every user action passes.
// Expected refusals are AppErrors; nothing here knows HTTP.
import type { Db } from "~/db.server";
import { COMPETITOR_RULES } from "~/domain/competitors/competitors";
import type { ShopifyStorefront } from "~/integrations/shopify-storefront.server";
import { childLogger } from "~/logger.server";
import { bindDb, bindDeps } from "~/services/bind";
import { checkNow } from "~/services/competitors/check-now.server";
import { estimates } from "~/services/competitors/estimates.server";
import { addFollow, followProduct, listFollows, removeFollow, renameFollow, unfollowProduct } from "~/services/competitors/follows.server";
import { importProduct } from "~/services/competitors/product-import.server";
import { accessFor } from "~/services/competitors/shared.server";
import { storeDetail } from "~/services/competitors/store-views.server";
import { addStores, listStores, pauseStore, removeStore, resumeStore } from "~/services/crawl/observed-stores.server";
import { applyRetention } from "~/services/crawl/retention.server";
import { RETENTION_JOB, RETENTION_SCHEDULE } from "~/services/competitors/shared.server";
import { enqueueDue, registerCheckJobs, runCheck, type CompetitorsLog, type StoreReader } from "~/services/crawl/tracker.server";
import { followerAlerts } from "~/services/competitors/alerts.server";
import type { Jobs } from "~/services/jobs.server";
import type { Notifications } from "~/services/notifications.server";

export { CHECK_JOB, DUE_JOB, DUE_SCHEDULE, checkJobKey } from "~/services/competitors/shared.server";
export type { CompetitorStatus, CompetitorSummary, CompetitorUser } from "~/services/competitors/shared.server";
export type { EstimateView } from "~/services/competitors/estimates.server";
export type { ChangeView, CompetitorDetail, CompetitorProductView, ProductSignals } from "~/services/competitors/store-views.server";
export type { CheckOutcome, CompetitorsLog } from "~/services/crawl/tracker.server";
export type { AddStoresResult, ObservedStore } from "~/services/crawl/observed-stores.server";
export type { RetentionOutcome } from "~/services/crawl/retention.server";
export { RETENTION_JOB, RETENTION_SCHEDULE } from "~/services/competitors/shared.server";

export interface CompetitorsDeps {
  db: Db;
  storefront: Pick<ShopifyStorefront, "probe" | "read">;
  jobs: Pick<Jobs, "enqueue" | "register" | "schedule">;
  notifications: Pick<Notifications, "notify">;
  now?: () => Date;
  /** Time between two reads of a store someone follows (default 6 hours). */
  checkIntervalMs?: number;
  /** Time between two reads of a store only the operator lists (default 24 hours, decision 047). */
  operatorIntervalMs?: number;
  /** Failed reads in a row after which a store is parked (default COMPETITOR_RULES.parkAfterFailures). */
  parkAfterFailures?: number;
  /**
   * The readers of each successful store read after the followers' alerts, in order (the composition root wires the
   * measured catalogue here; decision 100). crawl/ calls them through this list and imports none of them.
   */
  afterStoreRead?: readonly StoreReader[];
  /** Called after a store the operator removed left with its listings (the measured catalogue recounts). */
  onStoreRemoved?: (storeId: number) => Promise<void>;
  /** Backoff after failed reads: first wait and cap. */
  backoff?: { baseMs?: number; maxMs?: number };
  /** Store reads one process runs at once (default 2; each waits on the store's answers and its per-host limit). */
  checkConcurrency?: number;
  /** "Check now" limits. */
  checkNow?: { perStoreMs?: number; perHour?: number };
  /** Called after a rival's product was added to the product database (saved-search alerts, decision 030). */
  onProductsAdded?: () => Promise<void>;
  /** The site path a notification opens for a follow; default /dashboard/competitors/{id}. */
  competitorPath?: (competitorId: number) => string;
  log?: CompetitorsLog;
}

export function createCompetitors(deps: CompetitorsDeps) {
  // Every module's dependencies, defaults filled in once.
  const resolved = {
    db: deps.db,
    storefront: deps.storefront,
    jobs: deps.jobs,
    notifications: deps.notifications,
    now: deps.now ?? (() => new Date()),
    intervalMs: deps.checkIntervalMs ?? COMPETITOR_RULES.checkIntervalMs,
    operatorIntervalMs: deps.operatorIntervalMs ?? COMPETITOR_RULES.operatorIntervalMs,
    parkAfterFailures: deps.parkAfterFailures,
    onStoreRemoved: deps.onStoreRemoved,
    backoff: deps.backoff,
    checkConcurrency: deps.checkConcurrency,
    perStoreMs: deps.checkNow?.perStoreMs ?? COMPETITOR_RULES.checkNowPerStoreMs,
    perHour: deps.checkNow?.perHour ?? COMPETITOR_RULES.checkNowPerHour,
    pathOf: deps.competitorPath ?? ((id: number) => `/dashboard/competitors/${id}`),
    log: deps.log ?? childLogger("competitors"),
    onProductsAdded: deps.onProductsAdded,
  };
  const afterRead = [followerAlerts(resolved), ...(deps.afterStoreRead ?? [])];
  const tracker = { ...resolved, afterRead };
  return {
    ...bindDb(deps.db, {
      access: accessFor,
      list: listFollows,
      get: storeDetail,
      rename: renameFollow,
      remove: removeFollow,
      unfollowProduct,
      estimates,
      listStores,
    }),
    ...bindDeps(resolved, {
      add: addFollow,
      checkNow,
      followProduct,
      importProduct,
      enqueueDue,
      applyRetention,
      addStores,
      pauseStore,
      resumeStore,
      removeStore,
    }),
    /** Reads one store now and hands the read to its readers (the job "competitor.check" runs the same). */
    runCheck: (storeId: number) => runCheck(tracker, storeId),
    /** Adds the check kinds, the retention job and their schedules (by default on the job system checks are enqueued on). */
    registerJobs(on: Pick<Jobs, "register" | "schedule"> = deps.jobs): void {
      registerCheckJobs(tracker, on);
      on.register(RETENTION_JOB, async () => {
        const outcome = await applyRetention(resolved);
        resolved.log.info(outcome, "competitor history retention applied");
      }, { timeoutMs: 30 * 60_000, leaseMs: 60_000 });
      on.schedule(RETENTION_SCHEDULE.name, RETENTION_SCHEDULE.pattern, RETENTION_JOB);
    },
  };
}

export type Competitors = ReturnType<typeof createCompetitors>;
