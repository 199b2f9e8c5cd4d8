// What the competitor modules share (docs/decisions/023, 024): the follow's row and summary, and the two guards every
// user action passes (the follow is this user's; the plan allows tracking); the crawler's rows and job names are
// re-exported from crawl/rows.server.ts. No use case lives here.
import { createHash } from "node:crypto";
import type { Prisma } from "@prisma/client";
import type { Db } from "~/db.server";
import { primarySubscription, type PaidStateInput } from "~/domain/billing/billing";
import type { CatalogueChange } from "~/domain/competitors/insights";
import { competitorAccess, type CompetitorAccess } from "~/domain/competitors/competitors";
import { AppError } from "~/domain/errors";

// The crawler's rows and names live in crawl/rows.server.ts; the competitor modules take them from here too.
export {
  CHECK_JOB,
  checkJobKey,
  DUE_JOB,
  DUE_SCHEDULE,
  RETENTION_JOB,
  RETENTION_SCHEDULE,
  enqueueCheck,
  storeSelect,
  productSelect,
  toDbTime,
  iso,
  parseVariants,
  parseOptions,
  type CompetitorStatus,
  type ProductRow,
} from "~/services/crawl/rows.server";
import { iso, productSelect, storeSelect, type CompetitorStatus, type ProductRow } from "~/services/crawl/rows.server";

// ---------------------------------------------------------------------------------------------------------
// The follow as the list shows it

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

export const followSelect = {
  id: true,
  name: true,
  createdAt: true,
  storeId: true,
  store: { select: { ...storeSelect, _count: { select: { products: { where: { removedAt: null } } } } } },
} as const;
export type FollowRow = Prisma.CompetitorGetPayload<{ select: typeof followSelect }>;

export const changeSelect = { id: true, at: true, kind: true, productId: true, handle: true, title: true, detail: true } as const;
export type ChangeRow = Prisma.CompetitorChangeGetPayload<{ select: typeof changeSelect }>;

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
