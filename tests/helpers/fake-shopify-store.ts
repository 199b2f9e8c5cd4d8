// Stand-in for Shopify storefronts on 127.0.0.1 (node:http). One server plays several stores, told apart by the
// Host header ("store.test", "store-test.myshopify.com", ...; tests resolve those names to 127.0.0.1 through the
// fetcher's injectable lookup). Each store publishes what real Shopify stores publish to any visitor:
//   GET /products.json?limit=N&page=P  { products: [...] } with Shopify's field names (limit 30 by default, 250 max;
//                                      an empty page past the end), variants' price as "19.99" strings
//   GET /products/{handle}.js          the product with prices in cents and per-variant `available`
//   GET /products/{handle}             the product's theme page, with schema.org Product JSON-LD carrying
//                                      aggregateRating.reviewCount when `reviews` has the handle (or `productPage`'s HTML)
//   GET /meta.json                     { name, currency, myshopify_domain, ... }
//   GET /                              a theme page carrying `Shopify.shop = "x.myshopify.com"`
//   GET /password                      the password page (a password-protected store redirects everything here)
//   GET /robots.txt                    the store's `robotsTxt` (404 when null, as a site without one)
// With `etags`, catalogue pages carry an ETag and answer 304 to a matching If-None-Match.
// Tests change `shop.products` between snapshots (launches, removals, price changes, restocks), switch a store's
// mode (password, 401, blocked, not Shopify), or queue one-shot steps per path (429 with Retry-After, 5xx, a slow
// answer, a redirect, malformed JSON, an endless body). Every request is recorded.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";

export interface FakeVariant {
  id: number;
  title: string;
  price: string;
  compare_at_price: string | null;
  /** Omitted from /products.json when the shop does not publish availability. */
  available: boolean;
  sku: string;
}

export interface FakeProduct {
  id: number;
  title: string;
  handle: string;
  body_html: string;
  published_at: string;
  created_at: string;
  updated_at: string;
  vendor: string;
  product_type: string;
  tags: string[];
  variants: FakeVariant[];
  images: { src: string }[];
}

export type ShopMode =
  /** A normal open store. */
  | "open"
  /** Everything redirects to /password (Shopify's storefront password). */
  | "password"
  /** /products.json answers 401. */
  | "unauthorized"
  /** /products.json, /products/*.js and product pages answer 403 (a bot wall on the custom domain). */
  | "blocked"
  /** /products.json answers 404 (an app hides it); the theme page still mentions the myshopify address. */
  | "hidden";

export interface FakeShop {
  name: string;
  products: FakeProduct[];
  currency: string;
  myshopifyDomain: string;
  mode: ShopMode;
  /** When false, /products.json variants carry no `available` (only /products/{handle}.js has it). */
  publishAvailability: boolean;
  /** Served at /robots.txt; null: 404 (no robots.txt). */
  robotsTxt: string | null;
  /** Catalogue pages carry an ETag (a hash of the page) and answer 304 Not Modified to a matching If-None-Match. */
  etags: boolean;
  /** handle -> the reviewCount its product page's JSON-LD publishes (a number, or text such as "1,234"). */
  reviews: Map<string, unknown>;
  /** The whole HTML of a product's page, instead of the default theme page (null: 404). */
  productPage?: (product: FakeProduct) => string | null;
}

/** A theme's product page: its Product JSON-LD, with the review app's aggregateRating when there is a count. */
export function productPageHtml(shopName: string, p: FakeProduct, reviewCount: unknown): string {
  const ld = {
    "@context": "http://schema.org/",
    "@type": "Product",
    name: p.title,
    url: `https://${shopName}/products/${p.handle}`,
    brand: { "@type": "Brand", name: p.vendor },
    offers: p.variants.map((v) => ({ "@type": "Offer", price: v.price, availability: v.available ? "http://schema.org/InStock" : "http://schema.org/OutOfStock" })),
    ...(reviewCount === undefined ? {} : { aggregateRating: { "@type": "AggregateRating", ratingValue: "4.7", reviewCount } }),
  };
  return `<!doctype html><html><head><title>${p.title}</title><script type="application/ld+json">${JSON.stringify(ld)}</script></head><body><h1>${p.title}</h1></body></html>`;
}

