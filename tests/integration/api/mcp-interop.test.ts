// MCP interop (issue 35, decision 078), with the official SDK's own Client against the real route on a socket:
// every tool declares an outputSchema its structuredContent satisfies (the client checks each result against it,
// and a result that breaks it is refused); the text carries the same facts; no `listChanged` on a server that
// cannot notify; no credentials at all gets a bare `Bearer` challenge (RFC 6750 3.1); a client that accepts only
// JSON gets JSON. And money: a price whose currency is unknown is `currency: null`, never written as dollars, and
// the profit tool says what the API says.
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import * as mcpRoute from "~/routes/mcp";
import { loader as profitRoute } from "~/routes/api.v1.products.$objectID.profit";
import { productDrops } from "~/services/index.server";
import { connectMcp, createApiKey, type ToolResult } from "../../helpers/mcp";
import { insertProducts, PLAIN_FIXTURE } from "../../helpers/products";
import { call } from "../../helpers/routes";
import { startRouteServer } from "../../helpers/route-server";
import { createSignedInUser } from "../../helpers/site-users";

type Money = { cents: number; currency: string | null };
type Fig = { value: unknown; measured: boolean; asOf: string } | null;
type Item = { objectID: string; title: string; price: Money; figures: Record<string, Fig>; insights: { landedMarginBps: number | null } | null };

let server: Awaited<ReturnType<typeof startRouteServer>>;
let key: string;
let competitorId: number;
let client: Client;

const TOOLS = ["search_products", "get_product", "explain_score", "list_drops", "list_competitors", "get_competitor", "profit"] as const;
const FILLERS = Array.from({ length: 6 }, (_, i) => `iop-filler-${i}`);

beforeAll(async () => {
  await insertProducts(db, [
    ...Array.from({ length: 4 }, (_, i) => ({ ...PLAIN_FIXTURE, objectID: `iop-${i}`, title: `Interop kettle ${i}`, niches: ["kitchen"], winningScore: 60 + i })),
    { ...PLAIN_FIXTURE, objectID: "iop-rupee", title: "Rupee kettle", niches: ["kitchen"], priceCents: 90000, winningScore: 99 },
    { ...PLAIN_FIXTURE, objectID: "iop-euro", title: "Euro kettle", niches: ["kitchen"], priceCents: 2500, winningScore: 98 },
    ...FILLERS.map((objectID) => ({ ...PLAIN_FIXTURE, objectID, title: `Filler ${objectID}`, niches: ["garden"] })),
  ]);
  // As the catalogue writes measured products (decision 059): XXX is a store that publishes no currency.
  await db.product.update({ where: { objectID: "iop-rupee" }, data: { source: "measured", priceCurrency: "XXX" } });
  await db.product.update({ where: { objectID: "iop-euro" }, data: { source: "measured", priceCurrency: "EUR" } });
  const user = await createSignedInUser({ userSubscribed: "yes" });
  ({ key } = await createApiKey(user.cookie, "interop"));
  const at = new Date("2026-11-20T00:00:00Z");
  const store = await db.competitorStore.create({ data: { domain: "iop-rival.test", fetchDomain: "iop-rival.test", name: "Rupee rival", currency: null, status: "ok", lastCheckedAt: at }, select: { id: true } });
  await db.competitorProduct.create({
    data: { storeId: store.id, productId: "1", handle: "brass", title: "Brass lamp", productType: "", vendor: "", tags: "[]", images: "[]", variants: "[]", priceMinCents: 120000, priceMaxCents: 150000, firstSeenAt: at, lastSeenAt: at },
  });
  competitorId = (await db.competitor.create({ data: { userId: user.id, storeId: store.id, name: "Rupee rival" }, select: { id: true } })).id;
  await productDrops.publish("2026-11-23", ["iop-rupee", "iop-0", ...FILLERS].map((objectID) => ({ objectID, reason: "picked for the test" })));
  await productDrops.reveal(await db.user.findUniqueOrThrow({ where: { id: user.id } }), "2026-11-23");
  server = await startRouteServer({ "/mcp": mcpRoute });
  client = await connectMcp(server.url, key);
});

afterAll(async () => {
  await client?.close();
  await server?.close();
});

