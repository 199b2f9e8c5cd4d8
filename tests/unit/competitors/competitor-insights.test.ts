// What we derive from a rival store's snapshots (app/domain/competitors/insights.ts), on hand-made reads:
// each kind of change and its window, truncated reads that must not invent removals or launches, duplicates and
// unknown availability, catalogue size for the chart, the weekly orders range with its evidence (a quiet store,
// a busy one, too few days, activity alone), the alerts' filters, and fast-check properties of the range.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  catalogueSeries,
  describeChange,
  describeFigure,
  diffSeries,
  diffSnapshots,
  ESTIMATE_RULES,
  estimateWeeklyOrders,
  figureKindOf,
  isEstimate,
  launchesIn,
  poissonUpper,
  priceDropsFor,
  type CatalogueChange,
  type WeeklyOrdersEstimate,
  type WeeklyOrdersResult,
} from "~/domain/competitors/insights";
import { AppError } from "~/domain/errors";
import type { ProductSnapshot, StoreSnapshot, VariantSnapshot } from "~/domain/crawl/store-snapshot";

const T0 = Date.parse("2026-11-01T00:00:00.000Z");
const HOUR = 3_600_000;
const at = (hours: number) => new Date(T0 + hours * HOUR).toISOString();

function variant(id: string, over: Partial<VariantSnapshot> = {}): VariantSnapshot {
  return { id, title: `Variant ${id}`, sku: `SKU-${id}`, priceCents: 2999, compareAtCents: null, available: true, ...over };
}

function product(id: string, variants: VariantSnapshot[], over: Partial<ProductSnapshot> = {}): ProductSnapshot {
  return {
    id,
    handle: `product-${id}`,
    title: `Product ${id}`,
    productType: "Gadget",
    vendor: "Rival",
    tags: [],
    createdAt: "2026-01-01T00:00:00Z",
    publishedAt: "2026-01-02T00:00:00Z",
    updatedAt: null,
    images: [],
    variants,
    ...over,
  };
}

function snapshot(hours: number, products: ProductSnapshot[], over: Partial<StoreSnapshot> = {}): StoreSnapshot {
  return { domain: "rival.example", takenAt: at(hours), currency: "USD", products, truncated: false, ...over };
}

const kinds = (changes: CatalogueChange[]) => changes.map((c) => `${c.kind}:${c.product.id}${"variant" in c ? `/${c.variant.id}` : ""}`);

