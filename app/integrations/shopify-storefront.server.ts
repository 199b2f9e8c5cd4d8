// Reads a rival Shopify store's public catalogue the way any visitor's browser could: /products.json (paginated,
// 250 a page), /products/{handle}.js where a variant's availability is missing, and /meta.json for the currency.
// It never touches carts or checkouts. Every request goes through the SSRF-safe fetcher (safe-fetch.server.ts),
// waits its turn in a per-host rate limit shared by every reader in this process (default 2 requests/s a host),
// and backs off on 429 (honouring Retry-After, capped) and on 5xx. Caps on pages, products and bytes bound one
// run; a capped run says so (truncated). Failures are classified with a sentence a seller understands
// (StorefrontError / ProbeResult); the service maps them to AppError.
import type { ProductSnapshot, StoreSnapshot, VariantSnapshot } from "~/domain/crawl/store-snapshot";
import { SafeFetchError, type SafeFetcher, type SafeResponse } from "./safe-fetch.server";

export type StorefrontFailure =
  | "not-shopify"
  | "unreachable"
  | "password-protected"
  | "blocked"
  | "rate-limited"
  | "refused"
  /** Only from snapshot(): a later catalogue page could not be read. */
  | "bad-response";

export class StorefrontError extends Error {
  constructor(
    readonly reason: StorefrontFailure,
    /** A sentence for the seller. */
    message: string,
    readonly domain: string,
  ) {
    super(message);
    this.name = "StorefrontError";
  }
}

export type ProbeResult =
  | {
      ok: true;
      /** The host the catalogue answers on: the one asked for, where it redirects, or its *.myshopify.com address. */
      domain: string;
      /** Products on the first page (at most 250). */
      firstPageProducts: number;
    }
  | { ok: false; reason: StorefrontFailure; message: string };