const callTool = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolResult;
const ARGS: Record<(typeof TOOLS)[number], () => Record<string, unknown>> = {
  search_products: () => ({ niche: "kitchen", limit: 3 }),
  get_product: () => ({ objectID: "iop-rupee" }),
  explain_score: () => ({ objectID: "iop-1" }),
  list_drops: () => ({}),
  list_competitors: () => ({}),
  get_competitor: () => ({ id: competitorId }),
  profit: () => ({ objectID: "iop-1", priceCents: 2999, cpaCents: 800 }),
};

describe("tools and their outputSchema", () => {
  it("every tool declares an object outputSchema, and the SDK's client checks each result against it", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
    const validator = new AjvJsonSchemaValidator();
    for (const tool of tools) {
      expect(tool.outputSchema?.type, tool.name).toBe("object");
      // callTool validates structuredContent against the listed outputSchema and throws when it does not match.
      const result = await callTool(tool.name, ARGS[tool.name as (typeof TOOLS)[number]]());
      expect(result.isError ?? false, `${tool.name}: ${result.content[0]?.text}`).toBe(false);
      const check = validator.getValidator(tool.outputSchema as Parameters<typeof validator.getValidator>[0]);
      expect(check(result.structuredContent).valid, tool.name).toBe(true);
      // The schema is not vacuous: without what is left of the limits, the same content is refused.
      const { limits: _limits, ...withoutLimits } = result.structuredContent ?? {};
      expect(check(withoutLimits).valid, tool.name).toBe(false);
    }
  });

  it("a money amount's currency in the schema is an ISO code or null; an unnamed extra field is allowed", async () => {
    const { tools } = await client.listTools();
    const search = tools.find((t) => t.name === "search_products")!;
    const check = new AjvJsonSchemaValidator().getValidator(search.outputSchema as never);
    const page = (await callTool("search_products", { niche: "kitchen", limit: 2 })).structuredContent as { items: Item[] };
    const priced = (currency: unknown) => ({ ...page, items: page.items.map((p) => ({ ...p, price: { cents: 100, currency } })) });
    expect(check(priced(null)).valid).toBe(true);
    expect(check(priced("EUR")).valid).toBe(true);
    expect(check(priced(840)).valid).toBe(false);
    // A field the schema does not name is allowed, as in the API's answers: a client never refuses a whole result for it.
    expect(check({ ...page, items: page.items.map((p) => ({ ...p, addedLater: true })) }).valid).toBe(true);
  });

  it("the text carries the facts of structuredContent: ids, prices, figures with their dates, the next page's cursor", async () => {
    const search = await callTool("search_products", { niche: "kitchen", limit: 3 });
    const page = search.structuredContent as { items: Item[]; total: number; nextCursor: string | null };
    expect(page.nextCursor).not.toBeNull();
    const text = search.content[0].text;
    expect(text).toContain(`${page.total} products match`);
    expect(text).toContain(page.nextCursor!);
    for (const p of page.items) {
      const line = text.split("\n").find((l) => l.includes(`[${p.objectID},`));
      expect(line, p.objectID).toBeDefined();
      expect(line).toContain(p.title);
      expect(line).toContain(String(p.figures.winningScore?.value));
      expect(line).toContain(p.figures.winningScore!.asOf);
      expect(line).toContain(`${(p.price.cents / 100).toFixed(2)}`);
      if (p.insights?.landedMarginBps != null) expect(line).toContain(`margin after duty and fees ${p.insights.landedMarginBps / 100}%`);
    }
    const drops = await callTool("list_drops", {});
    for (const d of (drops.structuredContent as { items: { products: { objectID: string }[] }[] }).items) {
      for (const p of d.products) expect(drops.content[0].text).toContain(`[${p.objectID}]`);
    }
    const explain = await callTool("explain_score", { objectID: "iop-1" });
    const facts = explain.structuredContent as { storesSelling: Fig; reasons: string[] };
    expect(explain.content[0].text).toContain(`Stores selling ${String(facts.storesSelling?.value)}`);
    for (const reason of facts.reasons) expect(explain.content[0].text).toContain(reason);
    const store = await callTool("get_competitor", { id: competitorId });
    expect(store.content[0].text).toContain("Brass lamp");
  });
});

