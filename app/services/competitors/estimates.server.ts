// A followed store's estimated weekly orders (docs/decisions/023): the pure estimateWeeklyOrders of
// app/domain/competitors/insights.ts over the changes measured in the last estimateWindowDays days of
// successful reads, with its evidence; or the reason there is none. For one store (its page) or for all of a
// user's stores at once (the list page, in three queries whatever their number).
import type { Prisma } from "@prisma/client";
import { dateFromDb, type Db } from "~/db.server";
import { estimateWeeklyOrders, ESTIMATE_METHOD, isEstimate, type CatalogueChange, type WeeklyOrdersEstimate } from "~/domain/competitors/insights";
import { COMPETITOR_RULES } from "~/domain/competitors/competitors";
import { changeSelect, parseChange } from "~/services/competitors/shared.server";

/** The domain's estimate as a page shows it: its range and evidence, with how it was made instead of its basis. */
export type EstimateView = Omit<WeeklyOrdersEstimate, "basis"> & { method: string };

/** An estimate, or why there is none ("not enough evidence: ..."). */
export interface EstimateOutcome {
  estimate: EstimateView | null;
  estimateReason: string | null;
}

/** The reads and changes the estimate rests on: the last estimateWindowDays days of successful reads. */
export async function estimateWindow(db: Db, storeId: number) {
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

export type EstimateWindow = Awaited<ReturnType<typeof estimateWindow>>;

/**
 * estimateWindow for many stores in three queries whatever their number (the list page shows every
 * followed store's estimate): each store's last successful read, its first read in the window before
 * that, and the changes after it. Same windows as estimateWindow, store by store.
 */
async function estimateWindows(db: Db, storeIds: number[]): Promise<Map<number, EstimateWindow>> {
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

/** The estimate over a window's parsed changes. */
export function estimateOf(window: EstimateWindow, parsed: CatalogueChange[]) {
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
export async function estimates(db: Db, userId: string): Promise<Array<{ id: number } & EstimateOutcome>> {
  const follows = await db.competitor.findMany({ where: { userId }, select: { id: true, storeId: true } });
  const windows = await estimateWindows(db, follows.map((f) => f.storeId));
  return follows.map((f) => {
    const window = windows.get(f.storeId)!;
    const parsed = window.changes.map((row) => parseChange(row.detail)).filter((c): c is CatalogueChange => c !== null);
    return { id: f.id, ...estimateOf(window, parsed) };
  });
}
