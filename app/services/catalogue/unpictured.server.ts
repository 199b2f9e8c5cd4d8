// Listings without a picture fingerprint in the measured catalogue (docs/decisions/091): those whose store shows
// no picture, and those whose picture is still pending or could not be read. Every one is placed at once on its
// title evidence (app/domain/catalogue/title-placement.ts) by matching.server.ts, and placed again by its
// picture when one arrives. This module reads them and keeps the title index of placed listings.
import { epochSeconds, type Dialect, type SqlReader } from "~/db.server";
import type { Cluster, ClusterInput, ClusterState } from "~/domain/catalogue/match";
import { foldVendor, TitleIndex, titlePairReason } from "~/domain/catalogue/title-placement";
import { readInIdOrder } from "~/services/catalogue/listings.server";

export interface UnpicturedListing {
  id: number;
  storeId: number;
  title: string;
  priceCents: number | null;
  currency: string | null;
  vendor: string;
  firstSeenAt: number;
}

// Present listings without a usable fingerprint, and removed ones already in a product (so a listing that leaves
// its store stays counted as it did, like a fingerprinted one).
function unpicturedSql(dialect: Dialect): string {
  return `
  SELECT cp."id", cp."storeId", cp."title", cp."priceMinCents", cp."currency", cp."vendor",
         ${epochSeconds(dialect, `cp."firstSeenAt"`)}
  FROM "CompetitorProduct" cp
  LEFT JOIN "ListingPicture" lp ON lp."listingId" = cp."id"
  WHERE cp."id" > ? AND (lp."listingId" IS NULL OR lp."status" <> 'ok' OR lp."hash" IS NULL)
    AND (cp."removedAt" IS NULL OR EXISTS (SELECT 1 FROM "CatalogueMember" cm WHERE cm."listingId" = cp."id"))
  ORDER BY cp."id" LIMIT ?`;
}

/** Every listing without a fingerprint, in id order, read in chunks. */
export function readUnpicturedListings(sql: SqlReader, chunk = 20_000): Promise<UnpicturedListing[]> {
  return readInIdOrder(
    sql,
    unpicturedSql(sql.dialect),
    (r) => ({
      id: Number(r[0]),
      storeId: Number(r[1]),
      title: String(r[2]),
      priceCents: r[3] === null ? null : Number(r[3]),
      currency: r[4] === null ? null : String(r[4]),
      vendor: r[5] === null ? "" : String(r[5]),
      firstSeenAt: Number(r[6]),
    }),
    chunk,
  );
}

/**
 * The title side of one matching state: the placed listings' title words (every placed listing, with a picture
 * or not: a listing without one may join a product found by pictures) and vendors, and the ids placed without a
 * picture.
 */
export class TitlePlacement {
  private readonly titles = new TitleIndex();
  private readonly vendors = new Map<number, string>();
  /** Listings placed without a picture. */
  readonly ids = new Set<number>();

  vendor(id: number, vendor: string): void {
    const folded = foldVendor(vendor);
    if (folded) this.vendors.set(id, folded);
  }

  /** Every placed listing is indexed by its title (the caller calls this from ClusterState's onPlaced). */
  placed(input: ClusterInput): void {
    this.titles.add(input.id, input.title);
  }

  /**
   * Places a listing that has no picture: with the product of the best listing of the same title, or alone.
   * `keptApart` adds the identifier and look-alike rules (decision 087's keptApartByTraits).
   */
  place(clusters: ClusterState, input: ClusterInput, keptApart: (a: ClusterInput, b: ClusterInput) => boolean): Cluster {
    this.ids.add(input.id);
    const mine = { ...input, vendor: this.vendors.get(input.id) ?? "" };
    return clusters.placeByTitle(input, this.titles.candidates(input.title), (other) =>
      keptApart(input, other) ? null : titlePairReason(mine, { ...other, vendor: this.vendors.get(other.id) ?? "" }),
    );
  }
}
