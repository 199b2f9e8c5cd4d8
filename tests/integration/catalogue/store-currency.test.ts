// A store's currency from its public answers (issue 37 item 5, decision 089), read by the real storefront reader
// from a local HTTP server that plays several stores by Host header: /meta.json answering JSON, 404 or a web page,
// and /cart.js answering the visitor's empty cart (with its currency) or a web page.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSafeFetcher, type SafeFetcher } from "~/integrations/safe-fetch.server";
import { createShopifyStorefront, type Clock } from "~/integrations/shopify-storefront.server";

type Answer = { status: number; type: string; body: string } | null;
const json = (body: unknown): Answer => ({ status: 200, type: "application/json; charset=utf-8", body: JSON.stringify(body) });
const page = (status: number): Answer => ({ status, type: "text/html; charset=utf-8", body: "<!doctype html><html><body><h1>Welcome</h1></body></html>" });

const shops: Record<string, { meta: Answer; cart: Answer }> = {
  "meta-eur.test": { meta: json({ name: "Euro", currency: "EUR" }), cart: json({ token: "t", currency: "GBP", items: [] }) },
  "cart-inr.test": { meta: page(404), cart: json({ token: "t", note: null, currency: "INR", item_count: 0, items: [] }) },
  "meta-html.test": { meta: page(200), cart: page(200) },
  "meta-html-cart-cad.test": { meta: page(200), cart: json({ currency: "CAD", items: [] }) },
  "nothing.test": { meta: page(404), cart: page(404) },
};

let server: http.Server;
let fetcher: SafeFetcher;
let port: number;
const requests: Array<{ host: string; method: string; path: string }> = [];

const clock: Clock = { now: () => Date.parse("2026-12-07T12:00:00Z"), sleep: async () => {} };

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const host = (req.headers.host ?? "").split(":")[0];
    const path = req.url ?? "/";
    requests.push({ host, method: req.method ?? "", path });
    const shop = shops[host];
    const send = (a: Answer) => {
      if (!a) return void res.writeHead(404).end();
      res.writeHead(a.status, { "content-type": a.type }).end(a.body);
    };
    if (!shop) return send(page(404));
    if (path.startsWith("/products.json")) {
      const first = path.includes("page=1") || !path.includes("page=");
      return send(json({ products: first ? [{ id: 1, handle: "mug", title: "Mug", variants: [{ id: 11, title: "Default Title", price: "9.50", available: true }] }] : [] }));
    }
    if (path === "/meta.json") return send(shop.meta);
    if (path === "/cart.js") return send(shop.cart);
    return send(page(404));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  fetcher = createSafeFetcher({
    contactUrl: "https://winningproducts.test/bot",
    lookup: async () => [{ address: "127.0.0.1", family: 4 }],
    allowHosts: [`127.0.0.1:${port}`],
    timeoutMs: 2_000,
  });
});
afterAll(async () => {
  fetcher.close();
  await new Promise((resolve) => server.close(resolve));
});

const read = (host: string) => createShopifyStorefront({ fetcher, protocol: "http:", clock }).snapshot(`${host}:${port}`);
const askedFor = (host: string) => requests.filter((r) => r.host === host).map((r) => `${r.method} ${r.path}`);

describe("a store's currency at the source", () => {
  it("takes /meta.json's currency and does not ask /cart.js", async () => {
    const snap = await read("meta-eur.test");
    expect(snap.currency).toBe("EUR");
    expect(snap.currencyNote).toBeUndefined();
    expect(askedFor("meta-eur.test")).not.toContain("GET /cart.js");
  });

  it("falls back to /cart.js when /meta.json answers 404, with a GET only", async () => {
    const snap = await read("cart-inr.test");
    expect(snap.currency).toBe("INR");
    expect(snap.products).toHaveLength(1);
    const asked = askedFor("cart-inr.test");
    expect(asked).toContain("GET /meta.json");
    expect(asked).toContain("GET /cart.js");
    // Nothing but GETs, and no cart or checkout path besides reading /cart.js.
    expect(asked.every((a) => a.startsWith("GET "))).toBe(true);
    expect(asked.filter((a) => /cart|checkout/.test(a) && a !== "GET /cart.js")).toEqual([]);
  });

  it("skips a /meta.json answering HTML with a sentence, and a /cart.js answering JSON still gives the currency", async () => {
    expect((await read("meta-html-cart-cad.test")).currency).toBe("CAD");
  });

  it("keeps the currency unknown (null, never dollars) when neither answer states one, and says why", async () => {
    const html = await read("meta-html.test");
    expect(html.currency).toBeNull();
    expect(html.currencyNote).toBe("Currency unknown: /meta.json answered a web page, not JSON: we read no currency from it. /cart.js answered a web page, not JSON: we read no currency from it.");
    const none = await read("nothing.test");
    expect(none.currency).toBeNull();
    expect(none.currencyNote).toMatch(/\/meta\.json answered 404.*\/cart\.js answered 404/);
    expect(none.products).toHaveLength(1);
  });
});
