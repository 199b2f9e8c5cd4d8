// Competitor tracking (docs/decisions/023, 024): sellers follow rival Shopify stores. This service owns the
// CompetitorStore rows (ONE per domain, shared by every follower, read by one job at a time), the per-user
// follows and product follows, the current catalogue, the measured changes and the reads behind the size
// chart, and the two alerts (launches, price drops on followed products) it writes to the notification list.
// - Reading a store is the job "competitor.check" keyed competitor.check:{storeId}, so a store is never read
//   twice at once however many users follow it or press "check now". A scheduled job enqueues the stores
//   whose nextCheckAt is due; adding a store enqueues its first read at once.
// - A failed read is recorded with its sentence (lastError) and the store backs off (domain failureBackoffMs).
// - What changed is the pure diff of app/domain/competitor-insights.ts between the stored current catalogue
//   and the new read; the estimate is estimateWeeklyOrders over the stored changes.
// Expected refusals are AppErrors; nothing here knows HTTP.
import { createHash } from "node:crypto";
import type { Prisma } from "@prisma/client";
import { z } from "zod";
import { dateFromDb, isUniqueViolation, parseStringList, retryBusy, type Db } from "~/db.server";
import { primarySubscription, type PaidStateInput } from "~/domain/billing";
import {
  catalogueSeries,
  describeChange,
  diffSnapshots,
  estimateWeeklyOrders,
  ESTIMATE_METHOD,
  isEstimate,
  launchesIn,
  priceDropsFor,
  type CatalogueChange,
  type CataloguePoint,
  type ChangeKind,
  type PriceChange,
} from "~/domain/competitor-insights";
import {
  capSentence,
  COMPETITOR_RULES,
  competitorAccess,
  failureBackoffMs,
  launchAlert,
  priceDropAlert,
  retryAfterSeconds,
  type CompetitorAccess,
} from "~/domain/competitors";
import { AppError } from "~/domain/errors";
import { nicheSlug, type TrackedStoreProductInput } from "~/domain/product-import";
import type { ProductSnapshot, StoreSnapshot, VariantSnapshot } from "~/domain/store-snapshot";
import { normaliseStoreDomain } from "~/domain/store-url";
import { SafeFetchError } from "~/integrations/safe-fetch.server";
import { StorefrontError, type ShopifyStorefront } from "~/integrations/shopify-storefront.server";
import type { Jobs } from "~/services/jobs.server";
import type { NotificationInput, Notifications } from "~/services/notifications.server";
import { importProducts } from "~/services/product-import.server";
import { childLogger } from "~/logger.server";

export const CHECK_JOB = "competitor.check";
export const DUE_JOB = "competitor.check-due";
/** Every 10 minutes, the stores whose next read is due are queued. */
export const DUE_SCHEDULE = { name: "competitor-checks", pattern: "*/10 * * * *" } as const;
export const checkJobKey = (storeId: number) => `competitor.check:${storeId}`;

const zStoreId = z.object({ storeId: z.number().int().positive() });

const PRODUCTS_SHOWN = 500;
const CHANGES_SHOWN = 200;
const LAUNCHES_SHOWN = 50;
const SERIES_POINTS = 500;
const DUE_BATCH = 500;

// ---------------------------------------------------------------------------------------------------------
// Read models (what the JSON API and the pages show)

export type CompetitorStatus = "pending" | "ok" | "failing";

export interface CompetitorSummary {
  /** The follow's id (per user). */
  id: number;
  domain: string;
  /** The user's name for the store (the domain until renamed). */
  name: string;
  status: CompetitorStatus;
  lastCheckedAt: string | null;
  nextCheckAt: string | null;
  /** Why the last read failed, as a sentence; null when it worked. */
  lastError: string | null;
  currency: string | null;
  /** Products in the public catalogue at the last read. */
  productCount: number;
  followedAt: string;
}

export interface ProductSignals {
  kind: "measured";
  /** Over the last COMPETITOR_RULES.estimateWindowDays days of reads. */
  sellOuts: number;
  restocks: number;
  priceDrops: number;
  priceRises: number;
  /** Launched while we watched (a "launch" change), with its date when the store published one. */
  launched: boolean;
  launchedAt: string | null;
  lastChangeAt: string | null;
}

export interface CompetitorProductView {
  productId: string;
  handle: string;
  title: string;
  productType: string;
  vendor: string;
  tags: string[];
  images: string[];
  variants: VariantSnapshot[];
  priceMinCents: number | null;
  priceMaxCents: number | null;
  currency: string | null;
  available: boolean | null;
  createdAt: string | null;
  publishedAt: string | null;
  firstSeenAt: string;
  lastSeenAt: string;
  /** The product's page on the rival store. */
  url: string;
  /** The user follows this product (price-drop alerts). */
  followed: boolean;
  signals: ProductSignals;
}

export interface ChangeView {
  id: number;
  kind: "measured";
  /** What changed: launch, removal, price-change, compare-at-change, sold-out, restock, variant-added/removed. */
  type: ChangeKind;
  /** The read that saw it. */
  at: string;
  productId: string;
  handle: string;
  title: string;
  /** The change as a sentence. */
  sentence: string;
  detail: CatalogueChange;
}

export interface EstimateView {
  kind: "estimated";
  low: number;
  high: number;
  unit: "orders/week";
  confidence: "low" | "medium";
  evidence: string[];
  method: string;
}

