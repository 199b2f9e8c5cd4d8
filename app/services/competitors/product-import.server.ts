// Importing a rival's product into our product database (docs/decisions/026), through the product import: its
// real title, price and images. What we did not measure stays unknown: its supplier cost is null (pages say
// "Add your cost") and it has no sales history (pages say "No sales data: imported from a tracked store on …").
import { parseStringList, type Db } from "~/db.server";
import { AppError } from "~/domain/errors";
import { productPriceCurrency } from "~/domain/catalogue/measured-product";
import { storeProductNiche, type TrackedStoreProductInput } from "~/domain/products/product-import";
import { importedObjectId, ownFollow, requirePaid, requireProduct, trackedFirstSeen, type CompetitorUser } from "~/services/competitors/shared.server";
import { importProducts } from "~/services/products/import.server";
import type { Jobs } from "~/services/jobs.server";

export interface ProductImportDeps {
  db: Db;
  now: () => Date;
  /** Where its pictures' "images.fetch" job goes: the app's job system (pg-boss on PostgreSQL, decision 102). */
  jobs?: Pick<Jobs, "enqueue">;
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
  const objectID = importedObjectId(domain, productId);
  const at = deps.now();
  const price = product.priceMinCents ?? 0;
  if (price < 1) throw new AppError(422, `"${product.title}" has no price in the store's catalogue, so it cannot be added.`);
  const url = `https://${domain}/products/${encodeURIComponent(product.handle)}`;
  const tags = parseStringList(product.tags);
  // Its store's type maps to a niche we know, or none: a store's own words never add a niche (decision 084).
  const niche = storeProductNiche(product.productType, tags);
  const currency = follow.store.currency;
  const currencyNote = currency === "USD" ? "" : currency ? ` Price as listed, in ${currency}.` : " The store publishes no currency: the price is as listed, in a currency we do not know.";
  const row = {
    objectID,
    title: product.title,
    description: `Seen on ${domain}: ${url}.${currencyNote}`,
    niches: niche ? [niche] : [],
    tags: tags.slice(0, 50),
    images: parseStringList(product.images).filter((u) => /^https?:\/\//i.test(u)).slice(0, 20),
    supplierName: null,
    supplierUrl: null,
    costCents: null,
    priceCents: price,
    // The store's currency, or UNKNOWN_CURRENCY when it publishes none: never assumed to be dollars (decision 084).
    priceCurrency: productPriceCurrency(currency),
    firstSeenAt: trackedFirstSeen(product).toISOString(),
    lastUpdatedAt: at.toISOString(),
    source: { kind: "tracked-store", store: domain, addedAt: at.toISOString() },
  } satisfies TrackedStoreProductInput;
  const summary = await importProducts(db, [{ line: 1, row }], { now: at, imageJobs: deps.jobs });
  if (summary.rejected.length > 0) {
    throw new AppError(422, `"${product.title}" could not be added to the product database: ${summary.rejected[0].reason}.`);
  }
  if (summary.imported > 0) await deps.onProductsAdded?.();
  return { objectID };
}
