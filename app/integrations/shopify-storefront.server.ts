// Reads a rival Shopify store's public catalogue the way any visitor's browser could: /products.json (paginated,
// 250 a page), /products/{handle}.js where a variant's availability is missing, and /meta.json for the currency.
// It never touches carts or checkouts. Every request goes through the SSRF-safe fetcher (safe-fetch.server.ts) and
// a polite session (storefront-politeness.server.ts, decision 088): robots.txt first, one request a second a host
// shared by every reader in this process plus the store's "not before" from earlier reads, 429/503 backoff with
// Retry-After honoured, and catalogue pages asked for conditionally (a read whose every page answers 304 is
// "unchanged"). A catalogue answered with a wall for bots (403, a captcha, an HTML page) is "blocked", never an
// empty catalogue. Caps on pages, products and bytes bound one run; a capped run says so (truncated). Failures are
// classified with a sentence a seller understands (StorefrontError / ProbeResult); the service maps them to AppError.
import { classifyCatalogueAnswer, CRAWL_RULES, emptyCrawlMemory, type BlockedHow, type CrawlMemory } from "~/domain/crawl/politeness";
import type { RobotsRecord } from "~/domain/crawl/robots";
import type { ProductSnapshot, StoreSnapshot } from "~/domain/crawl/store-snapshot";
import { SafeFetchError, type SafeFetcher, type SafeResponse } from "./safe-fetch.server";
import { availabilityFromJs, parseJson, productFromJson, productsOf } from "./shopify-storefront-json.server";
import { readStoreCurrency } from "./store-currency.server";
import {
  createHostRateLimiter,
  createPoliteSession,
  realClock,
  sharedHostRateLimiter,
  type Clock,
  type HostRateLimiter,
  type PoliteAnswer,
  type PoliteSession,
} from "./storefront-politeness.server";

export type StorefrontFailure =
  | "not-shopify"
  | "unreachable"
  | "password-protected"
  | "blocked"
  | "rate-limited"
  | "refused"
  /** robots.txt forbids reading the catalogue (or could not be read, which forbids everything for now). */
  | "robots"
  /** Only from snapshot(): a later catalogue page could not be read. */
  | "bad-response";

/** What a failure knows beyond its reason: how a wall answered, what robots.txt said, when the store lets us back. */
export interface StorefrontFailureDetail {
  blockedHow?: BlockedHow;
  robots?: { kind: "disallowed"; path: string; rule: string } | { kind: "unreachable"; status: number | null };
  /** A Retry-After longer than a read waits: no request before this moment (epoch ms). */
  retryAtMs?: number;
}

export class StorefrontError extends Error {
  constructor(
    readonly reason: StorefrontFailure,
    /** A sentence for the seller. */
    message: string,
    readonly domain: string,
    readonly detail: StorefrontFailureDetail = {},
    /** What the read learnt before it failed (robots.txt, the next allowed moment), to keep for the next one. */
    readonly memory: CrawlMemory | null = null,
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
      memory?: CrawlMemory;
    }
  | { ok: false; reason: StorefrontFailure; message: string; memory?: CrawlMemory };

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
    case "robots":
      return `${domain}'s robots.txt asks crawlers like ours not to read its product catalogue, so we do not read it.`;
  }
}

// The per-host rate limit, Retry-After and robots.txt live in storefront-politeness.server.ts (decision 088).
export { createHostRateLimiter, parseRetryAfter, realClock, sharedHostRateLimiter, type Clock, type HostRateLimiter } from "./storefront-politeness.server";

// Parsing the published shapes lives in shopify-storefront-json.server.ts.
export { decimalToCents, productFromJson } from "./shopify-storefront-json.server";

// ---------------------------------------------------------------------------------------------------------
// The reader

export interface ShopifyStorefrontOptions {
  fetcher: SafeFetcher;
  /** "https:" for real stores; tests serve plain http on 127.0.0.1. */
  protocol?: "https:" | "http:";
  /** Defaults to the process-wide limiter (1 request/s a host), or one on `clock` when a clock is given. */
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
  /** Longest Retry-After waited out inside a read; a longer one ends the read (rate-limited, with retryAtMs). */
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
  maxRetryAfterMs: CRAWL_RULES.maxWaitInReadMs,
  backoffMs: 1_000,
  pageSize: 250,
} as const;

/** One read of a store with what the tracker remembers of it: a new snapshot, or "unchanged" (every page 304). */
export interface CatalogueRead {
  /** null: every catalogue page answered 304 Not Modified to its validators; the stored catalogue stands. */
  snapshot: StoreSnapshot | null;
  /** The host the catalogue answered on. */
  domain: string;
  memory: CrawlMemory;
}

export interface ShopifyStorefront {
  probe(domain: string): Promise<ProbeResult>;
  /** Throws StorefrontError when the catalogue cannot be read. */
  snapshot(domain: string): Promise<StoreSnapshot>;
  /** A read with the store's kept memory (robots.txt, validators, not-before); StorefrontError carries the memory too. */
  read(domain: string, memory: CrawlMemory): Promise<CatalogueRead>;
}

