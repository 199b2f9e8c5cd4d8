// Exports (issue 24 item 5, decision 057) on a real migrated database: GET /api/products/export (the grid's
// results, with the grid's parameters), /api/saved/export, /api/tracked/export, /api/competitors/{id}/export and
// /api/drops/{date}/export, in CSV (csv-stringify: UTF-8 with a BOM, a header naming every column, formula-like
// cells prefixed with ') and JSON; the landed-cost parts per row, the ended layers named and not counted (decision
// 081), "Add your cost" for
// an unknown cost; 400/403/404 with a sentence; and inside Shopify admin the page's signed link, which downloads
// without cookie or session token.
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

const oauth = await vi.hoisted(async () => (await import("../../helpers/fake-shopify-oauth")).installFakeShopifyOAuth());

import { parse } from "csv-parse/sync";
import { db } from "~/db.server";
import { loader as gridExport } from "~/routes/api.products.export";
import { loader as savedExport } from "~/routes/api.saved.export";
import { loader as trackedExport } from "~/routes/api.tracked.export";
import { loader as competitorExport } from "~/routes/api.competitors.$id.export";
import { loader as dropExport } from "~/routes/api.drops.$date.export";
import { loader as embeddedGrid } from "~/routes/app.products._index";
import { loader as embeddedSaved } from "~/routes/app.saved";
import { productDrops } from "~/services/index.server";
import * as productFns from "~/services/products.server";
import { linkedShop } from "../../helpers/linked-shops";
import { insertProducts, PLAIN_FIXTURE } from "../../helpers/products";
import { call, type CallOptions } from "../../helpers/routes";
import { signSessionToken } from "../../helpers/shopify";
import { createSignedInUser } from "../../helpers/site-users";

const base = PLAIN_FIXTURE;

let seller: Awaited<ReturnType<typeof createSignedInUser>>;

beforeAll(async () => {
  await insertProducts(db, [
    { ...base, objectID: "ex-press", title: "Exportable garlic press", niches: ["kitchen"] },
    { ...base, objectID: "ex-formula", title: '=HYPERLINK("http://evil.example","click") exportable', niches: ["kitchen"] },
    { ...base, objectID: "ex-nocost", title: "Exportable rival lamp", niches: ["kitchen"] },
  ]);
  await db.product.update({ where: { objectID: "ex-press" }, data: { shippingCents: 450 } });
  await db.product.update({ where: { objectID: "ex-nocost" }, data: { costCents: null, marginBps: null } });
  seller = await createSignedInUser({ userSubscribed: "yes" });
});
beforeEach(() => oauth.reset());

const BOM = [0xef, 0xbb, 0xbf];

async function csvOf(res: Response) {
  const bytes = new Uint8Array(await res.arrayBuffer());
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  return { bytes, text, rows: parse(text, { bom: true, columns: true }) as Record<string, string>[] };
}

