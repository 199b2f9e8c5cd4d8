// The two competitor alerts (docs/decisions/024), written to the notification list after a read: a launch alert
// to every follower of the store, and a price-drop alert to each follower of a product whose price went down.
// Each carries a dedupe key per store and read, so a read alerts once however often it is recorded.
import type { Db } from "~/db.server";
import { launchesIn, priceDropsFor, type CatalogueChange, type PriceChange } from "~/domain/competitors/insights";
import { launchAlert, priceDropAlert } from "~/domain/competitors/competitors";
import type { NotificationInput, Notifications } from "~/services/notifications.server";
import type { Follower, StoreReader } from "~/services/crawl/tracker.server";

export interface AlertsDeps {
  db: Db;
  notifications: Pick<Notifications, "notify">;
  /** The site path a notification opens for a follow. */
  pathOf: (competitorId: number) => string;
}

/** The followers' alerts as a reader of store reads (the tracker's list, wired by the composition root). */
export function followerAlerts(deps: AlertsDeps): StoreReader {
  return {
    name: "competitor alerts",
    // A read whose alerts failed is read again; the dedupe keys keep a second run from alerting twice.
    onFailure: "retry",
    read: (r) => alertFollowers(deps, r.store, r.followers, r.changes, r.takenAt),
  };
}

/** The launch alert to every follower, and price drops to the followers of each dropped product; returns how many were sent. */
export async function alertFollowers(
  deps: AlertsDeps,
  store: { id: number },
  followers: Follower[],
  changes: CatalogueChange[],
  takenAt: string,
): Promise<number> {
  const { db, pathOf } = deps;
  const items: NotificationInput[] = [];
  const launches = launchesIn(changes);
  if (launches.length > 0) {
    for (const f of followers) {
      items.push({
        userId: f.userId,
        kind: "competitor.launch",
        ...launchAlert(f.name, launches),
        // Opens the store's page at its launches.
        url: `${pathOf(f.id)}#launches`,
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
        // Opens the store's page at the product whose price dropped.
        url: `${pathOf(pf.competitorId)}#product-${pf.productId}`,
        dedupeKey: `competitor.price-drop:${store.id}:${pf.productId}:${takenAt}`,
      });
    }
  }
  return items.length > 0 ? deps.notifications.notify(items) : 0;
}
