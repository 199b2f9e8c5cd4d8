// Saved searches that alert (docs/decisions/030). This service owns the alert state of each saved search
// (SavedSearch.alertsEnabled, alertedDay, alertAfterProductId, alertCheckedAt) and the check that turns new
// products in a search's results into a notification.
// - "New" means added to our catalogue after the search's watermark: a product id above alertAfterProductId
//   (Product ids come from AUTOINCREMENT and are never reused, so every import, generation or tracked
//   store's product added lands above it). A search's watermark starts at the newest product when saved.
// - The check runs the saved query through the built-in search engine (app/services/search), restricted to
//   ids above the watermark, and writes at most one notification per search per UTC day (the notification's
//   dedupe key is the search and the day, so two checks at once still write one). On a day already alerted
//   the watermark stays, so tomorrow's alert counts everything since the last one.
// - It is the job "saved-search-alerts.check": queued after imports (key: one waiting at a time) and hourly.
import { retryBusy, type Db } from "~/db.server";
import { AppError } from "~/domain/errors";
import { dropDay } from "~/domain/products/product-drops";
import { parseProductQuery, QueryError, type ProductQuery } from "~/domain/products/product-query";
import type { Jobs } from "~/services/jobs.server";
import type { Notifications } from "~/services/notifications.server";

export const ALERT_CHECK_JOB = "saved-search-alerts.check";
export const ALERT_CHECK_KEY = "saved-search-alerts.check";
export const ALERT_SCHEDULE = { name: "saved-search-alerts", pattern: "0 * * * *" } as const;
const BATCH = 200;
const SAMPLE_TITLES = 3;

/** The search engine's question: which products above an id match a query (CatalogSearch.matchingAdded). */
export interface AddedProductMatcher {
  matchingAdded(q: ProductQuery, afterId: number, sample?: number): Promise<{ count: number; ids: number[]; upToId: number }>;
}

export interface SavedSearchAlertsDeps {
  db: Db;
  engine: AddedProductMatcher;
  notifications: Pick<Notifications, "notify">;
  jobs?: Pick<Jobs, "enqueue">;
  now?: () => Date;
  /** The product grid's site path (the notification opens the saved search there). */
  productsPath?: string;
}

export interface AlertCheckSummary {
  /** Searches looked at (those with products above their watermark). */
  checked: number;
  /** Notifications written. */
  alerted: number;
}

export type SavedSearchAlerts = ReturnType<typeof createSavedSearchAlerts>;

/** "3 new products match “Pet gear”: LED collar, Cat fountain and 1 more." */
export function alertWording(name: string, count: number, titles: string[]): { title: string; body: string } {
  const many = count === 1 ? "1 new product" : `${count} new products`;
  const shown = titles.slice(0, SAMPLE_TITLES);
  const rest = count - shown.length;
  const list =
    shown.length === 0
      ? ""
      : `: ${shown.length === 1 || rest > 0 ? shown.join(", ") : `${shown.slice(0, -1).join(", ")} and ${shown[shown.length - 1]}`}${rest > 0 ? ` and ${rest} more` : ""}`;
  return {
    title: `${many} in “${name}”`,
    body: `${many} added to the database ${count === 1 ? "matches" : "match"} your saved search “${name}”${list}.`,
  };
}