describe("GET /api/products/export", () => {
  it("streams the grid's results as CSV: BOM, a header naming every column, the landed-cost parts, the ended layers named and not counted", async () => {
    const res = await call(gridExport, "/api/products/export?format=csv&q=exportable&sort=price", { cookie: seller.cookie });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="winning-products-search-exportable-\d{4}-\d{2}-\d{2}-\d{4}utc\.csv"$/);
    expect(res.body).toBeInstanceOf(ReadableStream);
    const { bytes, rows, text } = await csvOf(res);
    expect([...bytes.slice(0, 3)]).toEqual(BOM);
    const header = text.slice(1).split("\r\n")[0].split(",");
    for (const column of ["objectID", "title", "supplier_cost_usd", "cost_note", "duty_usd", "duty_layers", "duty_as_of", "duty_not_counted", "payment_fees_usd", "refund_reserve_usd", "chargeback_reserve_usd", "landed_cost_usd", "margin_after_duty_and_fees_pct", "break_even_cpa_usd", "break_even_roas", "orders", "sales_basis", "figures_as_of"]) {
      expect(header).toContain(column);
    }
    expect(header).not.toContain("duty_warning");
    expect(rows.map((r) => r.objectID).sort()).toEqual(["ex-formula", "ex-nocost", "ex-press"]);
    const press = rows.find((r) => r.objectID === "ex-press")!;
    // Starter table (HTS 2026 Revision 20), kitchen -> 3924.10.40 (exports keep the niche's code, decision 081), origin
    // CN: MFN 3.4% of $6.40 = 22c, no Section 301 list (List 4B, suspended; decision 066), the U.S. note 52 layer 12.5%
    // = 80c: duty 102c; Section 122 ended 2026-07-24 and is not counted. Shopify Payments 2.9% of $29.99 = 87c + 30c =
    // 117c.
    // Reserves: refunds 19.3% of 2999 = 578.8 -> 579c; chargebacks 0.5% of (2999 + 1500) = 22.5 -> 22c (half up of
    // 22.495) ... = 601c in all (as the profit answer). Landed 640 + 450 + 102 + 117 + 601 = 1910c; break-even CPA
    // 2999 - 1910 = 1089c. Margin after duty and fees (no reserves): 2999 - 640 - 450 - 102 - 117 = 1690c = 56.35%.
    expect(press).toMatchObject({
      price_usd: "29.99",
      supplier_cost_usd: "6.4",
      shipping_usd: "4.5",
      hts_code: "3924.10.40",
      origin: "CN",
      duty_usd: "1.02",
      payment_fees_usd: "1.17",
      landed_cost_usd: "19.1",
      break_even_cpa_usd: "10.89",
      margin_after_duty_and_fees_pct: "56.35",
      gross_margin_pct: "78.66",
      cost_note: "",
      sales_basis: "research data",
    });
    expect(Number(press.refund_reserve_usd) + Number(press.chargeback_reserve_usd)).toBeCloseTo(6.01, 5);
    expect(press.duty_layers).toMatch(/^duty 15\.9% = MFN \(column 1\) 3\.4% \+ Section 301 forced-labour duty \(U\.S\. note 52\) 12\.5% as of \d{4}-\d{2}-\d{2}/);
    expect(press.duty_layers).not.toContain("Section 122");
    expect(press.duty_not_counted).toBe(
      "Not counted, because their validity ended: Section 122 temporary import surcharge 10% (ended 2026-07-24); IEEPA fentanyl surcharge (China) 10% (ended 2026-02-24); IEEPA reciprocal surcharge 10% (ended 2026-02-24).",
    );
    const nocost = rows.find((r) => r.objectID === "ex-nocost")!;
    expect(nocost).toMatchObject({ supplier_cost_usd: "", cost_note: "Add your cost", duty_usd: "", landed_cost_usd: "", margin_after_duty_and_fees_pct: "" });
    // Formula injection: the cell starts with a quote, so a spreadsheet shows the text instead of running it.
    expect(rows.find((r) => r.objectID === "ex-formula")!.title).toBe(`'=HYPERLINK("http://evil.example","click") exportable`);
  });

  it("answers JSON with the same columns as keys", async () => {
    const res = await call(gridExport, "/api/products/export?format=json&q=exportable", { cookie: seller.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/filename="winning-products-search-exportable-.*\.json"/);
    const body = (await res.json()) as { exportedAt: string; what: string; columns: string[]; rows: Record<string, unknown>[] };
    expect(body.what).toBe('search "exportable"');
    expect(body.rows).toHaveLength(3);
    const press = body.rows.find((r) => r.objectID === "ex-press")!;
    expect(Object.keys(press)).toEqual(body.columns);
    expect(press).toMatchObject({ duty_usd: 1.02, landed_cost_usd: 19.1, cost_note: null, duty_not_counted: expect.stringMatching(/^Not counted, because their validity ended: Section 122 temporary import surcharge 10% \(ended 2026-07-24\)/) });
    expect(press).not.toHaveProperty("duty_warning");
    // No formula escaping in JSON: the text is data, not a cell.
    expect(body.rows.find((r) => r.objectID === "ex-formula")!.title).toMatch(/^=HYPERLINK/);
  });

  it("refuses a bad format or grid parameter with a sentence, and a free plan with its reason", async () => {
    const bad = await call(gridExport, "/api/products/export?format=xlsx", { cookie: seller.cookie });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "format must be csv or json." });
    const badParam = await call(gridExport, "/api/products/export?format=csv&minPrice=abc", { cookie: seller.cookie });
    expect(badParam.status).toBe(400);
    expect(await badParam.json()).toMatchObject({ param: "minPrice" });
    const free = await createSignedInUser();
    const locked = await call(gridExport, "/api/products/export?format=csv", { cookie: free.cookie });
    expect(locked.status).toBe(403);
    expect((await locked.json()).error).toMatch(/\w/);
    const anonymous = await call(gridExport, "/api/products/export?format=csv");
    expect(anonymous.status).toBe(401);
  });

  it("reads the results in pages: every one of 1,100 matches is in the file once", async () => {
    const many = Array.from({ length: 1100 }, (_, i) => ({ ...base, objectID: `ex-many-${i}`, title: `Bulkexport item ${i}`, niches: ["pets"], randomSortKey: i }));
    await insertProducts(db, many);
    const res = await call(gridExport, "/api/products/export?format=csv&q=bulkexport", { cookie: seller.cookie });
    const { rows } = await csvOf(res);
    expect(rows).toHaveLength(1100);
    expect(new Set(rows.map((r) => r.objectID)).size).toBe(1100);
  });
});

