// Importing a rival's product into our product database (docs/decisions/026), through the product import: its
// real title, price and images. What we did not measure stays unknown: its supplier cost is null (pages say
// "Add your cost") and it has no sales history (pages say "No sales data: imported from a tracked store on …").
import { createHash } from "node:crypto";
import { parseStringList, type Db } from "~/db.server";
import { AppError } from "~/domain/errors";
import { nicheSlug, type TrackedStoreProductInput } from "~/domain/product-import";
import { ownFollow, requirePaid, requireProduct, type CompetitorUser } from "~/services/competitors/shared.server";
import { importProducts } from "~/services/product-import.server";

export interface ProductImportDeps {
  db: Db;
  now: () => Date;
  /** Called after a rival's product was added to the product database (saved-search alerts, decision 030). */
  onProductsAdded?: () => Promise<void>;
}

/**
 * Adds a competitor's product to our product database through the product import (its real title,
 * price and images). Its supplier cost is unknown (null: pages say "Add your cost") and we have no sales
 * data for it (no history: pages say "No sales data: imported from a tracked store on …"), so no
 * margin, orders, stage or score is made up for it (docs/decisions/026). Importing it again updates it
 * and keeps the day it was first added.
 */
export async function importProduct(deps: ProductImportDeps, user: CompetitorUser, id: number, productId: string): Promise<{ objectID: string }> {
  const { db } = deps;
  const follow = await ownFollow(db, user.id, id);
  await requirePaid(db, user);
  const product = await requireProduct(db, follow.storeId, productId);
  const domain = follow.store.domain;
  const idPart = `competitor:${domain}:${productId}`;
  const objectID = idPart.length <= 100 ? idPart : `competitor:${createHash("sha256").update(domain).digest("hex").slice(0, 16)}:${productId}`;
  const at = deps.now();
  const price = product.priceMinCents ?? 0;
  if (price < 1) throw new AppError(422, `"${product.title}" has no price in the store's catalogue, so it cannot be added.`);
  const url = `https://${domain}/products/${encodeURIComponent(product.handle)}`;
  const niche = nicheSlug(product.productType) || "general";
  const currencyNote = follow.store.currency && follow.store.currency !== "USD" ? ` Price as listed, in ${follow.store.currency}.` : "";
  const row = {
    objectID,
    title: product.title,
    description: `Seen on ${domain}: ${url}.${currencyNote}`,
    niches: [niche],
    tags: parseStringList(product.tags).slice(0, 50),
    images: parseStringList(product.images).filter((u) => /^https?:\/\//i.test(u)).slice(0, 20),
    supplierName: null,
    supplierUrl: null,
    costCents: null,
    priceCents: price,
    firstSeenAt: (product.publishedAt ?? product.firstSeenAt).toISOString(),
    lastUpdatedAt: at.toISOString(),
    source: { kind: "tracked-store", store: domain, addedAt: at.toISOString() },
  } satisfies TrackedStoreProductInput;
  const summary = await importProducts(db, [{ line: 1, row }], { now: at });
  if (summary.rejected.length > 0) {
    throw new AppError(422, `"${product.title}" could not be added to the product database: ${summary.rejected[0].reason}.`);
  }
  if (summary.imported > 0) await deps.onProductsAdded?.();
  return { objectID };
}
