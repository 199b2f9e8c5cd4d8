// What the competitor tracker records of a rival Shopify store at one moment: its public catalogue as
// /products.json (and /products/{handle}.js) publish it. The fetcher (app/integrations/shopify-storefront.server.ts)
// produces it; the derivations (app/domain/competitors/insights.ts) compare consecutive snapshots. Money is
// integer cents in the store's own currency; times are ISO strings as the store published them.

export interface VariantSnapshot {
  /** Shopify's variant id, as a string (ids exceed 2^53 on some stores). */
  id: string;
  title: string;
  sku: string | null;
  /** The variant's barcode as the store publishes it (products.json of some stores; absent when none). Decision 087. */
  barcode?: string;
  priceCents: number;
  compareAtCents: number | null;
  /** null when the store does not publish availability for this variant. */
  available: boolean | null;
}

export interface ProductSnapshot {
  /** Shopify's product id, as a string. */
  id: string;
  handle: string;
  title: string;
  productType: string;
  vendor: string;
  tags: string[];
  createdAt: string | null;
  publishedAt: string | null;
  updatedAt: string | null;
  /** Image URLs, first = main. */
  images: string[];
  variants: VariantSnapshot[];
  /** The product's options ("Size": ["S", "M"]) when it has any besides Shopify's "Title"; absent otherwise. Decision 087. */
  options?: Array<{ name: string; values: string[] }>;
}

export interface StoreSnapshot {
  /** The domain the catalogue was read from (may be the store's *.myshopify.com address). */
  domain: string;
  /** When the read finished (ISO). */
  takenAt: string;
  /** ISO 4217 code when the store publishes one; null when unknown. */
  currency: string | null;
  /** Why `currency` is unknown, in a sentence ("/meta.json answered a web page, not JSON ..."); absent when known. Decision 089. */
  currencyNote?: string;
  products: ProductSnapshot[];
  /** True when a cap (pages, bytes, products) stopped the read before the catalogue's end. */
  truncated: boolean;
  /** What the read left out of the catalogue it was sent (absent: nothing, or a snapshot rebuilt from storage). */
  leftOut?: {
    /** Entries with no product id or handle (or not an object at all). */
    unreadable: number;
    /** Products repeating an id already read in this catalogue (the first is kept). */
    repeatedIds: number;
    /** The entries the catalogue's pages listed, readable or not. */
    listed: number;
  };
  /** The caps one read works within, when one stopped it (for the sentence). */
  caps?: { maxProducts: number; maxPages: number; maxBytes: number };
}
