// The measured catalogue (docs/decisions/046), composed from its jobs the way billing.server.ts composes its own:
// - catalogue/pictures.server.ts: each listing's main picture fetched once and fingerprinted;
// - catalogue/matching.server.ts: listings matched into products with their evidence (and operator decisions);
// - catalogue/materialise.server.ts: each product's figures, signals and insights for every reader;
// - catalogue/reviews.server.ts: listings' product pages read for their review counts, at most once a day, politely
//   (decision 094), with its own due sweep and a keyed run per store.
// The stores it reads are the competitor tracker's (app/services/competitors.server.ts): every store a user
// follows, plus the operator's list. Each store read queues "catalogue.pictures", which fetches a bounded number of
// pictures, then matches and recomputes what changed in the same run (and queues itself again while pictures
// remain); a daily schedule recomputes every product's signals so the days roll even when nothing changed. Both
// are jobs, keyed so one runs at a time across processes; an operator's "match now" runs matching directly.
import type { Db, SqlReader } from "~/db.server";
import type { PictureFingerprinter } from "~/domain/catalogue/hash";
import { pictureFailurePhrase } from "~/domain/catalogue/picture-failures";
import type { ImageFetcher } from "~/integrations/image-fetch.server";
import type { StorefrontReviews } from "~/integrations/storefront-reviews.server";
import { childLogger } from "~/logger.server";
import { createCatalogueMaterialise } from "~/services/catalogue/materialise.server";
import { createCatalogueMatching } from "~/services/catalogue/matching.server";
import { readCataloguePending } from "~/services/catalogue/pending.server";
import { readProductsChangedSince } from "~/services/catalogue/listings.server";
import { createCataloguePictures } from "~/services/catalogue/pictures.server";
import { createCatalogueReviews } from "~/services/catalogue/reviews.server";
import type { Jobs } from "~/services/jobs.server";

export { measuredObjectId, type MatchSummary } from "~/services/catalogue/matching.server";

export const PICTURES_JOB = "catalogue.pictures";
export const DAILY_JOB = "catalogue.daily";
/** Daily at 04:23 UTC: the signals' days roll over for every measured product. */
export const DAILY_SCHEDULE = { name: "catalogue.daily", pattern: "23 4 * * *" } as const;
/** Pictures fetched per job run before it hands over to matching (the rest in the next run). */
const PICTURES_PER_RUN = 2_000;

export interface CatalogueStatus {
  /** Listings present in the observed stores' catalogues. */
  listings: number;
  /** Listing pictures fingerprinted, waiting, and failed (with their sentence on the listing). */
  fingerprinted: number;
  pending: number;
  failed: number;
  /** Measured products. */
  products: number;
  /** When a listing last joined a product (the last match that changed something); null before the first. */
  lastMatchAt: string | null;
  /** Pictures not in yet, by why (decision 091): waiting for a first read, or a transient failure and its next try. */
  pendingByReason: Array<{ reason: string; pictures: number; nextTryAt: string | null }>;
  /** Pictures that will not be read (permanent failures), by why. */
  failedByReason: Array<{ reason: string; pictures: number }>;
  /** Listings in a product without a picture (placed on their titles), and how many of their stores show none. */
  placedWithoutPicture: number;
  listingsWithNoPicture: number;
  /** Listings' review counts (decision 094): with a count, read with no review data, and present catalogue listings due a read now. */
  reviews: { withCount: number; noReviewData: number; due: number };
}

export interface CatalogueDeps {
  db: Db;
  sql: SqlReader;
  images: ImageFetcher;
  fingerprinter: PictureFingerprinter;
  jobs: Pick<Jobs, "enqueue" | "register" | "schedule" | "statusOfKey">;
  /** Listings' product pages, read for their review counts (decision 094); without it no review count is read. */
  pages?: StorefrontReviews;
  now?: () => Date;
}

const noPageReader = (): never => {
  throw new Error("This catalogue was built without a product page reader (CatalogueDeps.pages): review counts are not read.");
};

