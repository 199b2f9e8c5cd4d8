// The operator's list of observed stores (docs/decisions/047): the stores the measured catalogue reads besides
// every store a user follows. One CompetitorStore row per domain, shared with followers (operatorListed marks the
// operator's). What the operator sees of a store: its domain, HOW MANY users follow it (never who), whether it is
// listed, paused or parked, its last read and its listings.
// - add: a new store is stored without a probe (it may not be a readable Shopify store: its first read says why)
//   and read first at its own slot of the day (domain nextSlotMs), so a long list is spread, not read at once.
// - pause / resume: a paused store is not read for anyone; resume also un-parks and reads it at once.
// - remove: off the operator's list. A store nobody follows is then deleted with its listings (their pictures and
//   catalogue memberships cascade), so the catalogue stops counting a store it no longer observes.
import { isUniqueViolation, retryBusy, type Db } from "~/db.server";
import { nextSlotMs, pictureNote } from "~/domain/competitors/competitors";
import { AppError } from "~/domain/errors";
import { normaliseStoreDomain } from "~/domain/crawl/store-url";
import type { Jobs } from "~/services/jobs.server";
import { enqueueCheck, iso, type CompetitorStatus } from "~/services/crawl/rows.server";

export interface ObservedStoresDeps {
  db: Db;
  jobs: Pick<Jobs, "enqueue">;
  now: () => Date;
  operatorIntervalMs: number;
  /** Called when stores left the catalogue (a removal): it recomputes the products they were part of. */
  onStoreRemoved?: (storeId: number) => Promise<void>;
}

export interface ObservedStore {
  id: number;
  domain: string;
  /** How many users follow it; who they are is never shown. */
  followers: number;
  operatorListed: boolean;
  /** How it came onto the operator's list: typed by the operator, or found by discovery (decision 101). */
  origin: "listed" | "discovered";
  paused: boolean;
  status: CompetitorStatus;
  /** Why the last read failed or why it is parked, as a sentence. */
  lastError: string | null;
  /** What the last successful read left out (past the caps, unreadable or repeated products), as sentences. */
  readNote: string | null;
  /** How many of its listing pictures the catalogue could not use, and the most common reason. */
  pictureNote: string | null;
  parkedAt: string | null;
  lastCheckedAt: string | null;
  nextCheckAt: string | null;
  /** Products in its catalogue at the last read. */
  listings: number;
}

export interface AddStoresResult {
  /** New store rows. */
  added: string[];
  /** Stores users already followed, now on the operator's list too. */
  listed: string[];
  /** Already on the list. */
  already: string[];
}

/** Parses one domain per entry; any entry that is not a store address refuses the whole list (nothing added). */
export function parseDomains(inputs: readonly string[]): string[] {
  const lines = inputs.map((l) => l.trim()).filter((l) => l !== "");
  if (lines.length === 0) throw new AppError(400, "Give at least one store domain, one per line.");
  if (lines.length > 5_000) throw new AppError(400, `Add at most 5,000 stores at once, not ${lines.length}.`);
  const domains: string[] = [];
  const errors: string[] = [];
  lines.forEach((line, i) => {
    const r = normaliseStoreDomain(line);
    if (r.ok) domains.push(r.domain);
    else errors.push(`${lines.length > 1 ? `Line ${i + 1} ("${line.slice(0, 80)}")` : `"${line.slice(0, 80)}"`}: ${r.error}`);
  });
  if (errors.length > 0) {
    const more = errors.length > 5 ? ` And ${errors.length - 5} more.` : "";
    throw new AppError(400, `Nothing was added. ${errors.slice(0, 5).join(" ")}${more}`);
  }
  return [...new Set(domains)];
}

async function findStore(db: Db, domain: string) {
  const select = { id: true, domain: true, operatorListed: true, paused: true, parkedAt: true, nextCheckAt: true } as const;
  return (
    (await db.competitorStore.findUnique({ where: { domain }, select })) ??
    (await db.competitorStore.findFirst({ where: { fetchDomain: domain }, select, orderBy: { id: "asc" } }))
  );
}