export function createSavedSearchAlerts(deps: SavedSearchAlertsDeps) {
  const { db, engine, notifications } = deps;
  const now = deps.now ?? (() => new Date());
  const productsPath = deps.productsPath ?? "/dashboard/products";

  /** The newest product's id: one step down the primary key (an aggregate would scan the table). */
  async function newestProductId(): Promise<number> {
    const newest = await db.product.findFirst({ orderBy: { id: "desc" }, select: { id: true } });
    return newest?.id ?? 0;
  }

  function searchUrl(id: number, query: string): string {
    return `${productsPath}?${query ? `${query}&` : ""}savedSearch=${id}`;
  }

  /**
   * Looks at every saved search with products above its watermark: alerts (at most once per search per
   * UTC day), or moves the watermark when nothing new matched or alerts are off.
   */
  async function check(): Promise<AlertCheckSummary> {
    const newest = await newestProductId();
    const day = dropDay(now());
    const summary: AlertCheckSummary = { checked: 0, alerted: 0 };
    let cursor = 0;
    for (;;) {
      const searches = await db.savedSearch.findMany({
        where: { id: { gt: cursor }, alertAfterProductId: { lt: newest } },
        orderBy: { id: "asc" },
        take: BATCH,
        select: { id: true, userId: true, name: true, query: true, alertsEnabled: true, alertedDay: true, alertAfterProductId: true },
      });
      if (searches.length === 0) break;
      cursor = searches[searches.length - 1].id;
      for (const s of searches) {
        // Already alerted today: keep the watermark, so tomorrow's alert counts these too.
        if (s.alertsEnabled && s.alertedDay === day) continue;
        summary.checked++;
        const advance = (upToId: number, alerted: boolean) =>
          retryBusy(() =>
            db.savedSearch.updateMany({
              // Fenced on the watermark read: a concurrent check that moved it first wins.
              where: { id: s.id, alertAfterProductId: s.alertAfterProductId },
              data: { alertAfterProductId: upToId, alertCheckedAt: now(), ...(alerted ? { alertedDay: day } : {}) },
            }),
          );
        let query: ProductQuery;
        try {
          query = parseProductQuery(new URLSearchParams(s.query), now());
        } catch (error) {
          // A query the grid no longer accepts cannot match anything: move on rather than fail the job.
          if (!(error instanceof QueryError)) throw error;
          await advance(newest, false);
          continue;
        }
        if (!s.alertsEnabled) {
          // Opted out: products added meanwhile never alert later.
          await advance(newest, false);
          continue;
        }
        const found = await engine.matchingAdded(query, s.alertAfterProductId, SAMPLE_TITLES);
        if (found.count === 0) {
          await advance(found.upToId, false);
          continue;
        }
        const titles = await db.product.findMany({ where: { id: { in: found.ids } }, select: { id: true, title: true } });
        const byId = new Map(titles.map((t) => [t.id, t.title]));
        const written = await notifications.notify([
          {
            userId: s.userId,
            kind: "saved-search.new-products",
            ...alertWording(s.name, found.count, found.ids.map((id) => byId.get(id)).filter((t): t is string => Boolean(t))),
            url: searchUrl(s.id, s.query),
            dedupeKey: `saved-search:${s.id}:${day}`,
          },
        ]);
        summary.alerted += written;
        await advance(found.upToId, true);
      }
    }
    return summary;
  }

  /** The user's saved search ids with their alert switch. */
  async function settings(userId: string): Promise<Map<number, boolean>> {
    const rows = await db.savedSearch.findMany({ where: { userId }, select: { id: true, alertsEnabled: true } });
    return new Map(rows.map((r) => [r.id, r.alertsEnabled]));
  }

  /**
   * Turns a search's alerts on or off (404 when it is not the user's). Turning them on counts from now:
   * products added while they were off never alert.
   */
  async function setAlerts(userId: string, id: number, enabled: boolean): Promise<{ id: number; alerts: boolean }> {
    const row = await db.savedSearch.findFirst({ where: { id, userId }, select: { id: true, alertsEnabled: true } });
    if (!row) throw new AppError(404, "There is no saved search with that id.");
    if (row.alertsEnabled !== enabled) {
      const watermark = enabled ? { alertAfterProductId: await newestProductId() } : {};
      await retryBusy(() => db.savedSearch.update({ where: { id }, data: { alertsEnabled: enabled, ...watermark }, select: { id: true } }));
    }
    return { id, alerts: enabled };
  }

  /** Queues a check (after products were added); one waits at a time however often it is asked for. */
  async function enqueueCheck(): Promise<void> {
    await deps.jobs?.enqueue(ALERT_CHECK_JOB, {}, { key: ALERT_CHECK_KEY });
  }

  function registerJobs(on: Pick<Jobs, "register" | "schedule">): void {
    on.register(ALERT_CHECK_JOB, async () => {
      await check();
    }, { timeoutMs: 30 * 60_000, leaseMs: 120_000 });
    on.schedule(ALERT_SCHEDULE.name, ALERT_SCHEDULE.pattern, ALERT_CHECK_JOB);
  }

  return { check, settings, setAlerts, enqueueCheck, registerJobs };
}
