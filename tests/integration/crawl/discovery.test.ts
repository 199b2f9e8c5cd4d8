// Store discovery (issue 38 item 4, decision 101) against local stand-ins: a source server answering recorded
// answers in each source's documented shape (Common Crawl's collinfo.json and CDX JSON lines, crt.sh's JSON array;
// written here by hand), stand-in Shopify stores on 127.0.0.1, the real SSRF-safe fetcher, the real storefront
// probe (robots.txt, one request a second a host, our User-Agent) on a virtual clock, and a real migrated database.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { createSafeFetcher, type SafeFetcher } from "~/integrations/safe-fetch.server";
import { createShopifyStorefront, type Clock } from "~/integrations/shopify-storefront.server";
import { createCommonCrawlSource, createCrtShSource } from "~/integrations/store-sources.server";
import { runDiscovery, type DiscoveryDeps } from "~/services/crawl/discovery.server";
import { makeCatalogue, startFakeShopifyStore, type FakeShopifyStore } from "../../helpers/fake-shopify-store";

const time = { ms: Date.parse("2026-12-07T04:23:00Z") };
const clock: Clock = { now: () => time.ms, sleep: async (ms) => void (time.ms += ms) };
const quiet = { info() {}, warn() {} };
/** path -> [status, content-type, body] the source server answers. */
const answers = new Map<string, [number, string, string | Buffer]>();
let sourceServer: Server;
let sourceOrigin: string;
let shops: FakeShopifyStore;
let fetcher: SafeFetcher;
const sent: { host: string; path: string; at: number }[] = [];

const cdxLine = (url: string, status = "200") =>
  JSON.stringify({ urlkey: "com,myshopify)/", timestamp: "20261121101112", url, mime: "text/html", status, digest: "QWERTYUIOPASDFGH", length: "2048", offset: "4096", filename: "crawl-data/CC-MAIN-2026-49/segments/1/warc/a.warc.gz" });
const certificate = (id: number, names: string[]) => ({
  issuer_ca_id: 183267,
  issuer_name: "C=US, O=Example Trust, CN=Example TLS R3",
  common_name: names[0],
  name_value: names.join("\n"),
  id,
  entry_timestamp: "2026-12-01T08:09:10.111",
  not_before: "2026-12-01T07:09:10",
  not_after: "2027-03-01T07:09:09",
  serial_number: `04ab${id}`,
});

function deps(overrides: Partial<DiscoveryDeps> = {}): DiscoveryDeps {
  // Each store request logged with the virtual moment it was sent, so pacing is asserted on the scheduled times.
  const logged: SafeFetcher = {
    userAgent: fetcher.userAgent,
    close: () => {},
    fetch: (url, init) => {
      const u = new URL(url);
      sent.push({ host: u.hostname, path: `${u.pathname}${u.search}`, at: time.ms });
      return fetcher.fetch(url, init);
    },
  };
  const storefront = createShopifyStorefront({ fetcher: logged, protocol: "http:", clock });
  return {
    db,
    sources: [createCrtShSource({ fetcher, baseUrl: `${sourceOrigin}/crtsh/` }), createCommonCrawlSource({ fetcher, baseUrl: sourceOrigin })],
    // Stand-in stores answer on one local port: the candidate's host is probed there (as DNS and :443 would).
    storefront: { probe: (host) => storefront.probe(`${host}:${shops.port}`) },
    now: () => new Date(time.ms),
    operatorIntervalMs: 24 * 60 * 60_000,
    budget: 10,
    log: quiet,
    ...overrides,
  };
}

beforeAll(async () => {
  shops = await startFakeShopifyStore();
  sourceServer = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const a = answers.get(path);
    if (!a) return void res.writeHead(404, { "content-type": "text/html" }).end("<h1>Not found</h1>");
    res.writeHead(a[0], { "content-type": a[1] }).end(a[2]);
  });
  await new Promise<void>((resolve) => sourceServer.listen(0, "127.0.0.1", resolve));
  sourceOrigin = `http://127.0.0.1:${(sourceServer.address() as AddressInfo).port}`;
  fetcher = createSafeFetcher({
    contactUrl: "https://winningproducts.test/bot",
    appName: "WinningProductsStoreTracker",
    lookup: async () => [{ address: "127.0.0.1", family: 4 }],
    allowHosts: [`127.0.0.1:${shops.port}`, sourceOrigin.replace("http://", "")],
  });
});
afterAll(async () => {
  fetcher.close();
  await shops.close();
  await new Promise((resolve) => sourceServer.close(resolve));
});
beforeEach(() => {
  answers.clear();
  shops.requests.length = 0;
  sent.length = 0;
  time.ms += 24 * 60 * 60_000;
});

