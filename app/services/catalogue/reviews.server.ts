// The measured demand signal (issue 37 item 6, docs/decisions/094): each catalogue listing's product page read for
// the review count its schema.org structured data publishes, at most once a day per listing, politely (the product
// pages go through the tracker's polite session: robots.txt, one request a second per store, Retry-After, the
// store's kept "not before"; app/integrations/storefront-reviews.server.ts). This module owns the ListingReviews rows
// (each listing's last read, its count or why it has none, and when it is read next) and the ListingReviewCount
// series (one count per listing and UTC day), and the two jobs:
// - "catalogue.reviews-due", every 10 minutes: queues a read of every observed store with listings due;
// - "catalogue.reviews" {storeId}, keyed per store: reads up to REVIEW_READS.pagesPerRun of its due listings, then
//   recomputes the products whose counts changed (their reviews, score and reasons: materialise.server.ts).
// A store is read by one thing at a time: the run does not start, and stops before its next page, while the store's
// catalogue read (competitor.check) runs in any process; both leave the store's next allowed moment on its row.
// A store that put up a wall for bots or asked for a long pause is not asked again for its pages that day.
import type { Prisma } from "@prisma/client";
import { z } from "zod";
import { retryBusy, type Db } from "~/db.server";
import { CHECK_JOB, checkJobKey } from "~/domain/competitors/competitors";
import { CRAWL_RULES, whenSentence, type CrawlMemory } from "~/domain/crawl/politeness";
import { dayOf, dayString } from "~/domain/products/insights";
import type { ReviewPageOutcome, ReviewRunStop, StorefrontReviews } from "~/integrations/storefront-reviews.server";
import { loadMemory, memoryColumns } from "~/services/crawl/state.server";
import type { Jobs } from "~/services/jobs.server";

export const REVIEWS_JOB = "catalogue.reviews";
export const REVIEWS_DUE_JOB = "catalogue.reviews-due";
/** Every 10 minutes, stores with listings due are queued. */
export const REVIEWS_DUE_SCHEDULE = { name: "catalogue-reviews", pattern: "*/10 * * * *" } as const;
export const reviewsJobKey = (storeId: number) => `${REVIEWS_JOB}:${storeId}`;

export const REVIEW_READS = {
  /** A listing's page is read at most once in this long. */
  everyMs: 24 * 3_600_000,
  /** Pages one run reads (at one a second, four minutes); the next sweep goes on with the rest. */
  pagesPerRun: 240,
  /**
   * A run starts no page after this long (a store's crawl-delay of up to 60 s would stretch 240 pages to hours); the
   * last page started may wait one gap more, well inside the job's ten minutes.
   */
  runMs: 5 * 60_000,
  /** Stores queued per sweep. */
  storesPerSweep: 500,
} as const;

/** Days of counts read back for a product's reviews: 30 days of gain after a count up to 30 days old. */
export const REVIEW_POINTS_DAYS = 61;

export type ReviewPoints = Map<number, Array<{ day: string; count: number }>>;

export interface ReviewRunSummary {
  storeId: number;
  result: "read" | "skipped";
  pages: number;
  counts: number;
  /** Why the run read nothing or stopped early, in a sentence (null when it read what was due). */
  note: string | null;
}

export interface CatalogueReviewsDeps {
  db: Db;
  pages: StorefrontReviews;
  jobs: Pick<Jobs, "enqueue" | "register" | "schedule" | "statusOfKey">;
  now: () => Date;
  /** Recomputes these measured products (materialise.server.ts run). */
  materialise: (objectIDs: string[]) => Promise<unknown>;
  log: { info(fields: object, message: string): void; warn(fields: object, message: string): void };
}

/** The counts of these listings from `fromDay` on, by listing, oldest first. */
export async function readReviewPoints(db: Db, listingIds: number[], fromDay: string): Promise<ReviewPoints> {
  const out: ReviewPoints = new Map();
  for (let i = 0; i < listingIds.length; i += 500) {
    const rows = await db.listingReviewCount.findMany({
      // A listing whose last read found no count (its page stopped publishing one, or published one we refused)
      // counts for nothing: its older counts are kept in the series but no longer stand.
      where: { listingId: { in: listingIds.slice(i, i + 500) }, day: { gte: fromDay }, listing: { reviews: { count: { not: null } } } },
      orderBy: [{ listingId: "asc" }, { day: "asc" }],
      select: { listingId: true, day: true, count: true },
    });
    for (const r of rows) {
      const points = out.get(r.listingId);
      if (points) points.push({ day: r.day, count: r.count });
      else out.set(r.listingId, [{ day: r.day, count: r.count }]);
    }
  }
  return out;
}

