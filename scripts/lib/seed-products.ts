// The first start's catalogue: when the product table is empty, 3,000 generated products (seed 42,
// history up to yesterday) go in through the normal import, so `npm start` shows a real catalogue.
// A catalogue that already has products is left alone.
import type { Db } from "~/db.server";
import type { ImportSummary } from "~/services/products/import.server";
import { importGeneratedProducts } from "./generated-import";
import { defaultEndDay } from "./product-generator";

export const SEED_PRODUCT_COUNT = 3000;
export const SEED_PRODUCT_SEED = 42;

export async function seedProductsIfEmpty(db: Db, now = new Date()): Promise<ImportSummary | null> {
  if ((await db.product.count()) > 0) return null;
  return importGeneratedProducts(db, SEED_PRODUCT_COUNT, { seed: SEED_PRODUCT_SEED, endDay: defaultEndDay(now) }, { now, threads: 1 });
}
