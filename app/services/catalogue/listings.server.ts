// The measured catalogue's reads of store listings (docs/decisions/046): every listing (a CompetitorProduct of
// an observed store) with its picture fingerprint for matching, and one product's listings with their history
// (rebuilt from the tracker's measured changes) for the signals. Raw SQL through the row reader: a full match
// reads every listing, and a million Prisma row objects cost seconds and hundreds of MB.
import { dateFromDb, epochSeconds, parseJsonList, parseStringList, type Db, type Dialect, type SqlReader } from "~/db.server";
import type { CatalogueChange } from "~/domain/competitors/insights";
import type { ListingHistory } from "~/domain/catalogue/signals";

/** What matching needs of a listing. */
export interface MatchListing {
  id: number;
  storeId: number;
  title: string;
  priceCents: number | null;
  currency: string | null;
  hash: string;
  firstSeenAt: number;
  /** What the look-alike rules read (decision 087): the vendor, the variants' SKUs and barcodes, the options. */
  vendor: string;
  variants: Array<{ sku: string | null; barcode: string | null }>;
  options: Array<{ name: string; values: string[] }>;
}

/** The SKUs and barcodes of a listing's stored variants (VariantSnapshot JSON); [] for anything unreadable. */
function variantCodes(text: string): Array<{ sku: string | null; barcode: string | null }> {
  return parseJsonList(text).map((v) => {
    const x = (v ?? {}) as { sku?: unknown; barcode?: unknown };
    return { sku: typeof x.sku === "string" ? x.sku : null, barcode: typeof x.barcode === "string" ? x.barcode : null };
  });
}

function optionValues(text: string): Array<{ name: string; values: string[] }> {
  return parseJsonList(text).flatMap((o) => {
    const x = (o ?? {}) as { name?: unknown; values?: unknown };
    return typeof x.name === "string" && Array.isArray(x.values) ? [{ name: x.name, values: x.values.filter((v): v is string => typeof v === "string") }] : [];
  });
}

/** Every fingerprinted listing after an id, in id order (keyset pages), in the reader's SQL. */
function matchSql(dialect: Dialect): string {
  return `
  SELECT cp."id", cp."storeId", cp."title", cp."priceMinCents", cp."currency", lp."hash",
         ${epochSeconds(dialect, `cp."firstSeenAt"`)}, cp."vendor", cp."variants", cp."options"
  FROM "CompetitorProduct" cp
  JOIN "ListingPicture" lp ON lp."listingId" = cp."id" AND lp."status" = 'ok' AND lp."hash" IS NOT NULL
  WHERE cp."id" > ? ORDER BY cp."id" LIMIT ?`;
}

/**
 * Every row of a keyset-paged query (`WHERE <id> > ? ... ORDER BY <id> LIMIT ?`, the id first), in id order, read
 * in chunks so no single statement holds a million rows.
 */
export async function readInIdOrder<T>(sql: SqlReader, query: string, map: (row: unknown[]) => T, chunk = 20_000): Promise<T[]> {
  const out: T[] = [];
  let after = 0;
  for (;;) {
    const rows = await sql.rows(query, [after, chunk]);
    for (const r of rows) out.push(map(r));
    if (rows.length < chunk) return out;
    after = Number(rows[rows.length - 1][0]);
  }
}

/** Every fingerprinted listing, in id order, read in chunks. */
export function readMatchListings(sql: SqlReader, chunk = 20_000): Promise<MatchListing[]> {
  return readInIdOrder(
    sql,
    matchSql(sql.dialect),
    (r) => ({
      id: Number(r[0]),
      storeId: Number(r[1]),
      title: String(r[2]),
      priceCents: r[3] === null ? null : Number(r[3]),
      currency: r[4] === null ? null : String(r[4]),
      hash: String(r[5]),
      firstSeenAt: Number(r[6]),
      vendor: r[7] === null ? "" : String(r[7]),
      variants: variantCodes(String(r[8] ?? "[]")),
      options: optionValues(String(r[9] ?? "[]")),
    }),
    chunk,
  );
}