/** The sentence a listing keeps for a read that gave no count. */
function noteOf(outcome: ReviewPageOutcome): string {
  switch (outcome.kind) {
    case "read":
      if (outcome.reading.kind === "count") return "";
      return outcome.reading.kind === "none" ? `No review data: ${outcome.reading.reason}.` : `Review count not used: ${outcome.reading.reason}.`;
    case "gone":
      return `No review data: its product page answered ${outcome.status}.`;
    case "robots":
      return "No review data: the store's robots.txt asks crawlers like ours not to read its product pages.";
    case "failed":
      return `No review data yet: its product page could not be read (${outcome.reason}); we try again in a day.`;
  }
}

function stopSentence(domain: string, stop: ReviewRunStop): string {
  if (stop.kind === "slow-down") return `${domain} asked us to slow down; its product pages are read again ${whenSentence(new Date(stop.retryAtMs))}.`;
  const how = {
    password: "is password-protected",
    unauthorized: "asked for a log-in (401) on its product pages",
    forbidden: "refused its product pages (403), the way a wall for bots does",
    captcha: "answered its product pages with a captcha",
    html: "answered its product pages with a wall for bots",
  }[stop.how];
  return `No review data: ${domain} ${how}; we try again in a day.`;
}

export function createCatalogueReviews(deps: CatalogueReviewsDeps) {
  const { db, now } = deps;

  /** The store's catalogue read is running (in any process): its requests are not to be doubled by ours. */
  async function catalogueReadRunning(storeId: number): Promise<boolean> {
    return (await deps.jobs.statusOfKey(CHECK_JOB, checkJobKey(storeId))) === "running";
  }

  /** Present catalogue listings whose read is due: never read, or read a day ago. */
  const dueWhere = (): Prisma.CompetitorProductWhereInput => ({
    removedAt: null,
    member: { isNot: null },
    OR: [{ reviews: { is: null } }, { reviews: { nextReadAt: { lte: now() } } }],
  });

  /** Stores that are observed (followed or listed), readable (not paused, parked, blocked or refused by robots.txt), with listings due. */
  async function dueStores(): Promise<number[]> {
    const rows = await db.competitorProduct.findMany({
      where: {
        ...dueWhere(),
        store: {
          paused: false,
          parkedAt: null,
          lastCheckedAt: { not: null },
          status: { notIn: ["blocked", "robots", "parked"] },
          OR: [{ operatorListed: true }, { followers: { some: {} } }],
        },
      },
      distinct: ["storeId"],
      take: REVIEW_READS.storesPerSweep,
      select: { storeId: true },
    });
    return rows.map((r) => r.storeId);
  }

  /** Queues a read of every store with listings due; returns how many. */
  async function enqueueDue(): Promise<number> {
    const stores = await dueStores();
    for (const storeId of stores) await deps.jobs.enqueue(REVIEWS_JOB, { storeId }, { key: reviewsJobKey(storeId), runAt: now() });
    return stores.length;
  }

  /** The due listings of one store, never-read ones first, then in listing order. */
  async function dueListings(storeId: number, limit: number) {
    const select = { id: true, handle: true, reviews: { select: { count: true } } } as const;
    const fresh = await db.competitorProduct.findMany({ where: { ...dueWhere(), storeId, reviews: { is: null } }, orderBy: { id: "asc" }, take: limit, select });
    const again =
      fresh.length < limit
        ? await db.competitorProduct.findMany({ where: { ...dueWhere(), storeId, reviews: { isNot: null } }, orderBy: { id: "asc" }, take: limit - fresh.length, select })
        : [];
    return [...fresh, ...again].map((r) => ({ id: r.id, handle: r.handle, count: r.reviews?.count ?? null }));
  }

  const skipped = (storeId: number, note: string | null): ReviewRunSummary => ({ storeId, result: "skipped", pages: 0, counts: 0, note });

  /** Reads the due product pages of one store and records what they say. The job "catalogue.reviews" runs this. */
  async function readStore(storeId: number, signal?: AbortSignal): Promise<ReviewRunSummary> {
    const store = await db.competitorStore.findUnique({
      where: { id: storeId },
      select: { domain: true, fetchDomain: true, status: true, paused: true, parkedAt: true, lastCheckedAt: true },
    });
    if (!store || store.paused || store.parkedAt !== null || store.lastCheckedAt === null) return skipped(storeId, "The store is not being read.");
    if (store.status === "blocked" || store.status === "robots") return skipped(storeId, `The store's catalogue is not readable (${store.status}); its product pages are not asked for either.`);
    if (await catalogueReadRunning(storeId)) return skipped(storeId, "The store's catalogue is being read; its product pages wait for the next round.");
    const memory: CrawlMemory = await loadMemory(db, storeId, false);
    if (memory.notBeforeMs !== null && memory.notBeforeMs > now().getTime() + CRAWL_RULES.maxWaitInReadMs) {
      return skipped(storeId, `${store.domain} asked us to pause; its product pages are read ${whenSentence(new Date(memory.notBeforeMs))} or later.`);
    }
    const due = await dueListings(storeId, REVIEW_READS.pagesPerRun);
    if (due.length === 0) return skipped(storeId, null);
    const byHandle = new Map(due.map((l) => [l.handle, l]));
    const deadline = now().getTime() + REVIEW_READS.runMs;
    const keepGoing = async () => !signal?.aborted && now().getTime() < deadline && !(await catalogueReadRunning(storeId));
    const read = await deps.pages.read(store.fetchDomain, [...byHandle.keys()], memory, keepGoing);

    const at = now();
    const next = new Date(at.getTime() + REVIEW_READS.everyMs);
    const day = dayString(dayOf(at));
    const changed: number[] = [];
    const writes: Prisma.PrismaPromise<unknown>[] = [];
    let counts = 0;
    for (const page of read.pages) {
      const listing = byHandle.get(page.handle);
      if (!listing) continue;
      if (page.outcome.kind === "read" && page.outcome.reading.kind === "count") {
        const count = page.outcome.reading.count;
        counts++;
        if (listing.count !== count) changed.push(listing.id);
        const state = { count, countAt: at, note: null, lastReadAt: at, nextReadAt: next };
        writes.push(
          db.listingReviews.upsert({ where: { listingId: listing.id }, create: { listingId: listing.id, ...state }, update: state, select: { listingId: true } }),
          db.listingReviewCount.upsert({
            where: { listingId_day: { listingId: listing.id, day } },
            create: { listingId: listing.id, day, count, at },
            update: { count, at },
            select: { listingId: true },
          }),
        );
      } else {
        // The page says it has no count (or one we refuse, or it is gone, or robots.txt now forbids it): "no review
        // data" with why, and a count it had before no longer stands. A page that failed to answer keeps its count.
        const said = page.outcome.kind !== "failed";
        if (said && listing.count !== null) changed.push(listing.id);
        const state = { ...(said ? { count: null } : {}), note: noteOf(page.outcome).slice(0, 500), lastReadAt: at, nextReadAt: next };
        writes.push(db.listingReviews.upsert({ where: { listingId: listing.id }, create: { listingId: listing.id, ...state }, update: state, select: { listingId: true } }));
      }
    }
    // A wall for bots: the store's other due pages wait a day with that sentence (never asked again today).
    if (read.stopped?.kind === "blocked") {
      const note = stopSentence(store.domain, read.stopped);
      const rest = due.filter((l) => !read.pages.some((p) => p.handle === l.handle));
      for (const l of rest) {
        const state = { note, lastReadAt: at, nextReadAt: next };
        writes.push(db.listingReviews.upsert({ where: { listingId: l.id }, create: { listingId: l.id, ...state }, update: state, select: { listingId: true } }));
      }
    }
    // The store's robots.txt and next allowed moment go back to its row (its catalogue pages' validators are left alone).
    const kept = memoryColumns(read.memory);
    writes.push(db.competitorStore.update({ where: { id: storeId }, data: { robots: kept.robots, nextRequestAt: kept.nextRequestAt }, select: { id: true } }));
    await retryBusy(() => db.$transaction(writes));

    if (changed.length > 0) {
      const products = await db.catalogueMember.findMany({ where: { listingId: { in: changed } }, select: { product: { select: { objectID: true } } } });
      await deps.materialise([...new Set(products.map((p) => p.product.objectID))]);
    }
    const note = read.stopped ? stopSentence(store.domain, read.stopped) : null;
    deps.log.info({ storeId, domain: store.domain, pages: read.pages.length, counts, changed: changed.length, stopped: read.stopped?.kind ?? null }, "listing product pages read for review counts");
    return { storeId, result: "read", pages: read.pages.length, counts, note };
  }

  function registerJobs(on: Pick<Jobs, "register" | "schedule"> = deps.jobs): void {
    on.register<{ storeId: number }>(
      REVIEWS_JOB,
      async ({ payload, signal }) => {
        await readStore(payload.storeId, signal);
      },
      { payloadSchema: z.object({ storeId: z.number().int().positive() }), concurrency: 2, timeoutMs: 10 * 60_000, leaseMs: 60_000 },
    );
    on.register(REVIEWS_DUE_JOB, async () => {
      await enqueueDue();
    });
    on.schedule(REVIEWS_DUE_SCHEDULE.name, REVIEWS_DUE_SCHEDULE.pattern, REVIEWS_DUE_JOB);
  }

  return { readStore, enqueueDue, registerJobs };
}

export type CatalogueReviews = ReturnType<typeof createCatalogueReviews>;
