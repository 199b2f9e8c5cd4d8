// What the measured catalogue is waiting for (issue 37, decision 091), for the whole catalogue or one store:
// listings not yet in a product or whose picture is pending (and their stores), pending pictures by why with the
// earliest next try, and listings placed without their picture. The sentences are app/domain/catalogue/pending-sentence.ts.
import type { Db } from "~/db.server";
import type { CataloguePending } from "~/domain/catalogue/pending-sentence";
import { pictureFailurePhrase } from "~/domain/catalogue/picture-failures";

/** The whole catalogue's, or the share of the store one user's follow points at (nothing for another's follow). */
export async function readCataloguePending(db: Db, options: { follow?: { userId: string; id: number } } = {}): Promise<CataloguePending> {
  let store = {};
  if (options.follow) {
    const follow = await db.competitor.findFirst({ where: { id: options.follow.id, userId: options.follow.userId }, select: { storeId: true } });
    store = { storeId: follow?.storeId ?? -1 };
  }
  const [beingRead, byReason, placedWithoutPicture] = await Promise.all([
    db.competitorProduct.groupBy({
      by: ["storeId"],
      where: { ...store, removedAt: null, OR: [{ member: null }, { picture: { status: "pending" } }] },
      _count: { _all: true },
    }),
    db.listingPicture.groupBy({
      by: ["failure"],
      where: { status: "pending", listing: { ...store, removedAt: null } },
      _count: { _all: true },
      _min: { retryAt: true },
    }),
    db.catalogueMember.count({
      where: { listing: { ...store, removedAt: null, OR: [{ picture: null }, { picture: { status: { not: "ok" } } }] } },
    }),
  ]);
  return {
    listingsBeingRead: beingRead.reduce((sum, s) => sum + s._count._all, 0),
    stores: beingRead.length,
    pendingByReason: byReason
      .map((b) => ({ reason: b.failure === null ? "waiting for a first read" : pictureFailurePhrase(b.failure), pictures: b._count._all, nextTryAt: b._min.retryAt?.toISOString() ?? null }))
      .sort((a, b) => b.pictures - a.pictures),
    placedWithoutPicture,
  };
}