async function requireStore(db: Db, input: string) {
  const r = normaliseStoreDomain(input);
  if (!r.ok) throw new AppError(400, r.error);
  const store = await findStore(db, r.domain);
  if (!store) throw new AppError(404, `${r.domain} is not an observed store.`);
  return store;
}

/** Puts stores on the operator's list (domains as typed: URLs, domains, *.myshopify.com addresses). */
export async function addStores(deps: ObservedStoresDeps, inputs: readonly string[]): Promise<AddStoresResult> {
  const { db, now } = deps;
  const result: AddStoresResult = { added: [], listed: [], already: [] };
  for (const domain of parseDomains(inputs)) {
    const existing = await findStore(db, domain);
    if (existing?.operatorListed) {
      result.already.push(existing.domain);
      continue;
    }
    if (existing) {
      // Followed already: it keeps the followers' schedule; a store nobody reads any more gets its slot.
      const next = existing.nextCheckAt ?? new Date(nextSlotMs(existing.id, now().getTime(), deps.operatorIntervalMs));
      await retryBusy(() => db.competitorStore.update({ where: { id: existing.id }, data: { operatorListed: true, nextCheckAt: next }, select: { id: true } }));
      result.listed.push(existing.domain);
      continue;
    }
    try {
      await retryBusy(() =>
        db.$transaction(async (tx) => {
          const created = await tx.competitorStore.create({
            data: { domain, fetchDomain: domain, name: domain, status: "pending", operatorListed: true, createdAt: now() },
            select: { id: true },
          });
          await tx.competitorStore.update({
            where: { id: created.id },
            data: { nextCheckAt: new Date(nextSlotMs(created.id, now().getTime(), deps.operatorIntervalMs)) },
            select: { id: true },
          });
        }),
      );
      result.added.push(domain);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Added by someone else a moment ago: list theirs.
      await retryBusy(() => db.competitorStore.updateMany({ where: { domain }, data: { operatorListed: true } }));
      result.listed.push(domain);
    }
  }
  return result;
}

/** Each store's picture sentence (domain pictureNote), from two grouped queries over every store's listing pictures. */
async function pictureNotes(db: Db): Promise<Map<number, string>> {
  const tried = await db.$queryRawUnsafe<Array<{ storeId: number | bigint; tried: number | bigint; unusable: number | bigint }>>(
    `SELECT cp."storeId" AS "storeId", COUNT(*) AS tried,
            SUM(CASE WHEN lp."status" <> 'ok' AND lp."error" IS NOT NULL THEN 1 ELSE 0 END) AS unusable
     FROM "ListingPicture" lp JOIN "CompetitorProduct" cp ON cp."id" = lp."listingId"
     WHERE cp."removedAt" IS NULL AND (lp."status" = 'ok' OR lp."error" IS NOT NULL)
     GROUP BY cp."storeId"`,
  );
  const reasons = await db.$queryRawUnsafe<Array<{ storeId: number | bigint; error: string; n: number | bigint; first: number | bigint }>>(
    `SELECT cp."storeId" AS "storeId", lp."error" AS error, COUNT(*) AS n, MIN(lp."listingId") AS first
     FROM "ListingPicture" lp JOIN "CompetitorProduct" cp ON cp."id" = lp."listingId"
     WHERE cp."removedAt" IS NULL AND lp."status" <> 'ok' AND lp."error" IS NOT NULL
     GROUP BY cp."storeId", lp."error"`,
  );
  // The most common reason; a tie goes to the reason of the oldest listing.
  const top = new Map<number, { error: string; n: number; first: number }>();
  for (const r of reasons) {
    const storeId = Number(r.storeId);
    const best = top.get(storeId);
    const n = Number(r.n);
    const first = Number(r.first);
    if (!best || n > best.n || (n === best.n && first < best.first)) top.set(storeId, { error: r.error, n, first });
  }
  const out = new Map<number, string>();
  for (const t of tried) {
    const note = pictureNote(Number(t.tried), Number(t.unusable), top.get(Number(t.storeId))?.error ?? null);
    if (note) out.set(Number(t.storeId), note);
  }
  return out;
}

