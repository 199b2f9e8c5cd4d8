// The tracker (docs/decisions/024, 047): the job "competitor.check" reads one store, records what changed and
// hands the read to its readers, in order (deps.afterRead: the followers' alerts, the measured catalogue; the
// composition root wires the list, so crawl/ imports no other feature); the scheduled job "competitor.check-due" queues every observed store whose next read is
// due. A store is observed when someone follows it or the operator lists it, and it is neither paused nor parked.
// - Followed stores are read every intervalMs; stores only the operator lists every operatorIntervalMs, each at
//   its own fixed time of the interval (domain nextSlotMs), so a list of thousands is spread over the day; that
//   interval is scaled by the store's activity (domain read-tier, decision 101: changed this week, read more often).
// - After parkAfterFailures failed reads in a row the store is parked with its sentence (decision 047).
// - Keyed competitor.check:{storeId}, a store is never read twice at once however many users follow it or
//   press "check now".
// - A failed read is recorded with its sentence (lastError) and the store backs off (domain failureBackoffMs).
// - What changed is the pure diff of app/domain/competitors/insights.ts between the stored current catalogue
//   and the new read.
// - Politely (decision 088): the read starts from the store's kept crawl memory (robots.txt, validators, the moment
//   before which no request may go, left by whichever process read it last) and writes it back with the read. A
//   read whose every page answered 304 is the stored catalogue read again: no product is written or removed. A
//   store asking for a pause longer than a read waits is not read before it (crawl-state.server.ts).
import { z } from "zod";
import { retryBusy, type Db } from "~/db.server";
import { diffSnapshots, type CatalogueChange } from "~/domain/competitors/insights";
import { failureBackoffMs, nextSlotMs } from "~/domain/competitors/competitors";
import { CRAWL_RULES, whenSentence } from "~/domain/crawl/politeness";
import { activityIntervalMs } from "~/domain/crawl/read-tier";
import type { StoreSnapshot } from "~/domain/crawl/store-snapshot";
import { SafeFetchError } from "~/integrations/safe-fetch.server";
import { StorefrontError, type CatalogueRead, type ShopifyStorefront } from "~/integrations/shopify-storefront.server";
import type { Jobs } from "~/services/jobs.server";
import { recordRead, snapshotProductOf } from "~/services/crawl/listings.server";
import { failureState, loadMemory, memoryColumns } from "~/services/crawl/state.server";
import { CHECK_JOB, DUE_JOB, DUE_SCHEDULE, enqueueCheck, productSelect, storeSelect } from "~/services/crawl/rows.server";

const DUE_BATCH = 500;
const zStoreId = z.object({ storeId: z.number().int().positive() });

export interface CheckOutcome {
  storeId: number;
  result: "ok" | "failed" | "skipped";
  changes: number;
  notifications: number;
  error?: string;
}

export interface CompetitorsLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** A follow of the store read: who to tell. */
export interface Follower {
  id: number;
  userId: string;
  name: string;
}

/** What one successful read tells its readers. */
export interface StoreRead {
  store: { id: number; domain: string };
  followers: Follower[];
  changes: CatalogueChange[];
  /** The read's time (ISO), the same in every row it wrote. */
  takenAt: string;
  /** Every page answered 304: nothing was written but times. */
  unchanged: boolean;
}

/**
 * A reader of store reads (competitor alerts, the measured catalogue, ...). It returns the notifications it sent.
 * onFailure "retry": its error fails the read's job, which is retried (a reader that must not miss a read, and
 * that a second run of the same read does not repeat, as the alerts' dedupe keys make sure); "log": its error is
 * logged and the read stands.
 */
export interface StoreReader {
  name: string;
  onFailure: "retry" | "log";
  read(read: StoreRead): Promise<number | void>;
}

export interface TrackerDeps {
  db: Db;
  storefront: Pick<ShopifyStorefront, "read">;
  jobs: Pick<Jobs, "enqueue" | "register" | "schedule">;
  now: () => Date;
  /** Time between two reads of a store someone follows. */
  intervalMs: number;
  /** Time between two reads of a store only the operator lists. */
  operatorIntervalMs: number;
  /** Failed reads in a row after which a store is parked (domain default when absent). */
  parkAfterFailures?: number;
  /** The readers of each successful read, in order (the composition root's list). */
  afterRead: readonly StoreReader[];
  /** Backoff after failed reads: first wait and cap (domain defaults when absent). */
  backoff?: { baseMs?: number; maxMs?: number };
  /** Store reads one process runs at once (default 2). */
  checkConcurrency?: number;
  log: CompetitorsLog;
}