const SHOP_VAR = /Shopify\.shop\s*=\s*["']([a-z0-9][a-z0-9-]*\.myshopify\.com)["']/i;
const ANY_MYSHOPIFY = /\b([a-z0-9][a-z0-9-]*)\.myshopify\.com\b/gi;
const NOT_A_SHOP = new Set(["www", "cdn", "checkout", "admin", "accounts", "shop", "partners", "help"]);

type Validators = "send" | "keep" | "none";
type PageFailure = { ok: false; reason: StorefrontFailure; tooLarge?: boolean; detail?: StorefrontFailureDetail };
type PageRead = { ok: true; products: unknown[]; bytes: number; host: string } | { ok: "unchanged"; host: string } | PageFailure;

export function createShopifyStorefront(options: ShopifyStorefrontOptions): ShopifyStorefront {
  const fetcher = options.fetcher;
  const protocol = options.protocol ?? "https:";
  const clock = options.clock ?? realClock;
  const limiter = options.rateLimiter ?? (options.clock ? createHostRateLimiter({ clock }) : sharedHostRateLimiter);
  const cfg = { ...STOREFRONT_DEFAULTS, ...definedOnly(options) };
  const robotsCache = new Map<string, RobotsRecord>();
  // Reads with a store's memory keep robots.txt in it (the store row, shared by every process); probes and bare
  // snapshots, which have none, keep it in this process for the day.
  const session = (memory: CrawlMemory, processCache = true) =>
    createPoliteSession(
      { fetcher, protocol, clock, limiter, robotsCache: processCache ? robotsCache : new Map(), maxRetries: cfg.maxRetries, maxRetryAfterMs: cfg.maxRetryAfterMs, backoffMs: cfg.backoffMs },
      memory,
    );

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

  /** A polite answer that is not an HTTP answer: robots.txt said no, or the store asked for a long pause. */
  function notAnswered(answer: Exclude<PoliteAnswer, { kind: "answer" } | { kind: "not-modified" }>): PageFailure {
    if (answer.kind === "slow-down") return { ok: false, reason: "rate-limited", detail: { retryAtMs: answer.retryAtMs } };
    const { record, verdict, path } = answer;
    return {
      ok: false,
      reason: "robots",
      detail: { robots: record.kind === "unreachable" ? { kind: "unreachable", status: record.status } : { kind: "disallowed", path: path.split("?")[0], rule: verdict.rule?.pattern ?? "/" } },
    };
  }

  async function readPage(s: PoliteSession, host: string, page: number, validators: Validators): Promise<PageRead> {
    let answer: PoliteAnswer;
    try {
      answer = await s.get(host, `/products.json?limit=${cfg.pageSize}&page=${page}`, { accept: "application/json", maxBytes: cfg.pageMaxBytes, validators });
    } catch (error) {
      return { ok: false, reason: failureOf(error), tooLarge: error instanceof SafeFetchError && error.kind === "too-large" };
    }
    if (answer.kind === "not-modified") return { ok: "unchanged", host };
    if (answer.kind !== "answer") return notAnswered(answer);
    const res = answer.res;
    if (isPasswordPage(res)) return { ok: false, reason: "password-protected" };
    const head = res.body.subarray(0, 4096).toString("utf8");
    const kind = classifyCatalogueAnswer({ status: res.status, contentType: res.headers["content-type"] ?? "", bodyHead: head });
    if (kind.kind === "blocked") return { ok: false, reason: "blocked", detail: { blockedHow: kind.how } };
    if (res.status === 429) return { ok: false, reason: "rate-limited" };
    if (res.status >= 500) return { ok: false, reason: "unreachable" };
    if (res.status === 404) return { ok: false, reason: "blocked" };
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
  async function findMyshopifyHost(s: PoliteSession, domain: string): Promise<{ host: string | null; looksShopify: boolean }> {
    let res: SafeResponse;
    try {
      const answer = await s.get(domain, "/", { accept: "text/html", maxBytes: 2 * 1024 * 1024 });
      if (answer.kind !== "answer") return { host: null, looksShopify: false };
      res = answer.res;
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

  /**
   * Reads page 1 wherever the catalogue answers; the classified failure otherwise. `known`: a store we have read
   * before, so a wall for bots is "blocked" even when its home page hides that it is a Shopify store.
   */
  async function locate(s: PoliteSession, domain: string, known: boolean): Promise<PageRead> {
    const validators: Validators = known ? "send" : "none";
    const first = await readPage(s, domain, 1, validators);
    if (first.ok || first.reason !== "blocked") return first;
    const found = await findMyshopifyHost(s, domain);
    if (found.host && found.host !== domain) {
      const fallback = await readPage(s, found.host, 1, validators);
      if (fallback.ok) return fallback;
    }
    if (first.detail?.blockedHow && (known || found.looksShopify)) return first;
    return { ok: false, reason: found.looksShopify ? "blocked" : "not-shopify" };
  }

  async function fillAvailability(s: PoliteSession, host: string, products: ProductSnapshot[]): Promise<void> {
    let budget = cfg.maxProductJsPerRun;
    for (const product of products) {
      if (budget <= 0) return;
      if (!product.variants.some((v) => v.available === null)) continue;
      budget--;
      try {
        const answer = await s.get(host, `/products/${encodeURIComponent(product.handle)}.js`, { accept: "application/json", maxBytes: 2 * 1024 * 1024 });
        // robots.txt forbids these, or the store asked for a pause: availability stays unknown.
        if (answer.kind === "slow-down") return;
        if (answer.kind !== "answer" || answer.res.status !== 200) continue;
        const availability = availabilityFromJs(parseJson(answer.res.text()));
        for (const variant of product.variants) {
          if (variant.available === null && availability.has(variant.id)) variant.available = availability.get(variant.id)!;
        }
      } catch {
        // Availability stays unknown (null) for this product; the rest of the snapshot stands.
      }
    }
  }

  const fail = (s: PoliteSession, read: PageFailure, reason: StorefrontFailure, domain: string) =>
    new StorefrontError(reason, storefrontMessage(reason, domain), domain, read.detail ?? {}, s.memory());

  /** Every catalogue page in order; null when every page kept from the last read answered 304 (unchanged). */
  async function readCatalogue(s: PoliteSession, domain: string, memory: CrawlMemory): Promise<CatalogueRead> {
    // A store read before (it has kept something): its wall for bots is "blocked", whatever its home page says.
    const known = Object.keys(memory.validators).length > 0 || Object.keys(memory.robots).length > 0;
    const first = await locate(s, domain, known);
    if (first.ok === false) throw fail(s, first, first.reason, domain);
    const host = first.host;
    const keptPages = Object.keys(memory.validators).filter((k) => k.startsWith(`${host}/products.json?`)).length;
    let read: PageRead = first;
    let page = 1;
    // Every page answered 304 so far: walk on conditionally through the pages the last read saw.
    while (read.ok === "unchanged") {
      if (page >= keptPages) return { snapshot: null, domain: host, memory: s.memory() };
      page++;
      read = await readPage(s, host, page, "send");
    }
    if (page > 1 || read.ok !== true || first.ok !== true) {
      // A page changed after some did not: the unchanged ones carry no products, so read them all again.
      if (read.ok === false) throw fail(s, read, read.reason, domain);
      page = 1;
      read = await readPage(s, host, 1, "keep");
    }
    const byId = new Map<string, ProductSnapshot>();
    const leftOut = { unreadable: 0, repeatedIds: 0, listed: 0 };
    let bytes = 0;
    let truncated = false;
    for (;;) {
      if (read.ok !== true) {
        const failure: PageFailure = read.ok === false ? read : { ok: false, reason: "bad-response" };
        const reason = failure.reason === "not-shopify" || (failure.reason === "blocked" && !failure.detail?.blockedHow) ? "bad-response" : failure.reason;
        throw fail(s, failure, reason, domain);
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
      read = await readPage(s, host, page, "keep");
      if (read.ok === false && read.tooLarge) {
        // A page over the per-page byte cap: keep what we have, and say it is partial.
        truncated = true;
        break;
      }
    }
    const products = [...byId.values()];
    await fillAvailability(s, host, products);
    // The currency from /meta.json, else /cart.js; unknown stays null with the sentence saying why (decision 089).
    const { currency, note: currencyNote } = await readStoreCurrency(s, host);
    const kept = s.memory();
    // Validators of pages past this read's last one belong to a longer catalogue: forget them.
    for (const key of Object.keys(kept.validators)) {
      const n = /^(.*)\/products\.json\?limit=\d+&page=(\d+)$/.exec(key);
      if (n && (n[1] !== host || Number(n[2]) > page || truncated)) delete kept.validators[key];
    }
    return {
      snapshot: {
        domain: host,
        takenAt: new Date(clock.now()).toISOString(),
        currency,
        ...(currencyNote ? { currencyNote } : {}),
        products,
        truncated,
        leftOut,
        ...(truncated ? { caps: { maxProducts: cfg.maxProducts, maxPages: cfg.maxPages, maxBytes: cfg.maxBytes } } : {}),
      },
      domain: host,
      memory: kept,
    };
  }

  return {
    async probe(domain) {
      const s = session(emptyCrawlMemory());
      const read = await locate(s, domain, false);
      if (read.ok === false) return { ok: false, reason: read.reason, message: storefrontMessage(read.reason, domain), memory: s.memory() };
      return { ok: true, domain: read.host, firstPageProducts: read.ok === true ? read.products.length : 0, memory: s.memory() };
    },

    async snapshot(domain) {
      const result = await readCatalogue(session(emptyCrawlMemory()), domain, emptyCrawlMemory());
      return result.snapshot!;
    },

    read(domain, memory) {
      return readCatalogue(session(memory, false), domain, memory);
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