export function createCatalogue(deps: CatalogueDeps) {
  const now = deps.now ?? (() => new Date());
  const log = childLogger("catalogue");
  const pictures = createCataloguePictures({ db: deps.db, images: deps.images, fingerprinter: deps.fingerprinter, now });
  const matching = createCatalogueMatching({ db: deps.db, sql: deps.sql, now });
  const materialise = createCatalogueMaterialise({ db: deps.db, now });
  const reviews = deps.pages ? createCatalogueReviews({ db: deps.db, pages: deps.pages, jobs: deps.jobs, now, materialise: materialise.run, log }) : null;

  /**
   * Asks for a refresh. A keyed job that is already running is left alone by enqueue, so a store read that lands
   * while a refresh runs would wait for the next read: it queues a follow-up under a second key instead, which
   * runs once the first is done (or beside it in another process: both compute the same products).
   */
  async function requestRefresh(): Promise<void> {
    const first = await deps.jobs.enqueue(PICTURES_JOB, {}, { key: PICTURES_JOB });
    if (!first.created) await deps.jobs.enqueue(PICTURES_JOB, {}, { key: `${PICTURES_JOB}:next`, runAt: new Date(now().getTime() + 2_000) });
  }

  /** After a store read: its new or changed listings' pictures, then matching. */
  async function storeRead(): Promise<void> {
    await requestRefresh();
  }

  /** When the last refresh of this process started (its reads' changes are recomputed by the next one). */
  let lastRefreshAt: Date | null = null;

  /**
   * Fetches pending pictures (a bounded number), then matches, and recomputes the products whose members changed
   * and those whose listings' prices or stock the tracker measured a change of since the last refresh (the first
   * refresh of a process looks back a day, the next ones overlap the last by ten minutes; the daily job covers
   * anything older).
   */
  async function refresh(signal?: AbortSignal) {
    const startedAt = now();
    // Ten minutes of overlap: a read finished just before the last refresh may have been written just after it.
    const since = new Date(lastRefreshAt ? lastRefreshAt.getTime() - 10 * 60_000 : startedAt.getTime() - 24 * 3_600_000);
    await pictures.queue();
    let fetched = 0;
    let remaining = 0;
    while (fetched < PICTURES_PER_RUN && !signal?.aborted) {
      const batch = await pictures.fetchBatch(200, signal);
      fetched += batch.fetched + batch.reused + batch.failed;
      remaining = batch.remaining;
      if (batch.fetched + batch.reused + batch.failed === 0 || remaining === 0) break;
    }
    const match = await matching.run();
    const moved = await readProductsChangedSince(deps.db, since);
    const products = await materialise.run([...new Set([...match.changed, ...moved])]);
    lastRefreshAt = startedAt;
    log.info({ fetched, remaining, mode: match.mode, listings: match.listings, products: match.products, changed: match.changed.length, moved: moved.length, removed: match.removed, ms: match.ms + products.ms }, "catalogue refreshed");
    if (remaining > 0 && !signal?.aborted) await requestRefresh();
    return { fetched, remaining, match, products };
  }

  /** Matches now (incrementally, or everything with full) and recomputes the products that changed. */
  async function matchNow(options: { full?: boolean } = {}) {
    const match = await matching.run(options);
    const products = await materialise.run(match.changed);
    return { match, products };
  }

  /** What the operator page and `npm run catalogue -- status` show: pictures by state, products, the last match. */
  async function status(): Promise<CatalogueStatus> {
    const [byStatus, listings, products, last, byFailure, withoutPicture, noPicture] = await Promise.all([
      deps.db.listingPicture.groupBy({ by: ["status"], _count: { _all: true } }),
      deps.db.competitorProduct.count({ where: { removedAt: null } }),
      deps.db.product.count({ where: { source: "measured" } }),
      deps.db.catalogueMember.findFirst({ orderBy: { matchedAt: "desc" }, select: { matchedAt: true } }),
      deps.db.listingPicture.groupBy({ by: ["status", "failure"], where: { status: { in: ["pending", "failed"] } }, _count: { _all: true }, _min: { retryAt: true } }),
      deps.db.catalogueMember.count({ where: { listing: { OR: [{ picture: null }, { picture: { status: { not: "ok" } } }] } } }),
      deps.db.competitorProduct.count({ where: { removedAt: null, picture: null } }),
    ]);
    const count = (s: string) => byStatus.find((b) => b.status === s)?._count._all ?? 0;
    const [withCount, noReviewData, due] = await Promise.all([
      deps.db.listingReviews.count({ where: { count: { not: null } } }),
      deps.db.listingReviews.count({ where: { count: null } }),
      deps.db.catalogueMember.count({ where: { listing: { removedAt: null, OR: [{ reviews: null }, { reviews: { nextReadAt: { lte: now() } } }] } } }),
    ]);
    return {
      listings,
      fingerprinted: count("ok"),
      pending: count("pending"),
      failed: count("failed"),
      products,
      lastMatchAt: last ? last.matchedAt.toISOString() : null,
      pendingByReason: byFailure
        .filter((b) => b.status === "pending")
        .map((b) => ({ reason: b.failure === null ? "waiting for a first read" : pictureFailurePhrase(b.failure), pictures: b._count._all, nextTryAt: b._min.retryAt?.toISOString() ?? null })),
      failedByReason: byFailure.filter((b) => b.status === "failed").map((b) => ({ reason: pictureFailurePhrase(b.failure), pictures: b._count._all })),
      placedWithoutPicture: withoutPicture,
      listingsWithNoPicture: noPicture,
      reviews: { withCount, noReviewData, due },
    };
  }

  function registerJobs(on: Pick<Jobs, "register" | "schedule"> = deps.jobs): void {
    on.register(PICTURES_JOB, async ({ signal }) => {
      await refresh(signal);
    }, { timeoutMs: 30 * 60_000, leaseMs: 60_000 });
    on.register(DAILY_JOB, async () => {
      await materialise.run();
    }, { timeoutMs: 60 * 60_000, leaseMs: 60_000 });
    on.schedule(DAILY_SCHEDULE.name, DAILY_SCHEDULE.pattern, DAILY_JOB);
    reviews?.registerJobs(on);
  }

  return {
    storeRead,
    refresh,
    registerJobs,
    queuePictures: pictures.queue,
    fetchPictures: pictures.fetchBatch,
    match: matching.run,
    matchNow,
    status,
    /** What the catalogue (or one store's share of it) is waiting for: the grid's and store page's line (issue 37). */
    pending: (options: { follow?: { userId: string; id: number } } = {}) => readCataloguePending(deps.db, options),
    /** An operator's split, matched and every product it touches recomputed at once (decision 091). */
    split: async (listingId: number, note = "") => ({ ...(await matching.split(listingId, note)), ...(await matchNow()) }),
    /** An operator's merge, matched and recomputed at once. */
    merge: async (listingA: number, listingB: number, note = "") => {
      await matching.merge(listingA, listingB, note);
      return matchNow();
    },
    materialise: materialise.run,
    /** Reads one store's due product pages for their review counts now (the job's work; tests and the operator). */
    readReviews: (storeId: number) => (reviews ?? noPageReader()).readStore(storeId),
    /** Queues a review-count read of every store with listings due. */
    queueReviews: () => (reviews ?? noPageReader()).enqueueDue(),
  };
}

export type Catalogue = ReturnType<typeof createCatalogue>;
