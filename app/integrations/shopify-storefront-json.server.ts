// The shapes a Shopify storefront publishes to any visitor, read into our snapshot (decision 023): /products.json's
// products (money as decimal strings, ids beyond 2^53 kept exact), /products/{handle}.js's per-variant availability.
// Pure parsing, split from the reader (shopify-storefront.server.ts) so each stays one job.
import type { ProductSnapshot, VariantSnapshot } from "~/domain/crawl/store-snapshot";

const BIG_ID = /("id"\s*:\s*)(\d{16,})/g;

/** JSON.parse, keeping ids beyond 2^53 exact by reading them as strings. */
export function parseJson(text: string): unknown {
  return JSON.parse(text.replace(BIG_ID, '$1"$2"'));
}

function str(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function idString(value: unknown): string | null {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "string" && /^\d+$/.test(value)) return value;
  return null;
}

/** "19.99" (products.json publishes money as decimal strings) → 1999; null when unreadable. */
export function decimalToCents(value: unknown): number | null {
  if (typeof value === "number" && Number.isFinite(value) && value >= 0) return Math.round(value * 100);
  if (typeof value !== "string") return null;
  const match = /^\s*(\d{1,12})(?:\.(\d{0,2})\d*)?\s*$/.exec(value);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

function imageUrl(value: unknown): string | null {
  const src = typeof value === "string" ? value : str((value as { src?: unknown } | null)?.src);
  if (!src) return null;
  return src.startsWith("//") ? `https:${src}` : src;
}

function tagList(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((t): t is string => typeof t === "string").map((t) => t.trim()).filter(Boolean);
  if (typeof value === "string") return value.split(",").map((t) => t.trim()).filter(Boolean);
  return [];
}

/** One product of /products.json, or null when it lacks what identifies a product. */
export function productFromJson(raw: unknown): ProductSnapshot | null {
  if (!raw || typeof raw !== "object") return null;
  const p = raw as Record<string, unknown>;
  const id = idString(p.id);
  const handle = str(p.handle);
  if (!id || !handle) return null;
  const variants: VariantSnapshot[] = [];
  for (const v of Array.isArray(p.variants) ? p.variants : []) {
    if (!v || typeof v !== "object") continue;
    const variant = v as Record<string, unknown>;
    const variantId = idString(variant.id);
    const priceCents = decimalToCents(variant.price);
    if (!variantId || priceCents === null) continue;
    variants.push({
      id: variantId,
      title: str(variant.title) ?? "",
      sku: str(variant.sku) || null,
      ...(str(variant.barcode)?.trim() ? { barcode: str(variant.barcode)!.trim().slice(0, 64) } : {}),
      priceCents,
      compareAtCents: decimalToCents(variant.compare_at_price),
      available: typeof variant.available === "boolean" ? variant.available : null,
    });
  }
  const options = optionList(p.options);
  return {
    id,
    handle,
    title: str(p.title) ?? handle,
    productType: str(p.product_type) ?? "",
    vendor: str(p.vendor) ?? "",
    tags: tagList(p.tags),
    createdAt: str(p.created_at),
    publishedAt: str(p.published_at),
    updatedAt: str(p.updated_at),
    images: (Array.isArray(p.images) ? p.images : []).map(imageUrl).filter((u): u is string => u !== null),
    variants,
    ...(options.length > 0 ? { options } : {}),
  };
}

/** A product's options, without Shopify's "Title" / "Default Title": at most 3, 100 values each, 100 characters a value. */
function optionList(value: unknown): Array<{ name: string; values: string[] }> {
  if (!Array.isArray(value)) return [];
  const out: Array<{ name: string; values: string[] }> = [];
  for (const o of value.slice(0, 3)) {
    const name = str((o as { name?: unknown } | null)?.name)?.trim().slice(0, 100);
    const raw = (o as { values?: unknown } | null)?.values;
    const values = (Array.isArray(raw) ? raw : []).filter((v): v is string => typeof v === "string" && v.trim() !== "").slice(0, 100).map((v) => v.trim().slice(0, 100));
    if (!name || name.toLowerCase() === "title" || values.length === 0) continue;
    out.push({ name, values });
  }
  return out;
}

/** variant id → availability, from /products/{handle}.js. */
export function availabilityFromJs(raw: unknown): Map<string, boolean> {
  const out = new Map<string, boolean>();
  const variants = (raw as { variants?: unknown } | null)?.variants;
  for (const v of Array.isArray(variants) ? variants : []) {
    const id = idString((v as { id?: unknown })?.id);
    const available = (v as { available?: unknown })?.available;
    if (id && typeof available === "boolean") out.set(id, available);
  }
  return out;
}

export function productsOf(body: unknown): unknown[] | null {
  const products = (body as { products?: unknown } | null)?.products;
  return body && typeof body === "object" && Array.isArray(products) ? products : null;
}