describe("capabilities and HTTP", () => {
  it("declares no listChanged: a stateless server has no stream to notify on", () => {
    const capabilities = client.getServerCapabilities();
    expect(capabilities?.tools).toBeDefined();
    expect(capabilities?.tools?.listChanged).toBeUndefined();
    expect(capabilities?.resources?.listChanged).toBeUndefined();
  });

  const post = (headers: Record<string, string>) =>
    fetch(`${server.url}/mcp`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }) });

  it("no credentials: a bare Bearer challenge; a bad key: error=invalid_token (RFC 6750 3.1)", async () => {
    const accept = { accept: "application/json, text/event-stream" };
    for (const headers of [accept, { ...accept, authorization: "Basic dXNlcjpwYXNz" }]) {
      const none = await post(headers);
      expect(none.status).toBe(401);
      expect(none.headers.get("www-authenticate")).toBe('Bearer realm="api"');
    }
    const bad = await post({ ...accept, authorization: `Bearer wpk_${"x".repeat(32)}` });
    expect(bad.status).toBe(401);
    expect(bad.headers.get("www-authenticate")).toBe('Bearer realm="api", error="invalid_token"');
  });

  it("a client that accepts only JSON (or sends no Accept) gets JSON; one that accepts neither JSON nor anything is 406", async () => {
    for (const accept of ["application/json", "application/*", "*/*", null]) {
      const res = await post({ authorization: `Bearer ${key}`, ...(accept ? { accept } : {}) });
      expect(res.status, String(accept)).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(((await res.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(7);
    }
    for (const accept of ["text/html", "text/event-stream", "application/json;q=0"]) {
      expect((await post({ authorization: `Bearer ${key}`, accept })).status, accept).toBe(406);
    }
  });
});

describe("money whose currency is unknown", () => {
  const noDollars = (text: string) => expect(text).not.toMatch(/\$|USD/);

  it("is currency null in structuredContent and never $ or USD in the text: search, product, drops, store", async () => {
    const search = await callTool("search_products", { niche: "kitchen", limit: 6 });
    const items = (search.structuredContent as { items: Item[] }).items;
    expect(items.find((p) => p.objectID === "iop-rupee")?.price).toEqual({ cents: 90000, currency: null });
    expect(items.find((p) => p.objectID === "iop-euro")?.price).toEqual({ cents: 2500, currency: "EUR" });
    const rupeeLine = search.content[0].text.split("\n").find((l) => l.includes("[iop-rupee,"))!;
    expect(rupeeLine).toContain("900.00 (currency unknown)");
    noDollars(rupeeLine);
    expect(search.content[0].text.split("\n").find((l) => l.includes("[iop-euro,"))).toContain("25.00 EUR");

    const product = await callTool("get_product", { objectID: "iop-rupee" });
    expect((product.structuredContent as Item).price).toEqual({ cents: 90000, currency: null });
    const priceLine = product.content[0].text.split("\n")[0];
    expect(priceLine).toContain("900.00 (currency unknown)");
    noDollars(priceLine);

    const drops = await callTool("list_drops", {});
    const dropped = (drops.structuredContent as { items: { products: { objectID: string; price: Money }[] }[] }).items[0].products;
    expect(dropped.find((p) => p.objectID === "iop-rupee")?.price).toEqual({ cents: 90000, currency: null });
    const droppedText = drops.content[0].text.split("; ").find((s) => s.includes("[iop-rupee]"))!;
    expect(droppedText).toContain("900.00 (currency unknown)");
    noDollars(droppedText);

    const store = await callTool("get_competitor", { id: competitorId });
    expect((store.structuredContent as { products: { priceMin: Money }[] }).products[0].priceMin).toEqual({ cents: 120000, currency: null });
    expect(store.content[0].text).toContain("Brass lamp (1200.00 (currency unknown)-1500.00 (currency unknown))");
    noDollars(store.content[0].text);
  });

  it("profit: without a dollar price it is the API's own sentence; with one, dollars", async () => {
    const refused = await callTool("profit", { objectID: "iop-rupee", costCents: 500 });
    expect(refused.isError).toBe(true);
    const api = await call(profitRoute, "/api/v1/products/iop-rupee/profit?costCents=500", { headers: { authorization: `Bearer ${key}` }, params: { objectID: "iop-rupee" } });
    expect(api.status).toBe(422);
    expect(refused.content[0].text).toBe(((await api.json()) as { error: string }).error);
    expect(refused.content[0].text).toMatch(/not US dollars/);
    const priced = await callTool("profit", { objectID: "iop-rupee", costCents: 500, priceCents: 2999 });
    expect(priced.isError ?? false).toBe(false);
    expect(priced.structuredContent).toMatchObject({ currency: "USD", priceCents: 2999 });
    expect(priced.content[0].text).toMatch(/^At 29\.99 USD/);
  });
});