describe("diffSnapshots", () => {
  const base = [product("1", [variant("1a"), variant("1b")]), product("2", [variant("2a")])];

  it("finds nothing between two identical reads", () => {
    expect(diffSnapshots(snapshot(0, base), snapshot(6, structuredClone(base)))).toEqual([]);
  });

  it("reports a price drop and a price rise per variant, with old and new cents and the window", () => {
    const next = [
      product("1", [variant("1a", { priceCents: 2499 }), variant("1b", { priceCents: 3499 })]),
      product("2", [variant("2a")]),
    ];
    const changes = diffSnapshots(snapshot(0, base), snapshot(6, next));
    expect(changes).toEqual([
      {
        kind: "price-change",
        product: { id: "1", handle: "product-1", title: "Product 1" },
        window: { from: at(0), to: at(6) },
        variant: { id: "1a", title: "Variant 1a", sku: "SKU-1a" },
        currency: "USD",
        oldCents: 2999,
        newCents: 2499,
        direction: "down",
      },
      expect.objectContaining({ kind: "price-change", oldCents: 2999, newCents: 3499, direction: "up" }),
    ]);
    expect(describeChange(changes[0])).toBe(
      `"Product 1" (Variant 1a) price went down from 29.99 USD to 24.99 USD between 1 Nov 2026, 00:00 UTC and 1 Nov 2026, 06:00 UTC.`,
    );
  });

  it("reports compare-at prices set, changed and cleared, and treats 0 as no compare-at price", () => {
    const prev = [product("1", [variant("1a"), variant("1b", { compareAtCents: 3999 }), variant("1c", { compareAtCents: 0 })])];
    const next = [product("1", [variant("1a", { compareAtCents: 3999 }), variant("1b", { compareAtCents: null }), variant("1c", { compareAtCents: null })])];
    const changes = diffSnapshots(snapshot(0, prev, { currency: null }), snapshot(6, next));
    expect(changes).toEqual([
      expect.objectContaining({ kind: "compare-at-change", variant: expect.objectContaining({ id: "1a" }), oldCents: null, newCents: 3999 }),
      expect.objectContaining({ kind: "compare-at-change", variant: expect.objectContaining({ id: "1b" }), oldCents: 3999, newCents: null }),
    ]);
    // The later read's currency wins; a price stays a price, not a compare-at change.
    expect(changes[0]).toMatchObject({ currency: "USD" });
    expect(describeChange(changes[1])).toContain("from 39.99 USD to none");
  });

  it("a price drop and a compare-at change on the same variant are two changes", () => {
    const prev = [product("1", [variant("1a", { priceCents: 4000, compareAtCents: null })])];
    const next = [product("1", [variant("1a", { priceCents: 3000, compareAtCents: 4000 })])];
    expect(kinds(diffSnapshots(snapshot(0, prev), snapshot(6, next)))).toEqual(["price-change:1/1a", "compare-at-change:1/1a"]);
  });

  it("in stock -> out is a sell-out, out -> in is a restock", () => {
    const prev = [product("1", [variant("1a", { available: true }), variant("1b", { available: false })])];
    const next = [product("1", [variant("1a", { available: false }), variant("1b", { available: true })])];
    const changes = diffSnapshots(snapshot(0, prev), snapshot(6, next));
    expect(kinds(changes)).toEqual(["sold-out:1/1a", "restock:1/1b"]);
    expect(describeChange(changes[1])).toBe(`"Product 1" (Variant 1b) came back in stock between 1 Nov 2026, 00:00 UTC and 1 Nov 2026, 06:00 UTC.`);
  });

  it("unknown availability (null) is never a flip", () => {
    const prev = [product("1", [variant("a", { available: true }), variant("b", { available: null }), variant("c", { available: null }), variant("d", { available: false })])];
    const next = [product("1", [variant("a", { available: null }), variant("b", { available: false }), variant("c", { available: true }), variant("d", { available: null })])];
    expect(diffSnapshots(snapshot(0, prev), snapshot(6, next))).toEqual([]);
  });

  it("reports variants added and removed, but none when a read did not publish the variants", () => {
    const prev = [product("1", [variant("1a"), variant("1b")]), product("2", [variant("2a")])];
    const next = [product("1", [variant("1a"), variant("1c")]), product("2", [])];
    expect(kinds(diffSnapshots(snapshot(0, prev), snapshot(6, next)))).toEqual(["variant-added:1/1c", "variant-removed:1/1b"]);
    // And back: variants appearing again are not "added".
    expect(diffSnapshots(snapshot(6, next), snapshot(12, prev)).filter((c) => c.product.id === "2")).toEqual([]);
  });

  it("reports a removal when a full read no longer lists a product, named as it was", () => {
    const next = [product("2", [variant("2a")])];
    const changes = diffSnapshots(snapshot(0, base), snapshot(6, next));
    expect(changes).toEqual([{ kind: "removal", product: { id: "1", handle: "product-1", title: "Product 1" }, window: { from: at(0), to: at(6) } }]);
  });

  it("a truncated read produces no removals for products it did not reach, and still sees the rest", () => {
    const prev = [product("1", [variant("1a")]), product("2", [variant("2a")]), product("3", [variant("3a")])];
    const next = [product("1", [variant("1a", { priceCents: 1999 })])];
    const changes = diffSnapshots(snapshot(0, prev), snapshot(6, next, { truncated: true }));
    expect(kinds(changes)).toEqual(["price-change:1/1a"]);
    expect(changes.some((c) => c.kind === "removal")).toBe(false);
  });

  it("after a truncated read, a product not seen before is a launch only when its date falls in the window", () => {
    const prev = [product("1", [variant("1a")])];
    const next = [
      product("1", [variant("1a")]),
      product("old", [variant("o")]), // published long ago: probably just past the earlier read's cap
      product("new", [variant("n")], { publishedAt: at(3) }),
    ];
    const changes = diffSnapshots(snapshot(0, prev, { truncated: true }), snapshot(6, next));
    expect(changes).toEqual([
      expect.objectContaining({ kind: "launch", product: expect.objectContaining({ id: "new" }), launchedAt: at(3), dateSource: "published_at" }),
    ]);
  });

  describe("launches", () => {
    const launchOf = (p: ProductSnapshot) => diffSnapshots(snapshot(0, base), snapshot(24, [...base, p]));

    it("dates a launch by published_at when it falls in the window", () => {
      expect(launchOf(product("9", [variant("9a")], { publishedAt: at(10), createdAt: at(-100) }))).toEqual([
        {
          kind: "launch",
          product: { id: "9", handle: "product-9", title: "Product 9" },
          window: { from: at(0), to: at(24) },
          launchedAt: at(10),
          dateSource: "published_at",
        },
      ]);
    });

    it("falls back to created_at in the window when published_at is before it", () => {
      expect(launchOf(product("9", [variant("9a")], { publishedAt: at(-48), createdAt: at(5) }))).toEqual([
        expect.objectContaining({ kind: "launch", launchedAt: at(5), dateSource: "created_at" }),
      ]);
    });

    it("says only 'first seen' when published_at (and created_at) are before the window, or missing", () => {
      for (const over of [{ publishedAt: at(-48), createdAt: at(-72) }, { publishedAt: null, createdAt: null }, { publishedAt: "not a date", createdAt: null }, { publishedAt: at(48), createdAt: null }]) {
        const changes = launchOf(product("9", [variant("9a")], over));
        expect(changes).toEqual([expect.objectContaining({ kind: "launch", launchedAt: null, dateSource: "first-seen" })]);
        expect(describeChange(changes[0])).toBe(`"Product 9" first seen between 1 Nov 2026, 00:00 UTC and 2 Nov 2026, 00:00 UTC.`);
      }
    });

    it("a launch brings no variant changes of its own", () => {
      expect(kinds(launchOf(product("9", [variant("9a"), variant("9b", { available: false })])))).toEqual(["launch:9"]);
    });
  });

  it("counts a product or variant listed twice in one read once (the first copy)", () => {
    const prev = [product("1", [variant("1a"), variant("1a", { priceCents: 1 })]), product("1", [variant("1a", { priceCents: 5 })])];
    const next = [product("1", [variant("1a", { priceCents: 2499 })]), product("1", [variant("1a", { priceCents: 7 })])];
    expect(diffSnapshots(snapshot(0, prev), snapshot(6, next))).toEqual([
      expect.objectContaining({ kind: "price-change", oldCents: 2999, newCents: 2499, direction: "down" }),
    ]);
  });

  it("names a product by its later title", () => {
    const next = [product("1", [variant("1a", { available: false }), variant("1b")], { title: "Renamed" }), product("2", [variant("2a")])];
    expect(diffSnapshots(snapshot(0, base), snapshot(6, next))[0].product.title).toBe("Renamed");
  });

  it("refuses reads given out of order, or a time that is not a date, with a sentence", () => {
    expect(() => diffSnapshots(snapshot(6, base), snapshot(0, base))).toThrow(AppError);
    expect(() => diffSnapshots(snapshot(6, base), snapshot(0, base))).toThrow(/oldest first/);
    expect(() => diffSnapshots({ ...snapshot(0, base), takenAt: "yesterday" }, snapshot(6, base))).toThrow(/not a date: "yesterday"/);
  });
});