export interface CompetitorDetail extends CompetitorSummary {
  fetchDomain: string;
  products: CompetitorProductView[];
  launches: ChangeView[];
  changes: ChangeView[];
  series: CataloguePoint[];
  estimate: EstimateView | null;
  /** Why there is no estimate ("not enough evidence: ..."), null when there is one. */
  estimateReason: string | null;
}

export interface CheckOutcome {
  storeId: number;
  result: "ok" | "failed" | "skipped";
  changes: number;
  notifications: number;
  error?: string;
}

/** The user fields competitor tracking needs: who, and the paid state. */
export type CompetitorUser = PaidStateInput & { id: string };

export interface CompetitorsLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface CompetitorsDeps {
  db: Db;
  storefront: Pick<ShopifyStorefront, "probe" | "snapshot">;
  jobs: Pick<Jobs, "enqueue" | "register" | "schedule">;
  notifications: Pick<Notifications, "notify">;
  now?: () => Date;
  /** Time between two reads of a store (default 6 hours). */
  checkIntervalMs?: number;
  /** Backoff after failed reads: first wait and cap. */
  backoff?: { baseMs?: number; maxMs?: number };
  /** "Check now" limits. */
  checkNow?: { perStoreMs?: number; perHour?: number };
  /** Called after a rival's product was added to the product database (saved-search alerts, decision 030). */
  onProductsAdded?: () => Promise<void>;
  /** The site path a notification opens for a follow; default /dashboard/competitors/{id}. */
  competitorPath?: (competitorId: number) => string;
  log?: CompetitorsLog;
}

export type Competitors = ReturnType<typeof createCompetitors>;

// ---------------------------------------------------------------------------------------------------------

const storeSelect = {
  id: true,
  domain: true,
  fetchDomain: true,
  name: true,
  currency: true,
  status: true,
  lastCheckedAt: true,
  nextCheckAt: true,
  lastError: true,
  failures: true,
} as const;

const followSelect = {
  id: true,
  name: true,
  createdAt: true,
  storeId: true,
  store: { select: { ...storeSelect, _count: { select: { products: { where: { removedAt: null } } } } } },
} as const;
type FollowRow = Prisma.CompetitorGetPayload<{ select: typeof followSelect }>;

const productSelect = {
  productId: true,
  handle: true,
  title: true,
  productType: true,
  vendor: true,
  tags: true,
  images: true,
  variants: true,
  priceMinCents: true,
  priceMaxCents: true,
  available: true,
  createdAt: true,
  publishedAt: true,
  firstSeenAt: true,
  lastSeenAt: true,
  removedAt: true,
} as const;
type ProductRow = Prisma.CompetitorProductGetPayload<{ select: typeof productSelect }>;

const changeSelect = { id: true, at: true, kind: true, productId: true, handle: true, title: true, detail: true } as const;
type ChangeRow = Prisma.CompetitorChangeGetPayload<{ select: typeof changeSelect }>;

/** DateTime as Prisma's SQLite adapter writes it, for raw statements (text order = time order). */
const toDbTime = (date: Date) => date.toISOString().replace("Z", "+00:00");
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const isoOrNull = (text: string | null): Date | null => {
  if (!text) return null;
  const t = Date.parse(text);
  return Number.isFinite(t) ? new Date(t) : null;
};

function parseVariants(text: string): VariantSnapshot[] {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? (v as VariantSnapshot[]) : [];
  } catch {
    return [];
  }
}

function parseChange(text: string): CatalogueChange | null {
  try {
    const v = JSON.parse(text) as CatalogueChange;
    return v && typeof v === "object" && typeof v.kind === "string" ? v : null;
  } catch {
    return null;
  }
}

function summaryOf(f: FollowRow): CompetitorSummary {
  return {
    id: f.id,
    domain: f.store.domain,
    name: f.name,
    status: f.store.status as CompetitorStatus,
    lastCheckedAt: iso(f.store.lastCheckedAt),
    nextCheckAt: iso(f.store.nextCheckAt),
    lastError: f.store.lastError,
    currency: f.store.currency,
    productCount: f.store._count.products,
    followedAt: f.createdAt.toISOString(),
  };
}

function priceRange(variants: readonly VariantSnapshot[]): { min: number | null; max: number | null } {
  if (variants.length === 0) return { min: null, max: null };
  const prices = variants.map((v) => v.priceCents);
  return { min: Math.min(...prices), max: Math.max(...prices) };
}

function availabilityOf(variants: readonly VariantSnapshot[]): boolean | null {
  if (variants.some((v) => v.available === true)) return true;
  if (variants.length > 0 && variants.every((v) => v.available === false)) return false;
  return null;
}

/** What a product row holds of a snapshot product (fingerprinted to skip unchanged rows). */
function productFields(p: ProductSnapshot) {
  const range = priceRange(p.variants);
  return {
    handle: p.handle.slice(0, 300),
    title: p.title.slice(0, 500),
    productType: p.productType.slice(0, 200),
    vendor: p.vendor.slice(0, 200),
    tags: JSON.stringify(p.tags.slice(0, 100)),
    images: JSON.stringify(p.images.slice(0, 20)),
    variants: JSON.stringify(p.variants.slice(0, 250)),
    priceMinCents: range.min,
    priceMaxCents: range.max,
    available: availabilityOf(p.variants),
    createdAt: isoOrNull(p.createdAt),
    publishedAt: isoOrNull(p.publishedAt),
  };
}
type ProductFields = ReturnType<typeof productFields>;