/** A listing as the product page and the materialised product show it. */
export interface ListingDetail {
  id: number;
  storeId: number;
  storeDomain: string;
  storeName: string;
  /** The currency its store published when it was last read (decision 089); null when none. */
  currency: string | null;
  /** The store's first read: listings found then were not "added" then. */
  storeFirstReadAt: Date | null;
  /** Shopify's product id in its store. */
  productId: string;
  handle: string;
  title: string;
  productType: string;
  tags: string[];
  images: string[];
  variants: Array<{ id: string; priceCents: number; available: boolean | null }>;
  priceMinCents: number | null;
  available: boolean | null;
  publishedAt: Date | null;
  firstSeenAt: Date;
  removedAt: Date | null;
}

/**
 * The listings of some measured products' members, by listing id: one query per 500 listings, and one for their
 * stores' first reads (not one per listing or per store).
 */
export async function readListingDetails(db: Db, listingIds: number[]): Promise<Map<number, ListingDetail>> {
  const out = new Map<number, ListingDetail>();
  const rows = [];
  for (let i = 0; i < listingIds.length; i += 500) {
    rows.push(
      ...(await db.competitorProduct.findMany({
        where: { id: { in: listingIds.slice(i, i + 500) } },
        select: {
          id: true,
          storeId: true,
          productId: true,
          handle: true,
          title: true,
          productType: true,
          tags: true,
          images: true,
          variants: true,
          priceMinCents: true,
          available: true,
          publishedAt: true,
          firstSeenAt: true,
          removedAt: true,
          currency: true,
          store: { select: { domain: true, name: true } },
        },
      })),
    );
  }
  const storeIds = [...new Set(rows.map((r) => r.storeId))];
  const firstReads = new Map<number, Date>();
  for (let i = 0; i < storeIds.length; i += 500) {
    const reads = await db.competitorCheck.groupBy({
      by: ["storeId"],
      where: { ok: true, storeId: { in: storeIds.slice(i, i + 500) } },
      _min: { takenAt: true },
    });
    for (const r of reads) if (r._min.takenAt) firstReads.set(r.storeId, r._min.takenAt);
  }
  for (const r of rows) {
    out.set(r.id, {
      id: r.id,
      storeId: r.storeId,
      storeDomain: r.store.domain,
      storeName: r.store.name,
      currency: r.currency,
      storeFirstReadAt: firstReads.get(r.storeId) ?? null,
      productId: r.productId,
      handle: r.handle,
      title: r.title,
      productType: r.productType,
      tags: parseStringList(r.tags),
      images: parseStringList(r.images),
      variants: parseJsonList(r.variants).flatMap((v) => {
        const x = v as { id?: unknown; priceCents?: unknown; available?: unknown };
        return typeof x.id === "string" && typeof x.priceCents === "number"
          ? [{ id: x.id, priceCents: x.priceCents, available: typeof x.available === "boolean" ? x.available : null }]
          : [];
      }),
      priceMinCents: r.priceMinCents,
      available: r.available,
      publishedAt: r.publishedAt,
      firstSeenAt: r.firstSeenAt,
      removedAt: r.removedAt,
    });
  }
  return out;
}

/** A measured change of a listing's price or stock, as the tracker stored it. */
export interface ListingChangeRow {
  at: Date;
  detail: string;
}

/**
 * The price and stock changes of many listings, newest first, by listing id: one query per 500 listings (the
 * listings grouped by store, each store's products as one IN list), never one per listing.
 */
export async function readListingChanges(db: Db, listings: ListingDetail[]): Promise<Map<number, ListingChangeRow[]>> {
  const out = new Map<number, ListingChangeRow[]>(listings.map((l) => [l.id, []]));
  for (let i = 0; i < listings.length; i += 500) {
    const chunk = listings.slice(i, i + 500);
    const byStore = new Map<number, Map<string, number[]>>();
    for (const l of chunk) {
      const products = byStore.get(l.storeId) ?? new Map<string, number[]>();
      products.set(l.productId, [...(products.get(l.productId) ?? []), l.id]);
      byStore.set(l.storeId, products);
    }
    const rows = await db.competitorChange.findMany({
      where: {
        kind: { in: ["price-change", "sold-out", "restock"] },
        OR: [...byStore].map(([storeId, products]) => ({ storeId, productId: { in: [...products.keys()] } })),
      },
      orderBy: [{ at: "desc" }, { id: "desc" }],
      select: { storeId: true, productId: true, at: true, detail: true },
    });
    for (const r of rows) {
      for (const id of byStore.get(r.storeId)?.get(r.productId) ?? []) out.get(id)!.push({ at: r.at, detail: r.detail });
    }
  }
  return out;
}

type VariantChange = Extract<CatalogueChange, { kind: "price-change" | "sold-out" | "restock" }>;