describe("diffSeries", () => {
  it("sorts the reads by time and diffs each consecutive pair", () => {
    const s0 = snapshot(0, [product("1", [variant("1a")])]);
    const s1 = snapshot(6, [product("1", [variant("1a", { available: false })])]);
    const s2 = snapshot(12, [product("1", [variant("1a", { available: true })])]);
    const changes = diffSeries([s2, s0, s1]);
    expect(kinds(changes)).toEqual(["sold-out:1/1a", "restock:1/1a"]);
    expect(changes.map((c) => c.window)).toEqual([{ from: at(0), to: at(6) }, { from: at(6), to: at(12) }]);
    expect(diffSeries([s0])).toEqual([]);
    expect(diffSeries([])).toEqual([]);
  });
});

describe("catalogueSeries", () => {
  it("counts products, variants and stock per read, oldest first, each measured", () => {
    const full = snapshot(0, [
      product("1", [variant("1a"), variant("1b", { available: false }), variant("1c", { available: null })]),
      product("2", [variant("2a")]),
      product("2", [variant("2a"), variant("2b")]), // listed twice: counted once, first copy
    ]);
    const cut = snapshot(6, [product("1", [variant("1a")])], { truncated: true });
    expect(catalogueSeries([cut, full])).toEqual([
      { kind: "measured", takenAt: at(0), products: 2, variants: 4, inStockVariants: 2, outOfStockVariants: 1, unknownStockVariants: 1, truncated: false },
      { kind: "measured", takenAt: at(6), products: 1, variants: 1, inStockVariants: 1, outOfStockVariants: 0, unknownStockVariants: 0, truncated: true },
    ]);
    const [p0, p1] = catalogueSeries([full, cut]);
    expect(describeFigure(p0)).toBe(`Measured ${at(0)}: 2 products, 4 variants (2 in stock).`);
    expect(describeFigure(p1)).toBe(`Measured ${at(6)}: at least 1 product, 1 variant (1 in stock); the read stopped before the end of the catalogue.`);
    expect(figureKindOf(p1)).toBe("measured");
  });
});