export type FakeStep =
  | { kind: "status"; status: number; body?: string; headers?: Record<string, string> }
  | { kind: "redirect"; location: string; status?: number }
  | { kind: "hang"; ms: number }
  | { kind: "endless" }
  | { kind: "gzip"; body: string }
  | { kind: "raw"; body: string; contentType?: string };

export interface RecordedShopRequest {
  host: string;
  path: string;
  at: number;
  headers: IncomingMessage["headers"];
}

export interface FakeShopifyStore {
  port: number;
  /** "http://127.0.0.1:PORT". */
  origin: string;
  shops: Map<string, FakeShop>;
  /** Adds (or replaces) a store answering on this host name (no port). */
  addShop(host: string, shop?: Partial<FakeShop>): FakeShop;
  /** One-shot answers for `host` + `pathname`, used in order before the store's normal answer. */
  queue(host: string, pathname: string, ...steps: FakeStep[]): void;
  requests: RecordedShopRequest[];
  /** Requests answered per path kind ("/robots.txt", "/products.json", "/meta.json", ...), counted even with `record: false`. */
  counted: Map<string, number>;
  /** Pictures served at /pictures/{name} on every host (a store's product images), as JPEG bytes. */
  pictures: Map<string, Buffer>;
  /** Bytes written by "endless" answers, and whether the client hung up on them. */
  endless: { bytesWritten: number; clientClosed: boolean };
  close(): Promise<void>;
}

const NOT_FOUND_HTML = "<!doctype html><title>404 Not Found</title><h1>Not Found</h1>";

export function makeProduct(n: number, overrides: Partial<FakeProduct> = {}): FakeProduct {
  const id = 7_000_000_000_000 + n;
  const handle = `product-${n}`;
  const day = `2026-${String((n % 12) + 1).padStart(2, "0")}-${String((n % 28) + 1).padStart(2, "0")}`;
  return {
    id,
    title: `Product ${n}`,
    handle,
    body_html: `<p>The number ${n} product. Ships in 3 days.</p>`,
    published_at: `${day}T10:00:00-05:00`,
    created_at: `${day}T09:00:00-05:00`,
    updated_at: `${day}T11:00:00-05:00`,
    vendor: n % 2 ? "Acme" : "Globex",
    product_type: n % 3 ? "Pet Supplies" : "Home",
    tags: ["new", `batch-${n % 10}`],
    variants: [
      { id: 40_000_000_000_000 + n * 10, title: "Small", price: `${10 + (n % 50)}.99`, compare_at_price: `${20 + (n % 50)}.00`, available: true, sku: `SKU-${n}-S` },
      { id: 40_000_000_000_000 + n * 10 + 1, title: "Large", price: `${15 + (n % 50)}.50`, compare_at_price: null, available: n % 4 !== 0, sku: `SKU-${n}-L` },
    ],
    images: [{ src: `https://cdn.shopify.com/s/files/1/0000/0001/products/${handle}.jpg?v=1` }],
    ...overrides,
  };
}

export function makeCatalogue(count: number, start = 1): FakeProduct[] {
  return Array.from({ length: count }, (_, i) => makeProduct(start + i));
}

function cents(price: string | null): number | null {
  return price === null ? null : Math.round(Number(price) * 100);
}

function productJs(p: FakeProduct) {
  return {
    id: p.id,
    title: p.title,
    handle: p.handle,
    description: p.body_html,
    published_at: p.published_at,
    created_at: p.created_at,
    vendor: p.vendor,
    type: p.product_type,
    tags: p.tags,
    price: cents(p.variants[0]?.price ?? null),
    available: p.variants.some((v) => v.available),
    variants: p.variants.map((v) => ({
      id: v.id,
      title: v.title,
      price: cents(v.price),
      compare_at_price: cents(v.compare_at_price),
      available: v.available,
      sku: v.sku,
    })),
    images: p.images.map((i) => i.src.replace(/^https:/, "")),
  };
}