/** A sentence for a failed read: the storefront's own, or the fetcher's. */
function failureSentence(error: unknown, domain: string): string | null {
  if (error instanceof StorefrontError) return error.message;
  if (error instanceof SafeFetchError) return `We could not read ${domain}: ${error.message}`;
  return null;
}

/** Reads one store, records what changed, and alerts its followers. The job "competitor.check" runs this. */
export async function runCheck(deps: TrackerDeps, storeId: number): Promise<CheckOutcome> {
  const { db, now } = deps;
  const store = await db.competitorStore.findUnique({ where: { id: storeId }, select: storeSelect });
  if (!store) return { storeId, result: "skipped", changes: 0, notifications: 0 };
  // Paused or parked: not read (a resume or a follower's "check now" clears the flag before queuing a read).
  if (store.paused || store.parkedAt !== null) return { storeId, result: "skipped", changes: 0, notifications: 0 };
  const followers = await db.competitor.findMany({ where: { storeId }, select: { id: true, userId: true, name: true } });
  if (followers.length === 0 && !store.operatorListed) {
    await retryBusy(() => db.competitorStore.update({ where: { id: storeId }, data: { nextCheckAt: null }, select: { id: true } }));
    return { storeId, result: "skipped", changes: 0, notifications: 0 };
  }
  const memory = await loadMemory(db, storeId, store.lastCheckedAt !== null);
  // The store asked for a pause (a long Retry-After) that has not ended: no request before it, whoever asks.
  if (memory.notBeforeMs !== null && memory.notBeforeMs > now().getTime() + CRAWL_RULES.maxWaitInReadMs) {
    const until = new Date(memory.notBeforeMs);
    await retryBusy(() => db.competitorStore.update({ where: { id: storeId }, data: { nextCheckAt: until }, select: { id: true } }));
    deps.log.info({ storeId, domain: store.domain, until: until.toISOString() }, "competitor store read deferred: the store asked for a pause");
    return { storeId, result: "skipped", changes: 0, notifications: 0, error: `${store.domain} asked us to pause; we will read it ${whenSentence(until)}.` };
  }
  // Should this attempt die half-way, the store is not picked up again before its backoff.
  await retryBusy(() =>
    db.competitorStore.update({
      where: { id: storeId },
      data: { nextCheckAt: new Date(now().getTime() + failureBackoffMs(store.failures + 1, deps.backoff)) },
      select: { id: true },
    }),
  );

  let read: CatalogueRead;
  try {
    read = await deps.storefront.read(store.fetchDomain, memory);
  } catch (error) {
    const sentence = failureSentence(error, store.domain);
    if (sentence === null) throw error;
    return recordFailure(deps, store, sentence, error instanceof StorefrontError ? error : null, followers.length > 0);
  }
  // The service's clock is the one every stored time uses; never before the previous read.
  const nowMs = now().getTime();
  const takenAt = new Date(Math.max(nowMs, store.lastCheckedAt?.getTime() ?? 0)).toISOString();

  const rows = await db.competitorProduct.findMany({ where: { storeId }, select: productSelect });
  const current = rows.filter((r) => r.removedAt === null);
  const lastOk = store.lastCheckedAt
    ? await db.competitorCheck.findFirst({ where: { storeId, ok: true }, orderBy: { takenAt: "desc" }, select: { truncated: true } })
    : null;
  // Every page answered 304: the stored catalogue is this read's (none of it removed, nothing written but times).
  const unchanged = read.snapshot === null && store.lastCheckedAt !== null;
  const snapshot: StoreSnapshot = read.snapshot ?? {
    domain: read.domain,
    takenAt,
    currency: store.currency,
    products: current.map(snapshotProductOf),
    truncated: lastOk?.truncated ?? false,
  };
  const next: StoreSnapshot = { ...snapshot, takenAt };
  let changes: CatalogueChange[] = [];
  if (store.lastCheckedAt) {
    const prev: StoreSnapshot = {
      domain: store.fetchDomain,
      takenAt: store.lastCheckedAt.toISOString(),
      currency: store.currency,
      products: current.map(snapshotProductOf),
      truncated: lastOk?.truncated ?? false,
    };
    changes = diffSnapshots(prev, next);
  }
  const changed = changes.length > 0;
  const kept = { ...memoryColumns(read.memory), ...(unchanged ? { readNote: store.readNote } : {}), ...(changed ? { lastChangedAt: new Date(takenAt) } : {}) };
  await recordRead(deps, store, next, rows, changes, nextReadAt(deps, store, Date.parse(takenAt), followers.length > 0, changed), kept);
  const sent = await handToReaders(deps, { store, followers, changes, takenAt, unchanged });
  deps.log.info({ storeId, domain: store.domain, products: next.products.length, changes: changes.length, notifications: sent, unchanged }, "competitor store read");
  return { storeId, result: "ok", changes: changes.length, notifications: sent };
}