describe("saved, tracked, competitor and drop exports", () => {
  it("exports only this seller's saved and tracked products, with the seller's own HTS code", async () => {
    const me = await createSignedInUser({ userSubscribed: "yes" });
    const other = await createSignedInUser({ userSubscribed: "yes" });
    await productFns.saveProduct(db, me.id, "ex-press");
    await productFns.trackProduct(db, me.id, "ex-nocost");
    await productFns.saveProduct(db, other.id, "ex-formula");
    await db.savedProduct.updateMany({ where: { userId: me.id }, data: { htsCode: "8205.59.80", originCountry: "VN" } });

    const saved = await call(savedExport, "/api/saved/export?format=csv", { cookie: me.cookie });
    expect(saved.status).toBe(200);
    expect(saved.headers.get("content-disposition")).toMatch(/filename="winning-products-saved-\d{4}-\d{2}-\d{2}-\d{4}utc\.csv"/);
    const { rows } = await csvOf(saved);
    expect(rows.map((r) => r.objectID)).toEqual(["ex-press"]);
    expect(rows[0]).toMatchObject({ hts_code: "8205.59.80", origin: "VN", hts_reason: "your code, kept with your saved product" });

    const tracked = await csvOf(await call(trackedExport, "/api/tracked/export?format=csv", { cookie: me.cookie }));
    expect(tracked.rows.map((r) => r.objectID)).toEqual(["ex-nocost"]);
    expect(tracked.rows[0].cost_note).toBe("Add your cost");
  });

  it("exports a followed competitor's catalogue, and 404s for a store the seller does not follow", async () => {
    const me = await createSignedInUser({ userSubscribed: "yes" });
    const store = await db.competitorStore.create({ data: { domain: "rival-export.example", fetchDomain: "rival-export.example", name: "Rival", currency: "USD", status: "ok" }, select: { id: true } });
    const follow = await db.competitor.create({ data: { userId: me.id, storeId: store.id, name: "Rival" }, select: { id: true } });
    const at = new Date("2026-11-20T00:00:00Z");
    for (const [productId, title, price] of [["11", "+Rival cup", 1999], ["12", "Rival mat", 2499]] as const) {
      await db.competitorProduct.create({
        data: { storeId: store.id, productId, handle: `h-${productId}`, title, productType: "Kitchen", vendor: "Rival", tags: "[]", images: "[]", variants: "[]", priceMinCents: price, priceMaxCents: price, currency: "USD", available: true, firstSeenAt: at, lastSeenAt: at },
      });
    }
    const res = await call(competitorExport, `/api/competitors/${follow.id}/export?format=csv`, { cookie: me.cookie, params: { id: String(follow.id) } });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/filename="winning-products-competitor-rival-export-example-\d{4}-\d{2}-\d{2}-\d{4}utc\.csv"/);
    const { rows } = await csvOf(res);
    expect(rows.map((r) => r.title)).toEqual(["'+Rival cup", "Rival mat"]);
    expect(rows[0]).toMatchObject({ source: "competitor store", price_usd: "19.99", cost_note: "Add your cost", product_url: "https://rival-export.example/products/h-11", figures_as_of: "2026-11-20" });

    const stranger = await createSignedInUser({ userSubscribed: "yes" });
    const refused = await call(competitorExport, `/api/competitors/${follow.id}/export?format=csv`, { cookie: stranger.cookie, params: { id: String(follow.id) } });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({ error: "You do not follow that store." });
  });

  it("exports a revealed drop with each product's reason; an unrevealed drop is refused with the reveal sentence", async () => {
    // A drop holds 8 to 20 products.
    const fillers = Array.from({ length: 6 }, (_, i) => ({ ...base, objectID: `ex-drop-${i}`, title: `Drop filler ${i}`, niches: ["pets"] }));
    await insertProducts(db, fillers);
    await productDrops.publish("2026-11-02", [
      { objectID: "ex-press", reason: "Rising in kitchen" },
      { objectID: "ex-nocost", reason: "New from a rival" },
      ...fillers.map((f) => ({ objectID: f.objectID, reason: `Filler ${f.objectID}` })),
    ]);
    const me = await createSignedInUser({ userSubscribed: "yes" });
    const before = await call(dropExport, "/api/drops/2026-11-02/export?format=csv", { cookie: me.cookie, params: { date: "2026-11-02" } });
    expect(before.status).toBe(403);
    expect((await before.json()).error).toBe("Reveal the 2026-11-02 drop to see its products.");
    await productDrops.reveal({ ...me, ...(await db.user.findUniqueOrThrow({ where: { id: me.id } })) }, "2026-11-02");
    const res = await call(dropExport, "/api/drops/2026-11-02/export?format=csv", { cookie: me.cookie, params: { date: "2026-11-02" } });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/filename="winning-products-drop-2026-11-02-\d{4}-\d{2}-\d{2}-\d{4}utc\.csv"/);
    const { rows } = await csvOf(res);
    expect(rows).toHaveLength(8);
    expect(rows.slice(0, 2).map((r) => [r.objectID, r.list_note])).toEqual([
      ["ex-press", "Rising in kitchen"],
      ["ex-nocost", "New from a rival"],
    ]);
  });
});

