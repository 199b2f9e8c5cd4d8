// The crawler's own rows and names (decisions 023, 047, 088): the read job's names and how a read is queued, the
// store and listing rows' selects, and the small parsers over them. Competitor follows, the measured catalogue and
// the operator's list read stores through these; nothing here knows who reads (issue 36: crawl/ depends on nobody).
import type { Prisma } from "@prisma/client";
import { CHECK_JOB, checkJobKey } from "~/domain/competitors/competitors";
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

/**
 * parked: too many failed reads in a row; not read until a follower's "check now" or the operator resumes it.
 * blocked: its catalogue answered with a wall for bots (401/403, a captcha, a web page); robots: its robots.txt
 * forbids reading the catalogue (decision 088). Both keep the last read's products; lastError says why and when next.
 */
export type CompetitorStatus = "pending" | "ok" | "failing" | "parked" | "blocked" | "robots";

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
  /** When it was first observed and when its catalogue last changed: an operator-only store's read tier (decision 101). */
  createdAt: true,
  lastChangedAt: true,
} as const;

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