/** Each reader in turn; returns the notifications they sent. */
async function handToReaders(deps: Pick<TrackerDeps, "afterRead" | "log">, read: StoreRead): Promise<number> {
  let sent = 0;
  for (const reader of deps.afterRead) {
    try {
      sent += (await reader.read(read)) ?? 0;
    } catch (error) {
      if (reader.onFailure === "retry") throw error;
      // The read is stored whatever this reader does with it.
      deps.log.warn({ storeId: read.store.id, reader: reader.name, error: error instanceof Error ? error.message : String(error) }, "a reader of the store read failed");
    }
  }
  return sent;
}

/**
 * After a successful read at `atMs`: a followed store in intervalMs; an operator-only (listed or discovered) one at
 * its next slot of the interval its activity earns (domain read-tier: changed this week, more often; dormant a month, less).
 */
function nextReadAt(
  deps: Pick<TrackerDeps, "intervalMs" | "operatorIntervalMs">,
  store: { id: number; createdAt: Date; lastChangedAt: Date | null },
  atMs: number,
  followed: boolean,
  changed: boolean,
): Date {
  if (followed) return new Date(atMs + deps.intervalMs);
  const activity = { lastChangeMs: changed ? atMs : (store.lastChangedAt?.getTime() ?? null), observedSinceMs: store.createdAt.getTime() };
  return new Date(nextSlotMs(store.id, atMs, activityIntervalMs(activity, atMs, deps.operatorIntervalMs)));
}

async function recordFailure(
  deps: TrackerDeps,
  store: { id: number; domain: string; failures: number },
  sentence: string,
  error: StorefrontError | null,
  followed: boolean,
): Promise<CheckOutcome> {
  const { db } = deps;
  const at = deps.now();
  const state = failureState(deps, store, { sentence, error }, at.getTime(), followed);
  // What the read learnt before it failed (robots.txt, the next allowed moment) is kept for the next one.
  const kept: Partial<ReturnType<typeof memoryColumns>> = error?.memory ? memoryColumns(error.memory) : {};
  if (kept.validators !== undefined) delete kept.validators;
  await retryBusy(() =>
    db.$transaction([
      db.competitorStore.update({
        where: { id: store.id },
        data: {
          status: state.status,
          lastError: state.sentence,
          failures: state.failures,
          nextCheckAt: state.nextCheckAt,
          ...(state.parked ? { parkedAt: at } : {}),
          ...kept,
        },
        select: { id: true },
      }),
      db.competitorCheck.create({ data: { storeId: store.id, takenAt: at, ok: false, error: state.sentence }, select: { id: true } }),
    ]),
  );
  deps.log.warn({ storeId: store.id, domain: store.domain, failures: state.failures, parked: state.parked, status: state.status }, `competitor store read failed: ${state.sentence}`);
  return { storeId: store.id, result: "failed", changes: 0, notifications: 0, error: state.sentence };
}

/**
 * Queues a read of every store whose next read is due and that is observed (followed or operator-listed, not
 * paused, not parked); returns how many. Queued under the store's key: two processes queuing at once queue one.
 */
export async function enqueueDue(deps: Pick<TrackerDeps, "db" | "jobs" | "now">): Promise<number> {
  const due = await deps.db.competitorStore.findMany({
    where: { nextCheckAt: { lte: deps.now() }, paused: false, parkedAt: null, OR: [{ followers: { some: {} } }, { operatorListed: true }] },
    orderBy: { nextCheckAt: "asc" },
    take: DUE_BATCH,
    select: { id: true },
  });
  for (const s of due) await enqueueCheck(deps, s.id);
  return due.length;
}

/** Adds the check kinds and their schedule to a job system (by default the one checks are enqueued on). */
export function registerCheckJobs(deps: TrackerDeps, on: Pick<Jobs, "register" | "schedule"> = deps.jobs): void {
  on.register<{ storeId: number }>(
    CHECK_JOB,
    async ({ payload }) => {
      await runCheck(deps, payload.storeId);
    },
    { payloadSchema: zStoreId, concurrency: deps.checkConcurrency ?? 2, timeoutMs: 10 * 60_000, leaseMs: 60_000 },
  );
  on.register(DUE_JOB, async () => {
    await enqueueDue(deps);
  });
  on.schedule(DUE_SCHEDULE.name, DUE_SCHEDULE.pattern, DUE_JOB);
}
