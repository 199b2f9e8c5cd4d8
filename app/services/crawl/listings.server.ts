// The stored catalogue of a rival store (docs/decisions/023): a snapshot's product as a CompetitorProduct row
// and back, and writing one successful read (new and changed products, removals, the measured changes, the
// size point, the store's times and what the read left out, its readNote) in one transaction. Unchanged products are skipped by fingerprint.
import type { Prisma } from "@prisma/client";
import { dialectOf, jsonRows, parseStringList, retryBusy, type Db } from "~/db.server";
import { catalogueSeries, type CatalogueChange } from "~/domain/competitors/insights";
import { readNote } from "~/domain/competitors/competitors";
import type { ProductSnapshot, StoreSnapshot, VariantSnapshot } from "~/domain/crawl/store-snapshot";
import { iso, parseOptions, parseVariants, toDbTime, type ProductRow } from "~/services/crawl/rows.server";

const isoOrNull = (text: string | null): Date | null => {
  if (!text) return null;
  const t = Date.parse(text);
  return Number.isFinite(t) ? new Date(t) : null;
};

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
    options: JSON.stringify(p.options ?? []),
    priceMinCents: range.min,
    priceMaxCents: range.max,
    available: availabilityOf(p.variants),
    createdAt: isoOrNull(p.createdAt),
    publishedAt: isoOrNull(p.publishedAt),
  };
}
type ProductFields = ReturnType<typeof productFields>;

const fingerprint = (f: ProductFields) =>
  JSON.stringify([f.handle, f.title, f.productType, f.vendor, f.tags, f.images, f.variants, f.options, iso(f.createdAt), iso(f.publishedAt)]);

/** A stored product as the snapshot it was read from (the previous side of a diff). */
export function snapshotProductOf(row: ProductRow): ProductSnapshot {
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
    ...(row.options !== "[]" ? { options: parseOptions(row.options) } : {}),
  };
}

/**
 * Writes one successful read: products, removals, changes, the size point and the store's times (the next read at
 * `nextCheckAt`, the tracker's schedule), all at once.
 */
export async function recordRead(
  deps: { db: Db },
  store: { id: number; fetchDomain: string; currency: string | null },
  snapshot: StoreSnapshot,
  rows: ProductRow[],
  changes: CatalogueChange[],
  nextCheckAt: Date,
  /** More of the store row written with the read (the crawl memory, decision 088). */
  storeExtra: Prisma.CompetitorStoreUpdateInput = {},
): Promise<void> {
  const { db } = deps;
  const at = new Date(snapshot.takenAt);
  const known = new Map(rows.map((r) => [r.productId, r]));
  const seen = new Map<string, ProductSnapshot>();
  for (const p of snapshot.products) if (!seen.has(p.id)) seen.set(p.id, p);

  // Each listing carries the currency its store published at this read (decision 089); none published keeps the last known.
  const currency = snapshot.currency ?? store.currency;
  const creates: Prisma.CompetitorProductCreateManyInput[] = [];
  const updates: { productId: string; data: ProductFields }[] = [];
  for (const p of seen.values()) {
    const fields = productFields(p);
    const row = known.get(p.id);
    if (!row) {
      creates.push({ storeId: store.id, productId: p.id, ...fields, currency, firstSeenAt: at, lastSeenAt: at });
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
        `UPDATE "CompetitorProduct" SET "lastSeenAt" = ?, "currency" = ? WHERE "storeId" = ? AND "productId" IN (SELECT ids.value FROM ${jsonRows(dialectOf(db), "ids", true)})`,
        toDbTime(at),
        currency,
        store.id,
        JSON.stringify([...seen.keys()]),
      ),
      db.$executeRawUnsafe(
        `UPDATE "CompetitorProduct" SET "removedAt" = ? WHERE "storeId" = ? AND "removedAt" IS NULL AND "productId" IN (SELECT ids.value FROM ${jsonRows(dialectOf(db), "ids", true)})`,
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
          readNote: readNote(snapshot),
          failures: 0,
          lastCheckedAt: at,
          fetchDomain: snapshot.domain || store.fetchDomain,
          currency,
          parkedAt: null,
          nextCheckAt,
          ...storeExtra,
        },
        select: { id: true },
      }),
    ]),
  );
}
