// Product pages (seed product_pages, automatic-mode): generate a page for a research product with the AI text
// adapter, keep it in the user's list, let the merchant edit it, push it to one of the user's connected
// Shopify stores as a draft product (productSet), and automatic mode, which does generate + push in one step
// for 4 credits, refunded when it fails. Composed from its jobs in app/services/product-pages/, each a module
// of plain functions taking its dependencies first:
// - views.server.ts: the rows and a page as it is shown; every query is scoped to the user;
// - writing.server.ts: generate (one credit, refunded when the writer fails), edit, remove;
// - stores.server.ts: the connected stores and the access to one (tokens only through the resolver given
//   here, docs/decisions/015);
// - push.server.ts: a page to Shopify; automatic-mode.server.ts: generate + push, charged once.
import type { Db } from "~/db.server";
import type { AiText, ProductFacts } from "~/integrations/ai-text.server";
import type { ShopifyProductWriter } from "~/integrations/shopify-admin.server";
import { childLogger } from "~/logger.server";
import { bindDb, bindDeps } from "~/services/bind";
import { runAutomaticMode } from "~/services/product-pages/automatic-mode.server";
import { push } from "~/services/product-pages/push.server";
import { listStores, type StoreAccessResolver } from "~/services/product-pages/stores.server";
import { getPage, listPages } from "~/services/product-pages/views.server";
import { generate, remove, update } from "~/services/product-pages/writing.server";

export { AUTOMATIC_MODE_FEATURE, type AutomaticResult } from "~/services/product-pages/automatic-mode.server";
export type { Pushed } from "~/services/product-pages/push.server";
export { storeAccessFrom, type LinkedStore, type StoreAccess, type StoreAccessResolver } from "~/services/product-pages/stores.server";
export type { ProductPageView, StoreSummary } from "~/services/product-pages/views.server";
export { GENERATE_FEATURE } from "~/services/product-pages/writing.server";

export interface ProductPagesDeps {
  db: Db;
  ai: AiText;
  resolveStoreAccess: StoreAccessResolver;
  /** Writes a product into a store (the Shopify Admin adapter's shopifyProductWriter). */
  writeProduct: ShopifyProductWriter;
  /** The app's public URL, to make local image paths absolute for Shopify; null when there is none. */
  publicUrl: string | null;
  /** A page left "pushing" longer than this (a crashed process) may be pushed again. Default 5 min. */
  stalePushMs?: number;
  /** The user's default brand kit's voice (tone, name, tagline) for the writer (decision 033); none by default. */
  voiceFor?: (userId: string) => Promise<ProductFacts["voice"]>;
}

export function createProductPages(deps: ProductPagesDeps) {
  if (!deps.publicUrl) {
    // Sellers read "this site has no public URL yet" next to the skipped images; the setting is named here.
    childLogger("product-pages").warn(
      "no public URL (APP_URL or SHOPIFY_APP_URL): images stored on this server are not sent to Shopify with pushed pages",
    );
  }
  const resolved = { ...deps, stalePushMs: deps.stalePushMs ?? 5 * 60_000 };
  return {
    ...bindDeps(resolved, { list: listPages, get: getPage, generate, update, push, runAutomaticMode }),
    ...bindDb(deps.db, { listStores, remove }),
    writer: deps.ai.writer,
  };
}

export type ProductPages = ReturnType<typeof createProductPages>;