describe("alerts", () => {
  const prev = snapshot(0, [product("1", [variant("1a"), variant("1b")]), product("2", [variant("2a")])]);
  const next = snapshot(6, [
    product("1", [variant("1a", { priceCents: 1999 }), variant("1b", { priceCents: 3999 })]),
    product("2", [variant("2a", { priceCents: 999 })]),
    product("3", [variant("3a")], { publishedAt: at(2) }),
  ]);
  const changes = diffSnapshots(prev, next);

  it("priceDropsFor keeps the price drops on followed products only", () => {
    expect(priceDropsFor(changes, ["1"]).map((c) => [c.product.id, c.variant.id, c.oldCents, c.newCents])).toEqual([["1", "1a", 2999, 1999]]);
    expect(priceDropsFor(changes, new Set(["1", "2"])).map((c) => c.variant.id)).toEqual(["1a", "2a"]);
    expect(priceDropsFor(changes, [])).toEqual([]);
  });

  it("launchesIn keeps the launches", () => {
    expect(launchesIn(changes).map((c) => [c.product.id, c.dateSource])).toEqual([["3", "published_at"]]);
    expect(launchesIn([])).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Estimates

type Step = { at: number; apply: (products: ProductSnapshot[]) => void };

/** Reads every `every` hours from 0 to `hours`, each taken after the steps due by then. */
function readings(initial: ProductSnapshot[], steps: Step[], hours: number, every = 6, over: (h: number) => Partial<StoreSnapshot> = () => ({})): StoreSnapshot[] {
  const products = structuredClone(initial);
  const due = [...steps].sort((a, b) => a.at - b.at);
  const out: StoreSnapshot[] = [];
  for (let h = 0; h <= hours; h += every) {
    while (due.length > 0 && due[0].at <= h) due.shift()!.apply(products);
    out.push(snapshot(h, structuredClone(products), over(h)));
  }
  return out;
}

const findVariant = (products: ProductSnapshot[], id: string) => products.flatMap((p) => p.variants).find((v) => v.id === id)!;
const setStock = (id: string, available: boolean | null, hour: number): Step => ({ at: hour, apply: (ps) => void (findVariant(ps, id).available = available) });

/** 20 products with two variants each, all in stock at 29.99. */
const catalogue = () => Array.from({ length: 20 }, (_, i) => product(`p${i}`, [variant(`v${i}a`), variant(`v${i}b`)]));
const variantIds = catalogue().flatMap((p) => p.variants.map((v) => v.id));

function expectNoEstimate(result: WeeklyOrdersResult): string {
  expect(isEstimate(result)).toBe(false);
  if (isEstimate(result)) throw new Error("unreachable");
  expect(result.estimate).toBeNull();
  expect(result.reason).toMatch(/^not enough evidence: /);
  return result.reason;
}

function expectEstimate(result: WeeklyOrdersResult): WeeklyOrdersEstimate {
  expect(isEstimate(result)).toBe(true);
  if (!isEstimate(result)) throw new Error(result.reason);
  return result;
}

describe("estimateWeeklyOrders", () => {
  it("a quiet store (14 days, nothing moves) gets no estimate, and the counts it rests on", () => {
    const result = estimateWeeklyOrders(readings(catalogue(), [], 14 * 24));
    const reason = expectNoEstimate(result);
    expect(reason).toBe(
      "not enough evidence: 0 variants went out of stock and 0 came back in 14 days (57 reads of the catalogue). " +
        "A range needs at least 3 sell-outs or restocks, at least 1 of them a sell-out.",
    );
    expect(result.basis).toMatchObject({ kind: "measured", observedDays: 14, reads: 57, sellOuts: 0, restocks: 0, trackedVariants: 40, longestGapHours: 6 });
    expect(describeFigure(result)).toBe(`No estimate: ${reason}`);
  });

  it("an active store that never sells out gets no estimate either, and is told why", () => {
    const steps = [0, 1, 2, 3].map((i): Step => ({ at: 10 + i * 24, apply: (ps) => void (findVariant(ps, `v${i}a`).priceCents = 1999) }));
    const reason = expectNoEstimate(estimateWeeklyOrders(readings(catalogue(), steps, 7 * 24)));
    expect(reason).toContain("activity alone does not tell how much it sells");
  });

  it("too few days: 5 sell-outs in 2 days give no range", () => {
    const steps = [0, 1, 2, 3, 4].map((i) => setStock(variantIds[i], false, 3 + i * 6));
    const result = estimateWeeklyOrders(readings(catalogue(), steps, 48));
    expect(expectNoEstimate(result)).toBe("not enough evidence: 2 days of observation; a range needs at least 3 days.");
    expect(result.basis.sellOuts).toBe(5);
  });

  it("restocks alone (no sell-out seen) give no range", () => {
    const initial = catalogue();
    for (const id of variantIds.slice(0, 4)) findVariant(initial, id).available = false;
    const steps = variantIds.slice(0, 4).map((id, i) => setStock(id, true, 10 + i * 24));
    const result = estimateWeeklyOrders(readings(initial, steps, 7 * 24));
    expectNoEstimate(result);
    expect(result.basis).toMatchObject({ sellOuts: 0, restocks: 4 });
  });

  it("a store that does not publish availability gets no range: there is nothing to count", () => {
    const initial = catalogue();
    for (const v of initial.flatMap((p) => p.variants)) v.available = null;
    expect(expectNoEstimate(estimateWeeklyOrders(readings(initial, [], 7 * 24)))).toContain("does not publish whether its variants are in stock");
  });

  it("no reads at all: no estimate", () => {
    expect(expectNoEstimate(estimateWeeklyOrders([]))).toBe("not enough evidence: the store has not been read yet.");
  });

  // The busy store: read every 6 hours for 14 days (57 reads). A variant sells out every 12 hours (28 sell-outs),
  // 6 of them come back, 9 prices drop and 2 products launch.
  // S = 28, D = 14: low = floor(28 x 1 x 7/14) = 14; U(28) = 28 + 2 sqrt(29) + 2 = 40.77, high = ceil(40.77 x 20 x
  // 7/14) = ceil(407.7) = 408. So 14-408 orders/week: 14 is what the sell-outs alone account for; 408 allows for
  // sell-outs missed between reads and up to 20 orders behind each. 14 days, >= 10 sell-outs, a restock, no
  // truncated read and 6-hour gaps make it "medium", the most we ever say.
  function busyStore(restocks = 6): StoreSnapshot[] {
    const steps: Step[] = [
      ...Array.from({ length: 28 }, (_, k) => setStock(variantIds[k], false, 3 + 12 * k)),
      ...Array.from({ length: restocks }, (_, j) => setStock(variantIds[j], true, 100 + 24 * j)),
      ...Array.from({ length: 9 }, (_, i): Step => ({ at: 20 + 30 * i, apply: (ps) => void (findVariant(ps, `v${i}b`).priceCents = 2499) })),
      ...[50, 200].map((h, i): Step => ({ at: h, apply: (ps) => void ps.push(product(`new${i}`, [variant(`n${i}`)], { publishedAt: at(h - 1) })) })),
    ];
    return readings(catalogue(), steps, 14 * 24);
  }

  it("a busy store over 14 days: 14-408 orders/week, medium confidence, with its evidence written out", () => {
    const estimate = expectEstimate(estimateWeeklyOrders(busyStore()));
    expect(estimate).toMatchObject({ kind: "estimated", low: 14, high: 408, unit: "orders/week", confidence: "medium" });
    expect(estimate.basis).toMatchObject({
      kind: "measured",
      observedDays: 14,
      reads: 57,
      truncatedReads: 0,
      longestGapHours: 6,
      sellOuts: 28,
      restocks: 6,
      priceChanges: 9,
      priceDrops: 9,
      launches: 2,
      removals: 0,
      trackedVariants: 42,
    });
    expect(estimate.evidence).toEqual([
      "28 variants went out of stock and 6 came back in 14 days (57 reads of the catalogue).",
      "Store activity (moves no number): 9 price changes (9 down), 2 launches.",
      "Assumed, not measured: each sell-out is between 1 and 20 orders; a store holding deeper stock sells more than this range says.",
      "42 variants publish whether they are in stock.",
    ]);
    expect(describeFigure(estimate)).toBe("Estimated (medium confidence): 14-408 orders/week, from 28 sell-outs and 6 restocks in 14 days.");
    expect(figureKindOf(estimate)).toBe("estimated");
  });

  it("the same busy store with a truncated read or a day-long gap is only low confidence, and says why", () => {
    const withCut = busyStore().map((s, i) => (i === 30 ? { ...s, truncated: true } : s));
    const cut = expectEstimate(estimateWeeklyOrders(withCut));
    expect(cut.confidence).toBe("low");
    expect(cut.evidence).toContain("1 read stopped before the end of the catalogue: sell-outs past that point were missed.");

    const withGap = busyStore().filter((_, i) => i < 20 || i > 25); // reads 20..25 lost: 42 hours without a read
    const gap = expectEstimate(estimateWeeklyOrders(withGap));
    expect(gap.confidence).toBe("low");
    expect(gap.evidence).toContain("The longest gap between reads was 42 hours: short sell-outs in it were missed.");
  });

  it("the same busy store without a single restock is only low confidence (the sell-outs may be switched off by hand)", () => {
    const estimate = expectEstimate(estimateWeeklyOrders(busyStore(0)));
    expect(estimate).toMatchObject({ low: 14, high: 408, confidence: "low" });
    expect(estimate.evidence).toContain("No restock seen: some sell-outs may be variants switched off by hand.");
  });

  it("takes the reads in any order", () => {
    expect(estimateWeeklyOrders([...busyStore()].reverse())).toEqual(estimateWeeklyOrders(busyStore()));
  });

  it("a truncated read in a series invents no removals and so no activity", () => {
    const reads = readings(catalogue(), [], 4 * 24, 6, (h) => (h === 48 ? { truncated: true } : {}));
    reads[8] = { ...reads[8], products: reads[8].products.slice(0, 5) };
    const changes = diffSeries(reads);
    expect(changes.filter((c) => c.kind === "removal")).toEqual([]);
    // The next full read finds the 15 unreached products again: not launches (the truncated read did not reach them).
    expect(changes).toEqual([]);
    expect(catalogueSeries(reads)[8]).toMatchObject({ products: 5, truncated: true });
  });

  it("a restock after a sell-out counts once each, and the evidence names both", () => {
    const steps = [setStock("v0a", false, 5), setStock("v0a", true, 30), setStock("v1a", false, 40), setStock("v2a", false, 60)];
    const estimate = expectEstimate(estimateWeeklyOrders(readings(catalogue(), steps, 4 * 24)));
    // S = 3, R = 1, D = 4: low = floor(3 x 7/4) = 5; high = ceil((3 + 2 x 2 + 2) x 20 x 7/4) = ceil(315) = 315.
    expect(estimate).toMatchObject({ low: 5, high: 315, confidence: "low" });
    expect(estimate.evidence[0]).toBe("3 variants went out of stock and 1 came back in 4 days (17 reads of the catalogue).");
  });

  it("says when no restock was seen (sell-outs may be variants switched off by hand)", () => {
    const steps = [0, 1, 2].map((i) => setStock(variantIds[i], false, 5 + i * 20));
    const estimate = expectEstimate(estimateWeeklyOrders(readings(catalogue(), steps, 4 * 24)));
    expect(estimate.evidence).toContain("No restock seen: some sell-outs may be variants switched off by hand.");
  });

  describe("from changes over a window", () => {
    const stock = (kind: "sold-out" | "restock", hour: number, id = "v"): CatalogueChange => ({
      kind,
      product: { id: "p", handle: "p", title: "P" },
      window: { from: at(hour - 6), to: at(hour) },
      variant: { id, title: id, sku: null },
    });
    const window = (dayCount: number, sellOuts: number, restocks: number) => ({
      from: at(0),
      to: at(dayCount * 24),
      changes: [
        ...Array.from({ length: sellOuts }, (_, i) => stock("sold-out", 6 + ((i * 6) % (dayCount * 24 - 6)))),
        ...Array.from({ length: restocks }, (_, i) => stock("restock", 6 + ((i * 6) % (dayCount * 24 - 6)))),
      ],
    });

    it("gives the same range as the reads would, but never more than low confidence (reads and gaps unknown)", () => {
      const estimate = expectEstimate(estimateWeeklyOrders(window(14, 28, 6)));
      expect(estimate).toMatchObject({ low: 14, high: 408, confidence: "low" });
      expect(estimate.basis).toMatchObject({ reads: null, longestGapHours: null, trackedVariants: null });
      expect(estimate.evidence[0]).toBe("28 variants went out of stock and 6 came back in 14 days.");
    });

    it("ignores changes outside the window", () => {
      const w = window(7, 5, 1);
      const outside = [stock("sold-out", -1), stock("sold-out", 7 * 24 + 6)];
      expect(estimateWeeklyOrders({ ...w, changes: [...w.changes, ...outside] })).toEqual(estimateWeeklyOrders(w));
    });

    it("refuses a window that ends before it starts", () => {
      expect(() => estimateWeeklyOrders({ from: at(10), to: at(0), changes: [] })).toThrow(AppError);
    });

    it("narrows as days of the same activity accumulate, yet stays a wide range", () => {
      // Two sell-outs a day: low stays 14/week; high falls 621 (3 days) -> 475 (7) -> 408 (14) -> 366 (28).
      const ranges = [3, 7, 14, 28].map((d) => expectEstimate(estimateWeeklyOrders(window(d, 2 * d, 1))));
      expect(ranges.map((r) => [r.low, r.high])).toEqual([[14, 621], [14, 475], [14, 408], [14, 366]]);
      for (const r of ranges) expect(r.high / r.low).toBeGreaterThanOrEqual(ESTIMATE_RULES.ordersPerSellOut.high);
    });
  });

  it("the upper bound covers the exact 97.5% Poisson bound it stands for", () => {
    const exact: Array<[number, number]> = [[0, 3.69], [1, 5.57], [3, 8.77], [10, 18.39], [30, 42.83], [100, 121.63]];
    for (const [n, bound] of exact) expect(poissonUpper(n)).toBeGreaterThanOrEqual(bound);
  });
});

describe("estimate properties (fast-check)", () => {
  const stockChange = (kind: "sold-out" | "restock", i: number): CatalogueChange => ({
    kind,
    product: { id: `p${i}`, handle: `p${i}`, title: `P${i}` },
    window: { from: at(0), to: at(1) },
    variant: { id: `v${i}`, title: `V${i}`, sku: null },
  });
  const priceChange = (i: number): CatalogueChange => ({
    kind: "price-change",
    product: { id: `p${i}`, handle: `p${i}`, title: `P${i}` },
    window: { from: at(0), to: at(1) },
    variant: { id: `v${i}`, title: `V${i}`, sku: null },
    currency: null,
    oldCents: 1000,
    newCents: 900,
    direction: "down",
  });
  const observed = (hours: number, sellOuts: number, restocks: number, prices: number) => ({
    from: at(0),
    to: at(hours),
    changes: [
      ...Array.from({ length: sellOuts }, (_, i) => stockChange("sold-out", i)),
      ...Array.from({ length: restocks }, (_, i) => stockChange("restock", i)),
      ...Array.from({ length: prices }, (_, i) => priceChange(i)),
    ],
  });
  const lowOf = (r: WeeklyOrdersResult) => (isEstimate(r) ? r.low : 0);
  const arb = { hours: fc.integer({ min: 1, max: 90 * 24 }), count: fc.nat({ max: 400 }), small: fc.nat({ max: 30 }) };

  it("a range is two whole numbers, 0 <= low < high, never a high confidence", () => {
    fc.assert(
      fc.property(arb.hours, arb.count, arb.small, arb.small, (hours, s, r, p) => {
        const result = estimateWeeklyOrders(observed(hours, s, r, p));
        if (!isEstimate(result)) return;
        expect(Number.isInteger(result.low) && Number.isInteger(result.high)).toBe(true);
        expect(result.low).toBeGreaterThanOrEqual(0);
        expect(result.high).toBeGreaterThan(result.low);
        expect(["low", "medium"]).toContain(result.confidence);
      }),
    );
  });

  it("more observed sell-outs never lower `low` (no estimate counts as 0)", () => {
    fc.assert(
      fc.property(arb.hours, arb.count, arb.count, arb.small, arb.small, (hours, a, b, r, p) => {
        const [fewer, more] = a <= b ? [a, b] : [b, a];
        expect(lowOf(estimateWeeklyOrders(observed(hours, more, r, p)))).toBeGreaterThanOrEqual(lowOf(estimateWeeklyOrders(observed(hours, fewer, r, p))));
      }),
    );
  });

  it("price changes move no number", () => {
    fc.assert(
      fc.property(arb.hours, arb.count, arb.small, arb.small, (hours, s, r, p) => {
        const without = estimateWeeklyOrders(observed(hours, s, r, 0));
        const withPrices = estimateWeeklyOrders(observed(hours, s, r, p));
        expect(isEstimate(withPrices)).toBe(isEstimate(without));
        if (isEstimate(withPrices) && isEstimate(without)) expect([withPrices.low, withPrices.high]).toEqual([without.low, without.high]);
      }),
    );
  });

  it("on random reads: sell-outs and restocks are the true<->false flips, truncated reads remove nothing, the range is sound", () => {
    const cell = fc.constantFrom<boolean | null>(true, false, null);
    const read = fc.record({ stock: fc.array(cell, { minLength: 4, maxLength: 4 }), present: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }), truncated: fc.boolean() });
    fc.assert(
      fc.property(fc.array(read, { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 24 }), (reads, every) => {
        const snapshots = reads.map((r, i) =>
          snapshot(
            i * every,
            r.stock.map((available, j) => product(`p${j}`, [variant(`v${j}`, { available })])).filter((_, j) => r.present[j]),
            { truncated: r.truncated },
          ),
        );
        let sellOuts = 0;
        let restocks = 0;
        for (let i = 1; i < reads.length; i++) {
          for (let j = 0; j < 4; j++) {
            if (!reads[i - 1].present[j] || !reads[i].present[j]) continue;
            const [a, b] = [reads[i - 1].stock[j], reads[i].stock[j]];
            if (a === true && b === false) sellOuts += 1;
            if (a === false && b === true) restocks += 1;
          }
        }
        const changes = diffSeries(snapshots);
        for (const c of changes.filter((c) => c.kind === "removal")) {
          expect(snapshots.find((s) => s.takenAt === c.window.to)!.truncated).toBe(false);
        }
        const result = estimateWeeklyOrders(snapshots);
        expect(result.basis).toMatchObject({ sellOuts, restocks });
        if (isEstimate(result)) {
          expect(result.low).toBeGreaterThanOrEqual(0);
          expect(result.high).toBeGreaterThan(result.low);
        }
      }),
    );
  });
});