function serveSources(crt: unknown[], cdx: string[]) {
  answers.set("/crtsh/", [200, "application/json", JSON.stringify(crt)]);
  answers.set("/collinfo.json", [
    200,
    "application/json",
    JSON.stringify([
      // The list may name another origin: the adapter stays on the configured one.
      { id: "CC-MAIN-2026-49", name: "November 2026 Index", timegate: "https://index.commoncrawl.org/CC-MAIN-2026-49/", "cdx-api": "https://index.commoncrawl.org/CC-MAIN-2026-49-index" },
      { id: "CC-MAIN-2026-44", name: "October 2026 Index", timegate: "https://index.commoncrawl.org/CC-MAIN-2026-44/", "cdx-api": "https://index.commoncrawl.org/CC-MAIN-2026-44-index" },
    ]),
  ]);
  answers.set("/CC-MAIN-2026-49-index", [200, "text/x-ndjson", cdx.join("\n")]);
}

describe("store discovery", () => {
  it("adds verified stores as discovered, each probed politely, and skips the rest with a reason", async () => {
    shops.addShop("blue-lamp.myshopify.com", { products: makeCatalogue(3) });
    shops.addShop("green-mug.myshopify.com", { products: makeCatalogue(2) });
    shops.addShop("shy-shop.myshopify.com", { products: makeCatalogue(2), robotsTxt: "User-agent: *\nDisallow: /products.json\n" });
    shops.addShop("listed-one.myshopify.com", { products: makeCatalogue(1) });
    await db.competitorStore.create({ data: { domain: "listed-one.myshopify.com", fetchDomain: "listed-one.myshopify.com", name: "listed", operatorListed: true } });
    serveSources(
      [certificate(1, ["blue-lamp.myshopify.com", "www.blue-lamp.example"]), certificate(2, ["*.myshopify.com"]), certificate(3, ["listed-one.myshopify.com"]), certificate(4, ["shy-shop.myshopify.com"])],
      [cdxLine("https://blue-lamp.myshopify.com/products/a"), cdxLine("https://green-mug.myshopify.com/"), cdxLine("https://plain-site.myshopify.com/"), cdxLine("https://www.plain-site.example/products.json?limit=1"), "{oops", cdxLine("https://gone.myshopify.com/", "404")],
    );

    const run = await runDiscovery(deps());

    expect(run.added).toEqual([
      { domain: "blue-lamp.myshopify.com", source: "certificate-transparency" },
      { domain: "green-mug.myshopify.com", source: "common-crawl" },
    ]);
    const rows = await db.competitorStore.findMany({ where: { origin: "discovered" }, orderBy: { domain: "asc" }, select: { domain: true, fetchDomain: true, operatorListed: true, discoveredFrom: true, status: true, nextCheckAt: true } });
    expect(rows.map((r) => [r.domain, r.fetchDomain, r.operatorListed, r.discoveredFrom, r.status])).toEqual([
      ["blue-lamp.myshopify.com", `blue-lamp.myshopify.com:${shops.port}`, true, "certificate-transparency", "pending"],
      ["green-mug.myshopify.com", `green-mug.myshopify.com:${shops.port}`, true, "common-crawl", "pending"],
    ]);
    for (const r of rows) expect(r.nextCheckAt!.getTime()).toBeGreaterThan(time.ms - 60_000);

    const reasons = Object.fromEntries(run.skipped.map((s) => [s.what, s.reason]));
    expect(reasons["*.myshopify.com"]).toBe("a wildcard name, not one store");
    expect(reasons["www.blue-lamp.example"]).toBe("not a store's *.myshopify.com address");
    expect(reasons["listed-one.myshopify.com"]).toBe("already observed (followed or on the operator's list)");
    expect(reasons["shy-shop.myshopify.com"]).toMatch(/robots\.txt asks crawlers like ours not to read/);
    // Not a Shopify store: no public catalogue (a *.myshopify.com name with none reads as a store hiding it).
    expect(reasons["www.plain-site.example"]).toMatch(/does not look like a Shopify store: it has no public product catalogue/);
    expect(reasons["plain-site.myshopify.com"]).toMatch(/hides its product catalogue from outside readers/);
    expect(reasons["{oops"]).toBe("a line that is not JSON");
    expect(reasons["https://gone.myshopify.com/"]).toBe("a capture that answered 404, not 200");
    expect(run.skipped.find((s) => s.what === "blue-lamp.myshopify.com")?.reason).toBe("a duplicate: certificate-transparency named it too");
    expect(run.sources).toEqual([
      { name: "certificate-transparency", candidates: 3, error: null },
      { name: "common-crawl", candidates: 4, error: null },
    ]);

    // Politely: robots.txt before anything else on a host, our User-Agent, a second between two requests to a host,
    // nothing sent to a store whose robots.txt forbids its catalogue, nothing at all to a store we already observe.
    for (const r of shops.requests) expect(String(r.headers["user-agent"])).toMatch(/^WinningProductsStoreTracker\//);
    const byHost = new Map<string, typeof sent>();
    for (const r of sent) byHost.set(r.host, [...(byHost.get(r.host) ?? []), r]);
    expect(byHost.size).toBe(5);
    for (const [host, requests] of byHost) {
      expect(requests[0].path, host).toBe("/robots.txt");
      for (let i = 1; i < requests.length; i++) expect(requests[i].at - requests[i - 1].at).toBeGreaterThanOrEqual(1000);
    }
    expect(byHost.get("shy-shop.myshopify.com")!.map((r) => r.path)).toEqual(["/robots.txt"]);
    expect(byHost.has("listed-one.myshopify.com")).toBe(false);

    // A second run finds them known: nothing added, nothing probed again.
    shops.requests.length = 0;
    const again = await runDiscovery(deps());
    expect(again.added).toEqual([]);
    expect(again.skipped.find((s) => s.what === "green-mug.myshopify.com")?.reason).toBe("already discovered");
    expect(shops.requests.filter((r) => r.host === "green-mug.myshopify.com" || r.host === "blue-lamp.myshopify.com")).toEqual([]);
  }, 60_000);

  it("adds at most the budget and probes at most three candidates per store it may add", async () => {
    for (const n of [1, 2, 3]) shops.addShop(`budget-${n}.myshopify.com`, { products: makeCatalogue(1) });
    serveSources([1, 2, 3, 4, 5, 6].map((n) => certificate(100 + n, [n <= 3 ? `budget-${n}.myshopify.com` : `budget-none-${n}.myshopify.com`])), []);
    const one = await runDiscovery(deps(), { budget: 1 });
    expect(one.added.map((a) => a.domain)).toEqual(["budget-1.myshopify.com"]);
    expect(one.untried).toBe(5);

    // Three candidates that are not stores use up a budget of one's probes.
    serveSources([4, 5, 6, 1].map((n) => certificate(200 + n, [n <= 3 ? `budget-${n}.myshopify.com` : `budget-none-${n}.myshopify.com`])), []);
    const none = await runDiscovery(deps({ sources: [createCrtShSource({ fetcher, baseUrl: `${sourceOrigin}/crtsh/` })] }), { budget: 1 });
    expect(none.added).toEqual([]);
    expect(none.verified).toBe(3);
    expect(none.untried).toBe(1);
    expect(await runDiscovery(deps(), { budget: 0 })).toMatchObject({ added: [], verified: 0 });
    await expect(runDiscovery(deps(), { budget: -1 })).rejects.toThrow(/a whole number from 0 to 5,000/);
  }, 60_000);

  it("a source answering HTML, malformed JSON, an error or 10 MB is one skip with a sentence; the run goes on", async () => {
    shops.addShop("still-found.myshopify.com", { products: makeCatalogue(1) });
    const cases: Array<[string, [number, string, string | Buffer], RegExp]> = [
      ["html", [200, "text/html; charset=utf-8", "<!doctype html><title>Service busy</title>"], /it answered with an HTML page, not JSON/],
      ["html as json", [200, "application/json", "<html><body>502 Bad Gateway</body></html>"], /it answered with an HTML page, not JSON/],
      ["malformed", [200, "application/json", '[{"common_name": "x.myshopify.com",'], /its answer is not JSON/],
      ["error", [503, "application/json", "{}"], /it answered HTTP 503/],
      ["huge", [200, "application/json", Buffer.alloc(10 * 1024 * 1024, 0x20)], /larger than 8 MB/],
    ];
    for (const [name, answer, reason] of cases) {
      serveSources([], [cdxLine("https://still-found.myshopify.com/")]);
      answers.set("/crtsh/", answer);
      await db.competitorStore.deleteMany({ where: { domain: "still-found.myshopify.com" } });
      const run = await runDiscovery(deps());
      expect(run.sources[0].error, name).toMatch(reason);
      expect(run.skipped[0], name).toMatchObject({ what: "certificate-transparency", source: "certificate-transparency" });
      expect(run.added, name).toEqual([{ domain: "still-found.myshopify.com", source: "common-crawl" }]);
    }
    // Common Crawl's list of collections unusable, and its CDX answer not JSON lines.
    serveSources([], []);
    answers.set("/collinfo.json", [200, "application/json", "{}"]);
    expect((await runDiscovery(deps())).sources[1].error).toBe("its list of collections names no CDX endpoint");
    serveSources([], []);
    answers.set("/CC-MAIN-2026-49-index", [200, "text/plain", "com,myshopify,x)/ 20261121101112 {broken"]);
    expect((await runDiscovery(deps())).sources[1].error).toBe("its answer is not JSON lines");
  }, 60_000);
});