export function storefrontMessage(reason: StorefrontFailure, domain: string): string {
  switch (reason) {
    case "not-shopify":
      return `${domain} does not look like a Shopify store: it has no public product catalogue.`;
    case "unreachable":
      return `We could not reach ${domain}. Check the address; if it is right, the site may be down, so try again later.`;
    case "password-protected":
      return `${domain} is password-protected, so its catalogue is not public yet. Try again once the store opens.`;
    case "blocked":
      return `${domain} hides its product catalogue from outside readers, and we could not find another public address for it.`;
    case "rate-limited":
      return `${domain} asked us to slow down. We will try again later.`;
    case "refused":
      return `We cannot read ${domain}: it points to a private or internal network address, not a public store.`;
    case "bad-response":
      return `${domain} sent a catalogue page we could not read. We will try again later.`;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Per-host rate limit

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export interface HostRateLimiter {
  /** Resolves when this host may be sent one more request. */
  acquire(host: string): Promise<void>;
  /** No request to this host before `untilMs` (after a 429 or a 5xx). */
  pushBack(host: string, untilMs: number): void;
}

/** Spaces requests to one host at least 1000/requestsPerSecond ms apart, across every caller sharing it. */
export function createHostRateLimiter(options: { requestsPerSecond?: number; clock?: Clock } = {}): HostRateLimiter {
  const clock = options.clock ?? realClock;
  const interval = 1000 / (options.requestsPerSecond ?? 2);
  const nextSlot = new Map<string, number>();
  const prune = (now: number) => {
    if (nextSlot.size < 1000) return;
    for (const [host, slot] of nextSlot) if (slot < now) nextSlot.delete(host);
  };
  return {
    async acquire(host) {
      const now = clock.now();
      prune(now);
      const slot = Math.max(now, nextSlot.get(host) ?? 0);
      nextSlot.set(host, slot + interval);
      if (slot > now) await clock.sleep(slot - now);
    },
    pushBack(host, untilMs) {
      nextSlot.set(host, Math.max(nextSlot.get(host) ?? 0, untilMs));
    },
  };
}

/** The one limiter every storefront reader in this process shares unless given another. */
export const sharedHostRateLimiter = createHostRateLimiter({ requestsPerSecond: 2 });

/** Retry-After as milliseconds from now: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}

// ---------------------------------------------------------------------------------------------------------
// Parsing the published shapes

const BIG_ID = /("id"\s*:\s*)(\d{16,})/g;

/** JSON.parse, keeping ids beyond 2^53 exact by reading them as strings. */
function parseJson(text: string): unknown {
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
function availabilityFromJs(raw: unknown): Map<string, boolean> {
  const out = new Map<string, boolean>();
  const variants = (raw as { variants?: unknown } | null)?.variants;
  for (const v of Array.isArray(variants) ? variants : []) {
    const id = idString((v as { id?: unknown })?.id);
    const available = (v as { available?: unknown })?.available;
    if (id && typeof available === "boolean") out.set(id, available);
  }
  return out;
}

function productsOf(body: unknown): unknown[] | null {
  const products = (body as { products?: unknown } | null)?.products;
  return body && typeof body === "object" && Array.isArray(products) ? products : null;
}

// ---------------------------------------------------------------------------------------------------------
// The reader

export interface ShopifyStorefrontOptions {
  fetcher: SafeFetcher;
  /** "https:" for real stores; tests serve plain http on 127.0.0.1. */
  protocol?: "https:" | "http:";
  /** Defaults to the process-wide limiter (2 requests/s a host), or one on `clock` when a clock is given. */
  rateLimiter?: HostRateLimiter;
  clock?: Clock;
  maxPages?: number;
  maxProducts?: number;
  /** Total bytes (decompressed) read for one snapshot's catalogue pages. */
  maxBytes?: number;
  /** Cap on one page. */
  pageMaxBytes?: number;
  /** /products/{handle}.js reads per snapshot, for products whose availability is missing. */
  maxProductJsPerRun?: number;
  /** Retries after a 429 or a 5xx (network errors are retried once). */
  maxRetries?: number;
  /** Longest Retry-After we honour; longer ones wait this long. */
  maxRetryAfterMs?: number;
  /** First backoff after a 5xx or a network error; doubles each retry. */
  backoffMs?: number;
}

export const STOREFRONT_DEFAULTS = {
  maxPages: 40,
  maxProducts: 10_000,
  maxBytes: 100 * 1024 * 1024,
  pageMaxBytes: 10 * 1024 * 1024,
  maxProductJsPerRun: 25,
  maxRetries: 3,
  maxRetryAfterMs: 60_000,
  backoffMs: 1_000,
  pageSize: 250,
} as const;

export interface ShopifyStorefront {
  probe(domain: string): Promise<ProbeResult>;
  /** Throws StorefrontError when the catalogue cannot be read. */
  snapshot(domain: string): Promise<StoreSnapshot>;
}

const SHOP_VAR = /Shopify\.shop\s*=\s*["']([a-z0-9][a-z0-9-]*\.myshopify\.com)["']/i;
const ANY_MYSHOPIFY = /\b([a-z0-9][a-z0-9-]*)\.myshopify\.com\b/gi;
const NOT_A_SHOP = new Set(["www", "cdn", "checkout", "admin", "accounts", "shop", "partners", "help"]);

type PageRead =
  | { ok: true; products: unknown[]; bytes: number; host: string }
  | { ok: false; reason: StorefrontFailure; tooLarge?: boolean };

export function createShopifyStorefront(options: ShopifyStorefrontOptions): ShopifyStorefront {
  const fetcher = options.fetcher;
  const protocol = options.protocol ?? "https:";
  const clock = options.clock ?? realClock;
  const limiter = options.rateLimiter ?? (options.clock ? createHostRateLimiter({ clock }) : sharedHostRateLimiter);
  const cfg = { ...STOREFRONT_DEFAULTS, ...definedOnly(options) };

  /** One GET with the rate limit, 429/5xx backoff and one retry of network errors. */
  async function get(host: string, path: string, accept: string, maxBytes: number): Promise<SafeResponse> {
    let networkRetried = false;
    for (let attempt = 0; ; attempt++) {
      await limiter.acquire(host);
      let res: SafeResponse;
      try {
        res = await fetcher.fetch(`${protocol}//${host}${path}`, { headers: { accept }, maxBytes });
      } catch (error) {
        const transient = error instanceof SafeFetchError && (error.kind === "unreachable" || error.kind === "timeout");
        if (transient && !networkRetried) {
          networkRetried = true;
          limiter.pushBack(host, clock.now() + cfg.backoffMs);
          continue;
        }
        throw error;
      }
      if (attempt >= cfg.maxRetries) return res;
      if (res.status === 429) {
        const wait = Math.min(parseRetryAfter(res.headers["retry-after"], clock.now()) ?? cfg.backoffMs * 2 ** attempt, cfg.maxRetryAfterMs);
        limiter.pushBack(host, clock.now() + wait);
        continue;
      }
      if (res.status >= 500) {
        limiter.pushBack(host, clock.now() + cfg.backoffMs * 2 ** attempt);
        continue;
      }
      return res;
    }
  }

  function failureOf(error: unknown): StorefrontFailure {
    if (!(error instanceof SafeFetchError)) throw error;
    switch (error.kind) {
      case "refused":
        return "refused";
      case "too-large":
      case "bad-response":
        return "not-shopify";
      default:
        return "unreachable";
    }
  }

  const isPasswordPage = (res: SafeResponse) =>
    res.status === 401 ||
    res.hops.some((hop) => new URL(hop).pathname.replace(/\/+$/, "") === "/password") ||
    (res.status === 200 && /<form[^>]+action=["'][^"']*\/password["']/i.test(res.body.subarray(0, 200_000).toString("utf8")));

  async function readPage(host: string, page: number): Promise<PageRead> {
    let res: SafeResponse;
    try {
      res = await get(host, `/products.json?limit=${cfg.pageSize}&page=${page}`, "application/json", cfg.pageMaxBytes);
    } catch (error) {
      return { ok: false, reason: failureOf(error), tooLarge: error instanceof SafeFetchError && error.kind === "too-large" };
    }
    if (isPasswordPage(res)) return { ok: false, reason: "password-protected" };
    if (res.status === 429) return { ok: false, reason: "rate-limited" };
    if (res.status >= 500) return { ok: false, reason: "unreachable" };
    if (res.status === 403 || res.status === 404) return { ok: false, reason: "blocked" };
    if (res.status !== 200) return { ok: false, reason: "not-shopify" };
    let products: unknown[] | null = null;
    try {
      products = productsOf(parseJson(res.text()));
    } catch {
      products = null;
    }
    if (!products) return { ok: false, reason: "not-shopify" };
    return { ok: true, products, bytes: res.body.length, host: new URL(res.url).host };
  }

  /** The store's *.myshopify.com address, from its home page (redirect, Shopify.shop, any mention). */
  async function findMyshopifyHost(domain: string): Promise<{ host: string | null; looksShopify: boolean }> {
    let res: SafeResponse;
    try {
      res = await get(domain, "/", "text/html", 2 * 1024 * 1024);
    } catch {
      return { host: null, looksShopify: false };
    }
    const port = domain.includes(":") ? `:${domain.split(":")[1]}` : "";
    const finalHost = new URL(res.url).hostname;
    const html = res.text();
    const looksShopify =
      Boolean(res.headers["x-shopid"] || res.headers["x-shopify-stage"]) ||
      /shopify/i.test(res.headers["powered-by"] ?? "") ||
      /cdn\.shopify\.com|Shopify\.shop|myshopify\.com/i.test(html);
    if (finalHost.endsWith(".myshopify.com")) return { host: `${finalHost}${port}`, looksShopify: true };
    const named = SHOP_VAR.exec(html)?.[1];
    if (named) return { host: `${named.toLowerCase()}${port}`, looksShopify: true };
    for (const match of html.matchAll(ANY_MYSHOPIFY)) {
      const sub = match[1].toLowerCase();
      if (!NOT_A_SHOP.has(sub)) return { host: `${sub}.myshopify.com${port}`, looksShopify: true };
    }
    return { host: null, looksShopify };
  }

  /** Reads page 1 wherever the catalogue answers; the classified failure otherwise. */
  async function locate(domain: string): Promise<PageRead> {
    const first = await readPage(domain, 1);
    if (first.ok || first.reason !== "blocked") return first;
    const found = await findMyshopifyHost(domain);
    if (found.host && found.host !== domain) {
      const fallback = await readPage(found.host, 1);
      if (fallback.ok) return fallback;
    }
    return { ok: false, reason: found.looksShopify ? "blocked" : "not-shopify" };
  }

  async function readCurrency(host: string): Promise<string | null> {
    try {
      const res = await get(host, "/meta.json", "application/json", 256 * 1024);
      if (res.status !== 200) return null;
      const currency = (parseJson(res.text()) as { currency?: unknown } | null)?.currency;
      return typeof currency === "string" && /^[A-Z]{3}$/.test(currency) ? currency : null;
    } catch {
      return null;
    }
  }

  async function fillAvailability(host: string, products: ProductSnapshot[]): Promise<void> {
    let budget = cfg.maxProductJsPerRun;
    for (const product of products) {
      if (budget <= 0) return;
      if (!product.variants.some((v) => v.available === null)) continue;
      budget--;
      try {
        const res = await get(host, `/products/${encodeURIComponent(product.handle)}.js`, "application/json", 2 * 1024 * 1024);
        if (res.status !== 200) continue;
        const availability = availabilityFromJs(parseJson(res.text()));
        for (const variant of product.variants) {
          if (variant.available === null && availability.has(variant.id)) variant.available = availability.get(variant.id)!;
        }
      } catch {
        // Availability stays unknown (null) for this product; the rest of the snapshot stands.
      }
    }
  }

  return {
    async probe(domain) {
      const read = await locate(domain);
      if (!read.ok) return { ok: false, reason: read.reason, message: storefrontMessage(read.reason, domain) };
      return { ok: true, domain: read.host, firstPageProducts: read.products.length };
    },

    async snapshot(domain) {
      const first = await locate(domain);
      if (!first.ok) throw new StorefrontError(first.reason, storefrontMessage(first.reason, domain), domain);
      const host = first.host;
      const byId = new Map<string, ProductSnapshot>();
      const leftOut = { unreadable: 0, repeatedIds: 0, listed: 0 };
      let bytes = 0;
      let truncated = false;
      let page = 1;
      let read: PageRead = first;
      for (;;) {
        if (!read.ok) {
          const reason = read.reason === "not-shopify" || read.reason === "blocked" ? "bad-response" : read.reason;
          throw new StorefrontError(reason, storefrontMessage(reason, domain), domain);
        }
        bytes += read.bytes;
        if (read.products.length === 0) break;
        for (const raw of read.products) {
          const product = productFromJson(raw);
          if (product && byId.size >= cfg.maxProducts && !byId.has(product.id)) {
            truncated = true;
            break;
          }
          leftOut.listed++;
          if (!product) leftOut.unreadable++;
          // A repeated id (a broken app or a page that shifted while we read): the first one read is kept.
          else if (byId.has(product.id)) leftOut.repeatedIds++;
          else byId.set(product.id, product);
        }
        if (truncated) break;
        if (page >= cfg.maxPages || bytes >= cfg.maxBytes) {
          truncated = true;
          break;
        }
        page++;
        read = await readPage(host, page);
        if (!read.ok && read.tooLarge) {
          // A page over the per-page byte cap: keep what we have, and say it is partial.
          truncated = true;
          break;
        }
      }
      const products = [...byId.values()];
      await fillAvailability(host, products);
      const currency = await readCurrency(host);
      return {
        domain: host,
        takenAt: new Date(clock.now()).toISOString(),
        currency,
        products,
        truncated,
        leftOut,
        ...(truncated ? { caps: { maxProducts: cfg.maxProducts, maxPages: cfg.maxPages, maxBytes: cfg.maxBytes } } : {}),
      };
    },
  };
}

function definedOnly(options: ShopifyStorefrontOptions): Partial<typeof STOREFRONT_DEFAULTS> {
  const out: Record<string, number> = {};
  for (const key of Object.keys(STOREFRONT_DEFAULTS) as (keyof typeof STOREFRONT_DEFAULTS)[]) {
    const value = (options as unknown as Record<string, unknown>)[key];
    if (typeof value === "number") out[key] = value;
  }
  return out;
}