/**
 * `port`: a fixed port (the e2e server is told which one it may reach before the test starts); 0 picks a free one.
 * `latencyMs`: how long each store answer waits before it is sent (drawn per request), as a real store far away
 * would (`npm run bench -- crawl`). `record: false` keeps no request list (a long bench makes hundreds of thousands).
 */
export async function startFakeShopifyStore(options: { port?: number; latencyMs?: () => number; record?: boolean } = {}): Promise<FakeShopifyStore> {
  const shops = new Map<string, FakeShop>();
  const steps = new Map<string, FakeStep[]>();
  const requests: RecordedShopRequest[] = [];
  const counted = new Map<string, number>();
  const endless = { bytesWritten: 0, clientClosed: false };
  const pictures = new Map<string, Buffer>();

  const send = (res: ServerResponse, status: number, body: string, contentType = "application/json; charset=utf-8", headers: Record<string, string> = {}) => {
    res.writeHead(status, { "content-type": contentType, "content-length": Buffer.byteLength(body), ...headers });
    res.end(body);
  };

  function runStep(step: FakeStep, req: IncomingMessage, res: ServerResponse) {
    switch (step.kind) {
      case "status":
        return send(res, step.status, step.body ?? "", step.headers?.["content-type"] ?? "text/html; charset=utf-8", step.headers);
      case "redirect":
        res.writeHead(step.status ?? 302, { location: step.location, "content-length": "0" });
        return res.end();
      case "raw":
        return send(res, 200, step.body, step.contentType);
      case "gzip": {
        const zipped = gzipSync(step.body);
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip", "content-length": zipped.length });
        return res.end(zipped);
      }
      case "hang": {
        const timer = setTimeout(() => send(res, 200, JSON.stringify({ products: [] })), step.ms);
        res.on("close", () => clearTimeout(timer));
        return;
      }
      case "endless": {
        res.writeHead(200, { "content-type": "application/json" });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        let closed = false;
        res.on("close", () => {
          closed = true;
          endless.clientClosed = true;
        });
        const pump = () => {
          while (!closed) {
            endless.bytesWritten += chunk.length;
            if (!res.write(chunk)) {
              res.once("drain", pump);
              return;
            }
          }
        };
        pump();
        return;
      }
    }
    void req;
  }

  function answerShop(shop: FakeShop, url: URL, res: ServerResponse, req: IncomingMessage) {
    const path = url.pathname;
    if (path === "/robots.txt") {
      return shop.robotsTxt === null ? send(res, 404, NOT_FOUND_HTML, "text/html") : send(res, 200, shop.robotsTxt, "text/plain; charset=utf-8");
    }
    if (shop.mode === "password" && path !== "/password") {
      res.writeHead(302, { location: "/password", "content-length": "0" });
      return res.end();
    }
    if (path === "/password") {
      return send(res, 200, `<!doctype html><title>${shop.name}</title><form method="post" action="/password"><input type="password" name="password"></form>`, "text/html; charset=utf-8");
    }
    if (path === "/") {
      return send(
        res,
        200,
        `<!doctype html><title>${shop.name}</title><link rel="stylesheet" href="//cdn.shopify.com/s/files/1/theme.css">` +
          `<script>var Shopify = Shopify || {};\nShopify.shop = "${shop.myshopifyDomain}";\nShopify.currency = {"active":"${shop.currency}","rate":"1.0"};</script><h1>${shop.name}</h1>`,
        "text/html; charset=utf-8",
        { "x-shopid": "55555" },
      );
    }
    if (path === "/meta.json") {
      return send(res, 200, JSON.stringify({ name: shop.name, currency: shop.currency, myshopify_domain: shop.myshopifyDomain, published_products_count: shop.products.length }));
    }
    const isCatalogue = path === "/products.json" || /^\/products\/[^/]+$/.test(path);
    if (isCatalogue && shop.mode === "unauthorized" && path === "/products.json") return send(res, 401, "Unauthorized", "text/plain");
    if (isCatalogue && shop.mode === "blocked") return send(res, 403, "<h1>Access denied</h1>", "text/html");
    if (isCatalogue && shop.mode === "hidden") return send(res, 404, NOT_FOUND_HTML, "text/html");
    if (path === "/products.json") {
      const limit = Math.min(250, Math.max(1, Number(url.searchParams.get("limit") ?? 30) || 30));
      const page = Math.max(1, Number(url.searchParams.get("page") ?? 1) || 1);
      const slice = shop.products.slice((page - 1) * limit, page * limit).map((p) =>
        shop.publishAvailability ? p : { ...p, variants: p.variants.map(({ available: _a, ...v }) => v) },
      );
      const body = JSON.stringify({ products: slice });
      if (!shop.etags) return send(res, 200, body);
      const etag = `"${createHash("sha1").update(body).digest("hex").slice(0, 16)}"`;
      if (req.headers["if-none-match"] === etag) {
        res.writeHead(304, { etag });
        return res.end();
      }
      return send(res, 200, body, undefined, { etag });
    }
    const pageOf = /^\/products\/([^/.]+)$/.exec(path);
    if (pageOf) {
      const product = shop.products.find((p) => p.handle === decodeURIComponent(pageOf[1]));
      const html = product ? (shop.productPage ? shop.productPage(product) : productPageHtml(shop.name, product, shop.reviews.get(product.handle))) : null;
      return html === null ? send(res, 404, NOT_FOUND_HTML, "text/html") : send(res, 200, html, "text/html; charset=utf-8");
    }
    const js = /^\/products\/([^/]+)\.js$/.exec(path);
    if (js) {
      const product = shop.products.find((p) => p.handle === decodeURIComponent(js[1]));
      return product ? send(res, 200, JSON.stringify(productJs(product))) : send(res, 404, NOT_FOUND_HTML, "text/html");
    }
    return send(res, 404, NOT_FOUND_HTML, "text/html");
  }

  const server = createServer((req, res) => {
    const host = (req.headers.host ?? "").replace(/:\d+$/, "").toLowerCase();
    const url = new URL(req.url ?? "/", "http://x");
    if (options.record !== false) requests.push({ host, path: `${url.pathname}${url.search}`, at: Date.now(), headers: req.headers });
    const kind = url.pathname.startsWith("/products/") ? (url.pathname.endsWith(".js") ? "/products/{handle}.js" : "/products/{handle}") : url.pathname;
    counted.set(kind, (counted.get(kind) ?? 0) + 1);
    const queued = steps.get(`${host}${url.pathname}`);
    const step = queued?.shift();
    if (step) return runStep(step, req, res);
    if (url.pathname.startsWith("/pictures/")) {
      const picture = pictures.get(url.pathname.slice("/pictures/".length));
      if (!picture) return send(res, 404, NOT_FOUND_HTML, "text/html");
      res.writeHead(200, { "content-type": "image/jpeg", "content-length": picture.length });
      return void res.end(picture);
    }
    const shop = shops.get(host);
    if (!shop) {
      // A plain website: a home page and nothing at /products.json.
      if (url.pathname === "/") return send(res, 200, "<!doctype html><title>A plain site</title><h1>Hello</h1>", "text/html; charset=utf-8");
      return send(res, 404, NOT_FOUND_HTML, "text/html");
    }
    const wait = options.latencyMs?.() ?? 0;
    if (wait <= 0) return answerShop(shop, url, res, req);
    const timer = setTimeout(() => answerShop(shop, url, res, req), wait);
    res.on("close", () => clearTimeout(timer));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    shops,
    pictures,
    addShop(host, partial = {}) {
      const shop: FakeShop = {
        name: host,
        products: [],
        currency: "USD",
        myshopifyDomain: `${host.replace(/[^a-z0-9]+/g, "-")}.myshopify.com`,
        mode: "open",
        publishAvailability: true,
        robotsTxt: null,
        etags: false,
        reviews: new Map(),
        ...partial,
      };
      shops.set(host, shop);
      return shop;
    },
    queue(host, pathname, ...more) {
      const key = `${host}${pathname}`;
      steps.set(key, [...(steps.get(key) ?? []), ...more]);
    },
    requests,
    counted,
    endless,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