/**
 * A listing's history for the signals: its price and availability over time, rebuilt backwards from its
 * current variants through the tracker's measured changes (`rows`, newest first, from readListingChanges: each
 * change's old value is what the variant held before it).
 */
export function listingHistory(listing: ListingDetail, rows: readonly ListingChangeRow[]): ListingHistory {
  const price = new Map(listing.variants.map((v) => [v.id, v.priceCents]));
  const stock = new Map(listing.variants.map((v) => [v.id, v.available]));
  const minPrice = () => (price.size ? Math.min(...price.values()) : null);
  const anyAvailable = () => {
    const values = [...stock.values()];
    if (values.some((v) => v === true)) return true;
    return values.length > 0 && values.every((v) => v === false) ? false : null;
  };
  const prices: Array<{ at: string; cents: number }> = [];
  const availability: Array<{ at: string; available: boolean | null }> = [];
  const nowPrice = minPrice();
  if (nowPrice !== null) prices.push({ at: new Date().toISOString(), cents: nowPrice });
  availability.push({ at: new Date().toISOString(), available: anyAvailable() });
  for (const row of rows) {
    let change: VariantChange;
    try {
      change = JSON.parse(row.detail) as VariantChange;
    } catch {
      continue;
    }
    const at = (row.at instanceof Date ? row.at : dateFromDb(row.at)).toISOString();
    // The value after this change, then step back to before it.
    const after = { price: minPrice(), available: anyAvailable() };
    if (change.kind === "price-change") price.set(change.variant.id, change.oldCents);
    else if (change.kind === "sold-out") stock.set(change.variant.id, true);
    else stock.set(change.variant.id, false);
    if (after.price !== null) prices.push({ at, cents: after.price });
    availability.push({ at, available: after.available });
  }
  const first = listing.firstSeenAt.toISOString();
  const initialPrice = minPrice();
  if (initialPrice !== null) prices.push({ at: first, cents: initialPrice });
  availability.push({ at: first, available: anyAvailable() });
  // Oldest first; the "now" points were only the starting values and are dated by the last change or first sight.
  prices.reverse();
  availability.reverse();
  const onFirstRead = listing.storeFirstReadAt !== null && listing.firstSeenAt.getTime() <= listing.storeFirstReadAt.getTime();
  const addedAt = onFirstRead && listing.publishedAt ? listing.publishedAt : listing.firstSeenAt;
  return {
    storeId: listing.storeId,
    addedAt: addedAt.toISOString(),
    addedCounts: !onFirstRead || listing.publishedAt !== null,
    removedAt: listing.removedAt?.toISOString() ?? null,
    prices: prices.map((p) => ({ at: p.at < first ? first : p.at, cents: p.cents })),
    availability: availability.map((a) => ({ at: a.at < first ? first : a.at, available: a.available })),
    publishedAt: listing.publishedAt?.toISOString() ?? null,
  };
}

/**
 * The measured products (objectIDs) with a listing the tracker measured a change of (price, stock, removal,
 * relaunch ...) after `since`: their figures move although their members did not. The stores read since then
 * first (a small table), then their changes through the (storeId, at) index, then the listings' products.
 */
export async function readProductsChangedSince(db: Db, since: Date): Promise<string[]> {
  const stores = await db.competitorStore.findMany({ where: { lastCheckedAt: { gt: since } }, select: { id: true } });
  const out = new Set<string>();
  for (let i = 0; i < stores.length; i += 500) {
    const changes = await db.competitorChange.findMany({
      where: { storeId: { in: stores.slice(i, i + 500).map((s) => s.id) }, at: { gt: since } },
      distinct: ["storeId", "productId"],
      select: { storeId: true, productId: true },
    });
    const byStore = new Map<number, string[]>();
    for (const c of changes) byStore.set(c.storeId, [...(byStore.get(c.storeId) ?? []), c.productId]);
    const pairs = [...byStore];
    for (let j = 0; j < pairs.length; j += 50) {
      const listings = await db.competitorProduct.findMany({
        where: { OR: pairs.slice(j, j + 50).map(([storeId, productIds]) => ({ storeId, productId: { in: productIds } })), member: { isNot: null } },
        select: { member: { select: { product: { select: { objectID: true } } } } },
      });
      for (const l of listings) if (l.member) out.add(l.member.product.objectID);
    }
  }
  return [...out];
}