const fingerprint = (f: ProductFields) =>
  JSON.stringify([f.handle, f.title, f.productType, f.vendor, f.tags, f.images, f.variants, iso(f.createdAt), iso(f.publishedAt)]);

function snapshotProductOf(row: ProductRow): ProductSnapshot {
  return {
    id: row.productId,
    handle: row.handle,
    title: row.title,
    productType: row.productType,
    vendor: row.vendor,
    tags: parseStringList(row.tags),
    createdAt: iso(row.createdAt),
    publishedAt: iso(row.publishedAt),
    updatedAt: null,
    images: parseStringList(row.images),
    variants: parseVariants(row.variants),
  };
}

/** A sentence for a failed read: the storefront's own, or the fetcher's. */
function failureSentence(error: unknown, domain: string): string | null {
  if (error instanceof StorefrontError) return error.message;
  if (error instanceof SafeFetchError) return `We could not read ${domain}: ${error.message}`;
  return null;
}

export function createCompetitors(deps: CompetitorsDeps) {
  const { db, storefront, jobs, notifications } = deps;
  const now = deps.now ?? (() => new Date());
  const intervalMs = deps.checkIntervalMs ?? COMPETITOR_RULES.checkIntervalMs;
  const perStoreMs = deps.checkNow?.perStoreMs ?? COMPETITOR_RULES.checkNowPerStoreMs;
  const perHour = deps.checkNow?.perHour ?? COMPETITOR_RULES.checkNowPerHour;
  const pathOf = deps.competitorPath ?? ((id: number) => `/dashboard/competitors/${id}`);
  const log: CompetitorsLog = deps.log ?? childLogger("competitors");

  // ---------- access ----------

  async function accessFor(user: CompetitorUser): Promise<CompetitorAccess> {
    const subs = await db.billingSubscription.findMany({
      where: { userId: user.id },
      select: { id: true, status: true, planId: true, customerId: true, scheduledChange: true, currentPeriodStart: true, lastEventAt: true, lastEventAtExact: true },
    });
    return competitorAccess(user, primarySubscription(subs)?.planId);
  }

  async function requirePaid(user: CompetitorUser): Promise<CompetitorAccess> {
    const access = await accessFor(user);
    if (!access.follow) throw new AppError(403, access.lockedReason!, { upgradeUrl: access.upgradeUrl });
    return access;
  }

  async function ownFollow(userId: string, id: number): Promise<FollowRow> {
    const follow = await db.competitor.findFirst({ where: { id, userId }, select: followSelect });
    if (!follow) throw new AppError(404, "You do not follow that store.");
    return follow;
  }

  // ---------- following ----------

  async function findStore(domain: string) {
    return (
      (await db.competitorStore.findUnique({ where: { domain }, select: storeSelect })) ??
      (await db.competitorStore.findFirst({ where: { fetchDomain: domain }, select: storeSelect, orderBy: { id: "asc" } }))
    );
  }

  async function enqueueCheck(storeId: number) {
    return jobs.enqueue(CHECK_JOB, { storeId }, { key: checkJobKey(storeId), runAt: now() });
  }

  /**
   * Follows the store at the address the user typed (a URL, a domain or its *.myshopify.com address). A store
   * someone already follows is shared; a new one is confirmed as a readable Shopify store first.
   */
  async function add(user: CompetitorUser, input: string): Promise<CompetitorSummary> {
    const normalised = normaliseStoreDomain(input);
    if (!normalised.ok) throw new AppError(400, normalised.error);
    const domain = normalised.domain;
    const access = await requirePaid(user);

    let store = await findStore(domain);
    const refuseDuplicate = async (storeId: number) => {
      const existing = await db.competitor.findUnique({ where: { userId_storeId: { userId: user.id, storeId } }, select: { id: true } });
      if (existing) throw new AppError(409, `You already follow ${domain}.`, { id: existing.id });
    };
    const refuseOverCap = async () => {
      const following = await db.competitor.count({ where: { userId: user.id } });
      if (following >= access.limit) {
        throw new AppError(402, capSentence(access, following), { upsell: true, upgradeUrl: access.upgradeUrl, limit: access.limit, following });
      }
    };
    if (store) await refuseDuplicate(store.id);
    await refuseOverCap();

    if (!store) {
      const probe = await storefront.probe(domain);
      if (!probe.ok) throw new AppError(422, probe.message, { reason: probe.reason });
      store = await findStore(probe.domain);
      if (store) {
        await refuseDuplicate(store.id);
      } else {
        try {
          store = await retryBusy(() =>
            db.competitorStore.create({
              data: { domain, fetchDomain: probe.domain, name: domain, status: "pending", nextCheckAt: now() },
              select: storeSelect,
            }),
          );
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          // Someone else added this domain a moment ago: share their row.
          store = (await findStore(domain))!;
          await refuseDuplicate(store.id);
        }
      }
    }

    // One statement: the cap holds even when two adds of this user race.
    const at = now();
    const inserted = await retryBusy(() =>
      db.$executeRawUnsafe(
        `INSERT INTO "Competitor" ("userId", "storeId", "name", "createdAt")
         SELECT ?, ?, ?, ? WHERE (SELECT count(*) FROM "Competitor" WHERE "userId" = ?) < ?
         ON CONFLICT ("userId", "storeId") DO NOTHING`,
        user.id,
        store.id,
        domain,
        toDbTime(at),
        user.id,
        access.limit,
      ),
    );
    if (inserted !== 1) {
      await refuseDuplicate(store.id);
      await refuseOverCap();
      throw new AppError(409, `You already follow ${domain}.`);
    }

    // A store nobody followed any more (or never read) is read again at once.
    if (store.nextCheckAt === null || store.lastCheckedAt === null) {
      await retryBusy(() =>
        db.competitorStore.updateMany({ where: { id: store.id, nextCheckAt: null }, data: { nextCheckAt: at } }),
      );
      await enqueueCheck(store.id);
    }
    const follow = await db.competitor.findUniqueOrThrow({ where: { userId_storeId: { userId: user.id, storeId: store.id } }, select: followSelect });
    return summaryOf(follow);
  }

  async function list(userId: string): Promise<{ items: CompetitorSummary[] }> {
    const rows = await db.competitor.findMany({ where: { userId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], select: followSelect });
    return { items: rows.map(summaryOf) };
  }

  async function rename(userId: string, id: number, name: string): Promise<CompetitorSummary> {
    const follow = await ownFollow(userId, id);
    const clean = name.trim().replace(/\s+/g, " ");
    if (clean === "" || clean.length > COMPETITOR_RULES.nameMaxLength) {
      throw new AppError(400, `A store's name is 1 to ${COMPETITOR_RULES.nameMaxLength} characters.`);
    }
    await retryBusy(() => db.competitor.update({ where: { id: follow.id }, data: { name: clean }, select: { id: true } }));
    return { ...summaryOf(follow), name: clean };
  }

  /** Stops following; a store nobody follows any more is no longer read (its history is kept). */
  async function remove(userId: string, id: number): Promise<{ deleted: true }> {
    const follow = await ownFollow(userId, id);
    await retryBusy(() => db.competitor.deleteMany({ where: { id: follow.id, userId } }));
    await retryBusy(() =>
      db.$executeRawUnsafe(
        `UPDATE "CompetitorStore" SET "nextCheckAt" = NULL
         WHERE "id" = ? AND NOT EXISTS (SELECT 1 FROM "Competitor" WHERE "storeId" = ?)`,
        follow.storeId,
        follow.storeId,
      ),
    );
    return { deleted: true };
  }

  /**
   * Queues a read of the store now. Limits per user: one per store per 10 minutes and a few an hour
   * (AppError 429 with retryAfterSeconds). A read already queued or running is not queued twice.
   */
  async function checkNow(user: CompetitorUser, id: number): Promise<{ queued: true; jobId: number; storeId: number }> {
    const follow = await ownFollow(user.id, id);
    await requirePaid(user);
    const at = now();
    const storeSince = new Date(at.getTime() - perStoreMs);
    const hourSince = new Date(at.getTime() - COMPETITOR_RULES.checkNowWindowMs);
    // One statement decides and records, so two presses at once cannot both pass.
    const inserted = await retryBusy(() =>
      db.$executeRawUnsafe(
        `INSERT INTO "CompetitorCheckRequest" ("userId", "storeId", "at")
         SELECT ?, ?, ?
         WHERE NOT EXISTS (SELECT 1 FROM "CompetitorCheckRequest" WHERE "userId" = ? AND "storeId" = ? AND "at" > ?)
           AND (SELECT count(*) FROM "CompetitorCheckRequest" WHERE "userId" = ? AND "at" > ?) < ?`,
        user.id,
        follow.storeId,
        toDbTime(at),
        user.id,
        follow.storeId,
        toDbTime(storeSince),
        user.id,
        toDbTime(hourSince),
        perHour,
      ),
    );
    if (inserted !== 1) {
      const recent = await db.competitorCheckRequest.findFirst({
        where: { userId: user.id, storeId: follow.storeId, at: { gt: storeSince } },
        orderBy: { at: "asc" },
        select: { at: true },
      });
      if (recent) {
        const wait = retryAfterSeconds(recent.at.getTime(), perStoreMs, at.getTime());
        throw new AppError(429, `${follow.name} was checked at your request a moment ago. You can check it again in ${Math.ceil(wait / 60)} minutes.`, {
          retryAfterSeconds: wait,
        });
      }
      const oldest = await db.competitorCheckRequest.findFirst({
        where: { userId: user.id, at: { gt: hourSince } },
        orderBy: { at: "asc" },
        select: { at: true },
      });
      const wait = retryAfterSeconds(oldest?.at.getTime() ?? at.getTime(), COMPETITOR_RULES.checkNowWindowMs, at.getTime());
      throw new AppError(429, `You can ask for ${perHour} checks an hour. Try again in ${Math.ceil(wait / 60)} minutes.`, {
        retryAfterSeconds: wait,
      });
    }
    const job = await enqueueCheck(follow.storeId);
    return { queued: true, jobId: job.id, storeId: follow.storeId };
  }

  // ---------- product follows and import ----------

  async function requireProduct(storeId: number, productId: string) {
    const product = await db.competitorProduct.findUnique({ where: { storeId_productId: { storeId, productId } }, select: productSelect });
    if (!product) throw new AppError(404, "That product is not in this store's catalogue.");
    return product;
  }

  async function followProduct(user: CompetitorUser, id: number, productId: string): Promise<{ productId: string; followed: true }> {
    const follow = await ownFollow(user.id, id);
    await requirePaid(user);
    await requireProduct(follow.storeId, productId);
    try {
      await retryBusy(() =>
        db.competitorProductFollow.create({
          data: { userId: user.id, competitorId: follow.id, storeId: follow.storeId, productId, createdAt: now() },
          select: { id: true },
        }),
      );
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    return { productId, followed: true };
  }

  async function unfollowProduct(userId: string, id: number, productId: string): Promise<{ productId: string; followed: false }> {
    const follow = await ownFollow(userId, id);
    await retryBusy(() => db.competitorProductFollow.deleteMany({ where: { competitorId: follow.id, productId, userId } }));
    return { productId, followed: false };
  }

  /**
   * Adds a competitor's product to our product database through the product import (its real title,
   * price and images). Its supplier cost is unknown (null: pages say "Add your cost") and we have no sales
   * data for it (no history: pages say "No sales data: imported from a tracked store on …"), so no
   * margin, orders, stage or score is made up for it (docs/decisions/026). Importing it again updates it
   * and keeps the day it was first added.
   */
  async function importProduct(user: CompetitorUser, id: number, productId: string): Promise<{ objectID: string }> {
    const follow = await ownFollow(user.id, id);
    await requirePaid(user);
    const product = await requireProduct(follow.storeId, productId);
    const domain = follow.store.domain;
    const idPart = `competitor:${domain}:${productId}`;
    const objectID = idPart.length <= 100 ? idPart : `competitor:${createHash("sha256").update(domain).digest("hex").slice(0, 16)}:${productId}`;
    const at = now();
    const price = product.priceMinCents ?? 0;
    if (price < 1) throw new AppError(422, `"${product.title}" has no price in the store's catalogue, so it cannot be added.`);
    const url = `https://${domain}/products/${encodeURIComponent(product.handle)}`;
    const niche = nicheSlug(product.productType) || "general";
    const currencyNote = follow.store.currency && follow.store.currency !== "USD" ? ` Price as listed, in ${follow.store.currency}.` : "";
    const row = {
      objectID,
      title: product.title,
      description: `Seen on ${domain}: ${url}.${currencyNote}`,
      niches: [niche],
      tags: parseStringList(product.tags).slice(0, 50),
      images: parseStringList(product.images).filter((u) => /^https?:\/\//i.test(u)).slice(0, 20),
      supplierName: null,
      supplierUrl: null,
      costCents: null,
      priceCents: price,
      firstSeenAt: (product.publishedAt ?? product.firstSeenAt).toISOString(),
      lastUpdatedAt: at.toISOString(),
      source: { kind: "tracked-store", store: domain, addedAt: at.toISOString() },
    } satisfies TrackedStoreProductInput;
    const summary = await importProducts(db, [{ line: 1, row }], { now: at });
    if (summary.rejected.length > 0) {
      throw new AppError(422, `"${product.title}" could not be added to the product database: ${summary.rejected[0].reason}.`);
    }
    if (summary.imported > 0) await deps.onProductsAdded?.();
    return { objectID };
  }

  // ---------- the detail ----------

  /** The reads and changes the estimate rests on: the last estimateWindowDays days of successful reads. */
  async function estimateWindow(storeId: number) {
    const lastOk = await db.competitorCheck.findFirst({ where: { storeId, ok: true }, orderBy: { takenAt: "desc" }, select: { takenAt: true } });
    const windowStart = lastOk ? new Date(lastOk.takenAt.getTime() - COMPETITOR_RULES.estimateWindowDays * 86_400_000) : null;
    const firstInWindow = windowStart
      ? await db.competitorCheck.findFirst({ where: { storeId, ok: true, takenAt: { gte: windowStart } }, orderBy: { takenAt: "asc" }, select: { takenAt: true } })
      : null;
    const changes = firstInWindow
      ? await db.competitorChange.findMany({ where: { storeId, at: { gt: firstInWindow.takenAt } }, orderBy: { id: "asc" }, select: changeSelect })
      : [];
    return { lastOk, firstInWindow, changes };
  }

  type EstimateWindow = Awaited<ReturnType<typeof estimateWindow>>;

  /**
   * estimateWindow for many stores in three queries whatever their number (the list page shows every
   * followed store's estimate): each store's last successful read, its first read in the window before
   * that, and the changes after it. Same windows as estimateWindow, store by store.
   */
  async function estimateWindows(storeIds: number[]): Promise<Map<number, EstimateWindow>> {
    const windows = new Map<number, EstimateWindow>(storeIds.map((id) => [id, { lastOk: null, firstInWindow: null, changes: [] }]));
    if (storeIds.length === 0) return windows;
    const asDate = (v: Date | string | null): Date | null => (v === null ? null : v instanceof Date ? v : dateFromDb(v));
    const last = await db.competitorCheck.groupBy({ by: ["storeId"], where: { storeId: { in: storeIds }, ok: true }, _max: { takenAt: true } });
    const inWindow: Prisma.CompetitorCheckWhereInput[] = [];
    for (const row of last) {
      const takenAt = asDate(row._max.takenAt);
      if (!takenAt) continue;
      windows.get(row.storeId)!.lastOk = { takenAt };
      inWindow.push({ storeId: row.storeId, takenAt: { gte: new Date(takenAt.getTime() - COMPETITOR_RULES.estimateWindowDays * 86_400_000) } });
    }
    if (inWindow.length === 0) return windows;
    const first = await db.competitorCheck.groupBy({ by: ["storeId"], where: { ok: true, OR: inWindow }, _min: { takenAt: true } });
    const changesAfter: Prisma.CompetitorChangeWhereInput[] = [];
    for (const row of first) {
      const takenAt = asDate(row._min.takenAt);
      if (!takenAt) continue;
      windows.get(row.storeId)!.firstInWindow = { takenAt };
      changesAfter.push({ storeId: row.storeId, at: { gt: takenAt } });
    }
    if (changesAfter.length === 0) return windows;
    const changes = await db.competitorChange.findMany({ where: { OR: changesAfter }, orderBy: { id: "asc" }, select: { ...changeSelect, storeId: true } });
    for (const { storeId, ...row } of changes) windows.get(storeId)!.changes.push(row);
    return windows;
  }

  function estimateOf(window: EstimateWindow, parsed: CatalogueChange[]) {
    if (!window.lastOk || !window.firstInWindow) {
      return { estimate: null, estimateReason: "not enough evidence: the store has not been read yet." };
    }
    const result = estimateWeeklyOrders({
      from: window.firstInWindow.takenAt.toISOString(),
      to: window.lastOk.takenAt.toISOString(),
      changes: parsed,
    });
    if (!isEstimate(result)) return { estimate: null, estimateReason: result.reason };
    const estimate: EstimateView = {
      kind: "estimated",
      low: result.low,
      high: result.high,
      unit: result.unit,
      confidence: result.confidence,
      evidence: result.evidence,
      method: ESTIMATE_METHOD,
    };
    return { estimate, estimateReason: null };
  }

  /** Each followed store's estimate (the list page), without reading the stores' products. */
  async function estimates(userId: string): Promise<Array<{ id: number; estimate: EstimateView | null; estimateReason: string | null }>> {
    const follows = await db.competitor.findMany({ where: { userId }, select: { id: true, storeId: true } });
    const windows = await estimateWindows(follows.map((f) => f.storeId));
    return follows.map((f) => {
      const window = windows.get(f.storeId)!;
      const parsed = window.changes.map((row) => parseChange(row.detail)).filter((c): c is CatalogueChange => c !== null);
      return { id: f.id, ...estimateOf(window, parsed) };
    });
  }

  async function get(userId: string, id: number): Promise<CompetitorDetail> {
    const follow = await ownFollow(userId, id);
    const storeId = follow.storeId;
    const window = await estimateWindow(storeId);
    const windowChanges = window.changes;

    const [products, followed, recentChanges, launchRows, checks] = await Promise.all([
      db.competitorProduct.findMany({
        where: { storeId, removedAt: null },
        orderBy: [{ publishedAt: { sort: "desc", nulls: "last" } }, { firstSeenAt: "desc" }, { id: "desc" }],
        take: PRODUCTS_SHOWN,
        select: productSelect,
      }),
      db.competitorProductFollow.findMany({ where: { competitorId: follow.id }, select: { productId: true } }),
      db.competitorChange.findMany({ where: { storeId }, orderBy: [{ at: "desc" }, { id: "desc" }], take: CHANGES_SHOWN, select: changeSelect }),
      db.competitorChange.findMany({ where: { storeId, kind: "launch" }, orderBy: [{ at: "desc" }, { id: "desc" }], take: LAUNCHES_SHOWN, select: changeSelect }),
      db.competitorCheck.findMany({
        where: { storeId, ok: true },
        orderBy: { takenAt: "desc" },
        take: SERIES_POINTS,
        select: { takenAt: true, products: true, variants: true, inStock: true, outOfStock: true, truncated: true },
      }),
    ]);

    const changeView = (row: ChangeRow): ChangeView | null => {
      const detail = parseChange(row.detail);
      if (!detail) return null;
      return {
        id: row.id,
        kind: "measured",
        type: row.kind as ChangeKind,
        at: row.at.toISOString(),
        productId: row.productId,
        handle: row.handle,
        title: row.title,
        sentence: describeChange(detail),
        detail,
      };
    };
    const views = (rows: ChangeRow[]) => rows.map(changeView).filter((c): c is ChangeView => c !== null);

    // Per-product signals over the estimate's window.
    const signals = new Map<string, ProductSignals>();
    const signalOf = (productId: string) => {
      let s = signals.get(productId);
      if (!s) {
        s = { kind: "measured", sellOuts: 0, restocks: 0, priceDrops: 0, priceRises: 0, launched: false, launchedAt: null, lastChangeAt: null };
        signals.set(productId, s);
      }
      return s;
    };
    const windowParsed: CatalogueChange[] = [];
    for (const row of windowChanges) {
      const change = parseChange(row.detail);
      if (!change) continue;
      windowParsed.push(change);
      const s = signalOf(row.productId);
      s.lastChangeAt = row.at.toISOString();
      if (change.kind === "sold-out") s.sellOuts++;
      else if (change.kind === "restock") s.restocks++;
      else if (change.kind === "price-change" && change.direction === "down") s.priceDrops++;
      else if (change.kind === "price-change") s.priceRises++;
      else if (change.kind === "launch") {
        s.launched = true;
        s.launchedAt = change.launchedAt;
      }
    }

    const { estimate, estimateReason } = estimateOf(window, windowParsed);

    const followedIds = new Set(followed.map((f) => f.productId));
    const currency = follow.store.currency;
    const productDomain = follow.store.domain;
    return {
      ...summaryOf(follow),
      fetchDomain: follow.store.fetchDomain,
      products: products.map((p) => ({
        productId: p.productId,
        handle: p.handle,
        title: p.title,
        productType: p.productType,
        vendor: p.vendor,
        tags: parseStringList(p.tags),
        images: parseStringList(p.images),
        variants: parseVariants(p.variants),
        priceMinCents: p.priceMinCents,
        priceMaxCents: p.priceMaxCents,
        currency,
        available: p.available,
        createdAt: iso(p.createdAt),
        publishedAt: iso(p.publishedAt),
        firstSeenAt: p.firstSeenAt.toISOString(),
        lastSeenAt: p.lastSeenAt.toISOString(),
        url: `https://${productDomain}/products/${encodeURIComponent(p.handle)}`,
        followed: followedIds.has(p.productId),
        signals: signals.get(p.productId) ?? signalOf(p.productId),
      })),
      launches: views(launchRows),
      changes: views(recentChanges),
      series: checks.reverse().map((c) => ({
        kind: "measured" as const,
        takenAt: c.takenAt.toISOString(),
        products: c.products,
        variants: c.variants,
        inStockVariants: c.inStock,
        outOfStockVariants: c.outOfStock,
        unknownStockVariants: Math.max(0, c.variants - c.inStock - c.outOfStock),
        truncated: c.truncated,
      })),
      estimate,
      estimateReason,
    };
  }

  // ---------- the tracker ----------

  /** Reads one store, records what changed, and alerts its followers. The job "competitor.check" runs this. */
  async function runCheck(storeId: number): Promise<CheckOutcome> {
    const store = await db.competitorStore.findUnique({ where: { id: storeId }, select: storeSelect });
    if (!store) return { storeId, result: "skipped", changes: 0, notifications: 0 };
    const followers = await db.competitor.findMany({ where: { storeId }, select: { id: true, userId: true, name: true } });
    if (followers.length === 0) {
      await retryBusy(() => db.competitorStore.update({ where: { id: storeId }, data: { nextCheckAt: null }, select: { id: true } }));
      return { storeId, result: "skipped", changes: 0, notifications: 0 };
    }
    // Should this attempt die half-way, the store is not picked up again before its backoff.
    await retryBusy(() =>
      db.competitorStore.update({
        where: { id: storeId },
        data: { nextCheckAt: new Date(now().getTime() + failureBackoffMs(store.failures + 1, deps.backoff)) },
        select: { id: true },
      }),
    );

    let snapshot: StoreSnapshot;
    try {
      snapshot = await storefront.snapshot(store.fetchDomain);
    } catch (error) {
      const sentence = failureSentence(error, store.domain);
      if (sentence === null) throw error;
      return recordFailure(store, sentence);
    }
    // The service's clock is the one every stored time uses; never before the previous read.
    const nowMs = now().getTime();
    const takenAt = new Date(Math.max(nowMs, store.lastCheckedAt?.getTime() ?? 0)).toISOString();
    const next: StoreSnapshot = { ...snapshot, takenAt };

    const rows = await db.competitorProduct.findMany({ where: { storeId }, select: productSelect });
    const current = rows.filter((r) => r.removedAt === null);
    let changes: CatalogueChange[] = [];
    if (store.lastCheckedAt) {
      const lastOk = await db.competitorCheck.findFirst({ where: { storeId, ok: true }, orderBy: { takenAt: "desc" }, select: { truncated: true } });
      const prev: StoreSnapshot = {
        domain: store.fetchDomain,
        takenAt: store.lastCheckedAt.toISOString(),
        currency: store.currency,
        products: current.map(snapshotProductOf),
        truncated: lastOk?.truncated ?? false,
      };
      changes = diffSnapshots(prev, next);
    }
    await recordRead(store, next, rows, changes);
    const sent = await alert(store, followers, changes, takenAt);
    log.info({ storeId, domain: store.domain, products: next.products.length, changes: changes.length, notifications: sent }, "competitor store read");
    return { storeId, result: "ok", changes: changes.length, notifications: sent };
  }

  async function recordFailure(store: { id: number; domain: string; failures: number }, sentence: string): Promise<CheckOutcome> {
    const at = now();
    const failures = store.failures + 1;
    await retryBusy(() =>
      db.$transaction([
        db.competitorStore.update({
          where: { id: store.id },
          data: { status: "failing", lastError: sentence, failures, nextCheckAt: new Date(at.getTime() + failureBackoffMs(failures, deps.backoff)) },
          select: { id: true },
        }),
        db.competitorCheck.create({ data: { storeId: store.id, takenAt: at, ok: false, error: sentence }, select: { id: true } }),
      ]),
    );
    log.warn({ storeId: store.id, domain: store.domain, failures }, `competitor store read failed: ${sentence}`);
    return { storeId: store.id, result: "failed", changes: 0, notifications: 0, error: sentence };
  }

  /** Writes one successful read: products, removals, changes, the size point and the store's times, all at once. */
  async function recordRead(
    store: { id: number; fetchDomain: string; currency: string | null },
    snapshot: StoreSnapshot,
    rows: ProductRow[],
    changes: CatalogueChange[],
  ): Promise<void> {
    const at = new Date(snapshot.takenAt);
    const known = new Map(rows.map((r) => [r.productId, r]));
    const seen = new Map<string, ProductSnapshot>();
    for (const p of snapshot.products) if (!seen.has(p.id)) seen.set(p.id, p);

    const creates: Prisma.CompetitorProductCreateManyInput[] = [];
    const updates: { productId: string; data: ProductFields }[] = [];
    for (const p of seen.values()) {
      const fields = productFields(p);
      const row = known.get(p.id);
      if (!row) {
        creates.push({ storeId: store.id, productId: p.id, ...fields, firstSeenAt: at, lastSeenAt: at });
      } else if (row.removedAt !== null || fingerprint(fields) !== fingerprint(productFields(snapshotProductOf(row)))) {
        updates.push({ productId: p.id, data: fields });
      }
    }
    const removed = changes.filter((c) => c.kind === "removal").map((c) => c.product.id);
    const point = catalogueSeries([snapshot])[0];
    const changeRows: Prisma.CompetitorChangeCreateManyInput[] = changes.map((c) => ({
      storeId: store.id,
      at,
      kind: c.kind,
      productId: c.product.id,
      handle: c.product.handle.slice(0, 300),
      title: c.product.title.slice(0, 500),
      detail: JSON.stringify(c),
    }));

    await retryBusy(() =>
      db.$transaction([
        ...(creates.length > 0 ? [db.competitorProduct.createMany({ data: creates })] : []),
        ...updates.map((u) =>
          db.competitorProduct.update({
            where: { storeId_productId: { storeId: store.id, productId: u.productId } },
            data: { ...u.data, removedAt: null },
            select: { id: true },
          }),
        ),
        db.$executeRawUnsafe(
          `UPDATE "CompetitorProduct" SET "lastSeenAt" = ? WHERE "storeId" = ? AND "productId" IN (SELECT value FROM json_each(?))`,
          toDbTime(at),
          store.id,
          JSON.stringify([...seen.keys()]),
        ),
        db.$executeRawUnsafe(
          `UPDATE "CompetitorProduct" SET "removedAt" = ? WHERE "storeId" = ? AND "removedAt" IS NULL AND "productId" IN (SELECT value FROM json_each(?))`,
          toDbTime(at),
          store.id,
          JSON.stringify(removed),
        ),
        ...(changeRows.length > 0 ? [db.competitorChange.createMany({ data: changeRows })] : []),
        db.competitorCheck.create({
          data: {
            storeId: store.id,
            takenAt: at,
            products: point.products,
            variants: point.variants,
            inStock: point.inStockVariants,
            outOfStock: point.outOfStockVariants,
            truncated: snapshot.truncated,
            ok: true,
          },
          select: { id: true },
        }),
        db.competitorStore.update({
          where: { id: store.id },
          data: {
            status: "ok",
            lastError: null,
            failures: 0,
            lastCheckedAt: at,
            fetchDomain: snapshot.domain || store.fetchDomain,
            currency: snapshot.currency ?? store.currency,
            nextCheckAt: new Date(at.getTime() + intervalMs),
          },
          select: { id: true },
        }),
      ]),
    );
  }

  /** The launch alert to every follower, and price drops to the followers of each dropped product. */
  async function alert(
    store: { id: number },
    followers: { id: number; userId: string; name: string }[],
    changes: CatalogueChange[],
    takenAt: string,
  ): Promise<number> {
    const items: NotificationInput[] = [];
    const launches = launchesIn(changes);
    if (launches.length > 0) {
      for (const f of followers) {
        items.push({
          userId: f.userId,
          kind: "competitor.launch",
          ...launchAlert(f.name, launches),
          url: pathOf(f.id),
          dedupeKey: `competitor.launch:${store.id}:${takenAt}`,
        });
      }
    }
    const dropped = new Set(changes.filter((c): c is PriceChange => c.kind === "price-change" && c.direction === "down").map((c) => c.product.id));
    if (dropped.size > 0) {
      // The store's product follows are few; a repricing can touch thousands of products (too many for IN).
      const follows = (
        await db.competitorProductFollow.findMany({ where: { storeId: store.id }, select: { userId: true, competitorId: true, productId: true } })
      ).filter((pf) => dropped.has(pf.productId));
      const names = new Map(followers.map((f) => [f.id, f.name]));
      for (const pf of follows) {
        const drops = priceDropsFor(changes, [pf.productId]);
        if (drops.length === 0) continue;
        items.push({
          userId: pf.userId,
          kind: "competitor.price-drop",
          ...priceDropAlert(names.get(pf.competitorId) ?? "a store you follow", drops),
          url: pathOf(pf.competitorId),
          dedupeKey: `competitor.price-drop:${store.id}:${pf.productId}:${takenAt}`,
        });
      }
    }
    return items.length > 0 ? notifications.notify(items) : 0;
  }

  /** Queues a read of every store whose next read is due and that someone follows; returns how many. */
  async function enqueueDue(): Promise<number> {
    const due = await db.competitorStore.findMany({
      where: { nextCheckAt: { lte: now() }, followers: { some: {} } },
      orderBy: { nextCheckAt: "asc" },
      take: DUE_BATCH,
      select: { id: true },
    });
    for (const s of due) await enqueueCheck(s.id);
    return due.length;
  }

  /** Registers the two job kinds and the 10-minute schedule on the job system. */
  /** Adds the check kinds and their schedule to a job system (by default the one checks are enqueued on). */
  function registerJobs(on: Pick<Jobs, "register" | "schedule"> = jobs): void {
    on.register<{ storeId: number }>(
      CHECK_JOB,
      async ({ payload }) => {
        await runCheck(payload.storeId);
      },
      { payloadSchema: zStoreId, concurrency: 2, timeoutMs: 10 * 60_000, leaseMs: 60_000 },
    );
    on.register(DUE_JOB, async () => {
      await enqueueDue();
    });
    on.schedule(DUE_SCHEDULE.name, DUE_SCHEDULE.pattern, DUE_JOB);
  }

  return {
    access: accessFor,
    add,
    list,
    get,
    rename,
    remove,
    checkNow,
    followProduct,
    unfollowProduct,
    importProduct,
    runCheck,
    enqueueDue,
    registerJobs,
    estimates,
  };
}