describe("inside Shopify admin", () => {
  async function asShop(shop: string, options: CallOptions = {}): Promise<CallOptions> {
    return { ...options, headers: { authorization: `Bearer ${await signSessionToken({ shop })}` } };
  }

  it("the grid and Saved pages hand signed links that download without cookie or token; a changed link is refused", async () => {
    const { shop, user } = await linkedShop();
    await db.user.update({ where: { id: user.id }, data: { userSubscribed: "yes" } });
    await productFns.saveProduct(db, user.id, "ex-press");
    const page = await (await call(embeddedGrid, "/app/products?q=exportable", await asShop(shop))).json();
    expect(page.exportLinks.csv).toMatch(/^\/api\/products\/export\?q=exportable&format=csv&u=[\w-]+&expires=\d+&sig=[\w-]+$/);
    const file = await call(gridExport, page.exportLinks.csv);
    expect(file.status, await file.clone().text()).toBe(200);
    expect((await csvOf(file)).rows).toHaveLength(3);

    const json = await call(gridExport, page.exportLinks.json);
    expect(json.status).toBe(200);
    expect(((await json.json()) as { rows: unknown[] }).rows).toHaveLength(3);

    const widened = await call(gridExport, page.exportLinks.csv.replace("q=exportable", "q=bulkexport"));
    expect(widened.status).toBe(403);
    expect(await widened.json()).toEqual({ error: "This download link is not valid: open the page again for a new one." });

    // A link whose account has since been deleted is refused the same way, not a 500.
    const gone = await linkedShop();
    await db.user.update({ where: { id: gone.user.id }, data: { userSubscribed: "yes" } });
    const goneLinks = (await (await call(embeddedGrid, "/app/products?q=exportable", await asShop(gone.shop))).json()).exportLinks;
    await db.user.delete({ where: { id: gone.user.id } });
    const orphan = await call(gridExport, goneLinks.csv);
    expect(orphan.status).toBe(403);

    const saved = await (await call(embeddedSaved, "/app/saved", await asShop(shop))).json();
    expect(saved.exportLinks.saved.csv).toMatch(/^\/api\/saved\/export\?format=csv&u=/);
    const savedFile = await call(savedExport, saved.exportLinks.saved.csv);
    expect((await csvOf(savedFile)).rows.map((r) => r.objectID)).toEqual(["ex-press"]);
  });
});