/** Every store the tracker knows, by domain: followers counted, never named. */
export async function listStores(db: Db): Promise<ObservedStore[]> {
  const rows = await db.competitorStore.findMany({
    orderBy: { domain: "asc" },
    select: {
      id: true,
      domain: true,
      operatorListed: true,
      origin: true,
      paused: true,
      parkedAt: true,
      status: true,
      lastError: true,
      readNote: true,
      lastCheckedAt: true,
      nextCheckAt: true,
      _count: { select: { followers: true, products: { where: { removedAt: null } } } },
    },
  });
  const pictures = await pictureNotes(db);
  return rows.map((r) => ({
    id: r.id,
    domain: r.domain,
    followers: r._count.followers,
    operatorListed: r.operatorListed,
    origin: r.origin === "discovered" ? "discovered" : "listed",
    paused: r.paused,
    status: r.status as CompetitorStatus,
    lastError: r.lastError,
    readNote: r.readNote,
    pictureNote: pictures.get(r.id) ?? null,
    parkedAt: iso(r.parkedAt),
    lastCheckedAt: iso(r.lastCheckedAt),
    nextCheckAt: iso(r.nextCheckAt),
    listings: r._count.products,
  }));
}

/** Stops reading a store for everyone until resumed; followers keep its last read. */
export async function pauseStore(deps: Pick<ObservedStoresDeps, "db">, input: string): Promise<{ domain: string; paused: true }> {
  const store = await requireStore(deps.db, input);
  await retryBusy(() => deps.db.competitorStore.update({ where: { id: store.id }, data: { paused: true }, select: { id: true } }));
  return { domain: store.domain, paused: true };
}

/** Reads a paused or parked store again, at once. */
export async function resumeStore(deps: ObservedStoresDeps, input: string): Promise<{ domain: string; paused: false }> {
  const { db } = deps;
  const store = await requireStore(db, input);
  await retryBusy(() =>
    db.competitorStore.update({ where: { id: store.id }, data: { paused: false, parkedAt: null, nextCheckAt: deps.now() }, select: { id: true } }),
  );
  // A store nobody follows and nobody lists is not read: resuming it changes nothing until it is listed again.
  const followed = (await db.competitor.count({ where: { storeId: store.id } })) > 0;
  if (followed || store.operatorListed) await enqueueCheck(deps, store.id);
  return { domain: store.domain, paused: false };
}

/**
 * Takes a store off the operator's list. A store someone follows stays (read on the followers' schedule); one
 * nobody follows is deleted with its history and listings, so the catalogue no longer counts it.
 */
export async function removeStore(deps: ObservedStoresDeps, input: string): Promise<{ domain: string; deleted: boolean }> {
  const { db } = deps;
  const store = await requireStore(db, input);
  await retryBusy(() => db.competitorStore.update({ where: { id: store.id }, data: { operatorListed: false }, select: { id: true } }));
  // One statement: a follow that arrives meanwhile keeps the store.
  const deleted = await retryBusy(() =>
    db.$executeRawUnsafe(
      `DELETE FROM "CompetitorStore" WHERE "id" = ? AND "operatorListed" = FALSE AND NOT EXISTS (SELECT 1 FROM "Competitor" WHERE "storeId" = ?)`,
      store.id,
      store.id,
    ),
  );
  if (deleted === 1 && deps.onStoreRemoved) await deps.onStoreRemoved(store.id);
  return { domain: store.domain, deleted: deleted === 1 };
}
