// What the competitor modules share (docs/decisions/023, 024): the check job's names and how a read is queued,
// the rows' selects and the small parsers over them, the follow summary, and the two guards every user action
// passes (the follow is this user's; the plan allows tracking). No use case lives here.
import { createHash } from "node:crypto";
import type { Prisma } from "@prisma/client";
import type { Db } from "~/db.server";
import { primarySubscription, type PaidStateInput } from "~/domain/billing/billing";
import type { CatalogueChange } from "~/domain/competitors/insights";
import { CHECK_JOB, checkJobKey, competitorAccess, type CompetitorAccess } from "~/domain/competitors/competitors";
import { AppError } from "~/domain/errors";
import type { VariantSnapshot } from "~/domain/crawl/store-snapshot";
import type { Jobs } from "~/services/jobs.server";

export { CHECK_JOB, checkJobKey };
export const DUE_JOB = "competitor.check-due";
/** Every 10 minutes, the stores whose next read is due are queued. */
export const DUE_SCHEDULE = { name: "competitor-checks", pattern: "*/10 * * * *" } as const;
export const RETENTION_JOB = "competitor.retention";
/** Daily at 03:41 UTC: old checks thinned, very old checks and changes deleted (decision 047). */
export const RETENTION_SCHEDULE = { name: "competitor-retention", pattern: "41 3 * * *" } as const;

/** Queues a read of the store now; a read already queued or running under its key is not queued twice. */
export async function enqueueCheck(deps: { jobs: Pick<Jobs, "enqueue">; now: () => Date }, storeId: number) {
  return deps.jobs.enqueue(CHECK_JOB, { storeId }, { key: checkJobKey(storeId), runAt: deps.now() });
}

// ---------------------------------------------------------------------------------------------------------
// The follow as the list shows it

/**
 * parked: too many failed reads in a row; not read until a follower's "check now" or the operator resumes it.
 * blocked: its catalogue answered with a wall for bots (401/403, a captcha, a web page); robots: its robots.txt
 * forbids reading the catalogue (decision 088). Both keep the last read's products; lastError says why and when next.
 */
export type CompetitorStatus = "pending" | "ok" | "failing" | "parked" | "blocked" | "robots";

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
  /** What the last successful read left out or could not use (a catalogue past our caps, unreadable products), as sentences; null when it read everything. */
  readNote: string | null;
  currency: string | null;
  /** Products in the public catalogue at the last read. */
  productCount: number;
  followedAt: string;
}

/** The user fields competitor tracking needs: who, and the paid state. */
export type CompetitorUser = PaidStateInput & { id: string };

// ---------------------------------------------------------------------------------------------------------
// Rows

export const storeSelect = {
  id: true,
  domain: true,
  fetchDomain: true,
  name: true,
  currency: true,
  status: true,
  lastCheckedAt: true,
  nextCheckAt: true,
  lastError: true,
  readNote: true,
  failures: true,
  operatorListed: true,
  paused: true,
  parkedAt: true,
} as const;

export const followSelect = {
  id: true,
  name: true,
  createdAt: true,
  storeId: true,
  store: { select: { ...storeSelect, _count: { select: { products: { where: { removedAt: null } } } } } },
} as const;
export type FollowRow = Prisma.CompetitorGetPayload<{ select: typeof followSelect }>;

export const productSelect = {
  productId: true,
  handle: true,
  title: true,
  productType: true,
  vendor: true,
  tags: true,
  images: true,
  variants: true,
  options: true,
  priceMinCents: true,
  priceMaxCents: true,
  /** The currency its store published when it was read (decision 089). */
  currency: true,
  available: true,
  createdAt: true,
  publishedAt: true,
  firstSeenAt: true,
  lastSeenAt: true,
  removedAt: true,
} as const;
export type ProductRow = Prisma.CompetitorProductGetPayload<{ select: typeof productSelect }>;

export const changeSelect = { id: true, at: true, kind: true, productId: true, handle: true, title: true, detail: true } as const;
export type ChangeRow = Prisma.CompetitorChangeGetPayload<{ select: typeof changeSelect }>;

export { toDbTime } from "~/db.server";
export const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export function parseVariants(text: string): VariantSnapshot[] {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? (v as VariantSnapshot[]) : [];
  } catch {
    return [];
  }
}

/** A stored product's options (decision 087); [] for anything unreadable. */
export function parseOptions(text: string): Array<{ name: string; values: string[] }> {
  try {
    const v: unknown = JSON.parse(text);
    if (!Array.isArray(v)) return [];
    return v.flatMap((o) => {
      const x = o as { name?: unknown; values?: unknown };
      return typeof x.name === "string" && Array.isArray(x.values) ? [{ name: x.name, values: x.values.filter((s): s is string => typeof s === "string") }] : [];
    });
  } catch {
    return [];
  }
}

export function parseChange(text: string): CatalogueChange | null {
  try {
    const v = JSON.parse(text) as CatalogueChange;
    return v && typeof v === "object" && typeof v.kind === "string" ? v : null;
  } catch {
    return null;
  }
}

export function summaryOf(f: FollowRow): CompetitorSummary {
  return {
    id: f.id,
    domain: f.store.domain,
    name: f.name,
    status: f.store.status as CompetitorStatus,
    lastCheckedAt: iso(f.store.lastCheckedAt),
    nextCheckAt: iso(f.store.nextCheckAt),
    lastError: f.store.lastError,
    readNote: f.store.readNote,
    currency: f.store.currency,
    productCount: f.store._count.products,
    followedAt: f.createdAt.toISOString(),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Guards

/** What the user's plan allows: following at all, and how many stores. */
export async function accessFor(db: Db, user: CompetitorUser): Promise<CompetitorAccess> {
  const subs = await db.billingSubscription.findMany({
    where: { userId: user.id },
    select: { id: true, status: true, planId: true, customerId: true, scheduledChange: true, currentPeriodStart: true, lastEventAt: true, lastEventAtExact: true },
  });
  return competitorAccess(user, primarySubscription(subs)?.planId);
}

export async function requirePaid(db: Db, user: CompetitorUser): Promise<CompetitorAccess> {
  const access = await accessFor(db, user);
  if (!access.follow) throw new AppError(403, access.lockedReason!, { upgradeUrl: access.upgradeUrl });
  return access;
}

export async function ownFollow(db: Db, userId: string, id: number): Promise<FollowRow> {
  const follow = await db.competitor.findFirst({ where: { id, userId }, select: followSelect });
  if (!follow) throw new AppError(404, "You do not follow that store.");
  return follow;
}

export async function requireProduct(db: Db, storeId: number, productId: string): Promise<ProductRow> {
  const product = await db.competitorProduct.findUnique({ where: { storeId_productId: { storeId, productId } }, select: productSelect });
  if (!product) throw new AppError(404, "That product is not in this store's catalogue.");
  return product;
}

/** The product database's id of a rival's product once it is added (product-import), the same on every add. */
export function importedObjectId(domain: string, productId: string): string {
  const idPart = `competitor:${domain}:${productId}`;
  return idPart.length <= 100 ? idPart : `competitor:${createHash("sha256").update(domain).digest("hex").slice(0, 16)}:${productId}`;
}

/**
 * A rival product's "First seen" day, one for its row on the store page and its page in the product database:
 * the earlier of the day the store says it published it and our first read (which is only the day we started
 * following for everything already on sale then).
 */
export function trackedFirstSeen(p: { publishedAt: Date | null; firstSeenAt: Date }): Date {
  return p.publishedAt && p.publishedAt < p.firstSeenAt ? p.publishedAt : p.firstSeenAt;
}
