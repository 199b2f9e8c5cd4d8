// Issue 25, item 9: the sample catalogue stops giving itself away. Over the first-start catalogue (3,000
// products, seed 42) and a larger one: no title twice, every price inside its niche's range, a second
// niche only when it is a related one; and an import names a niche the catalogue has whatever its case
// or synonym ("Pet supplies" is "pets").
import { describe, expect, it } from "vitest";
import { parseProductRow } from "~/domain/products/product-import";
import { generateProducts, NICHES, nichePriceRange, RELATED_NICHES } from "../../../scripts/lib/product-generator";

const OPTIONS = { seed: 42, endDay: "2026-11-25" };

describe("the generated sample catalogue", () => {
  const products = [...generateProducts(3000, OPTIONS)];

  it("never repeats a title", () => {
    const seen = new Map<string, number>();
    for (const p of products) seen.set(p.title.toLowerCase(), (seen.get(p.title.toLowerCase()) ?? 0) + 1);
    expect([...seen].filter(([, n]) => n > 1).slice(0, 5)).toEqual([]);
    expect(products).toHaveLength(3000);
  });

  it("prices each product inside its niche's range", () => {
    for (const niche of NICHES) {
      const { minCents, maxCents } = nichePriceRange(niche.slug);
      expect(minCents).toBeLessThan(niche.price * 100);
      expect(maxCents).toBeGreaterThan(niche.price * 100);
    }
    const outside = products.filter((p) => {
      const { minCents, maxCents } = nichePriceRange(p.niches[0]);
      return p.priceCents < minCents || p.priceCents > maxCents;
    });
    expect(outside.slice(0, 3).map((p) => `${p.title} (${p.niches[0]}) $${p.priceCents / 100}`)).toEqual([]);
  });

  it("gives a second niche only when it is related to the first", () => {
    const unrelated = products.filter((p) => p.niches.length > 1 && !(RELATED_NICHES[p.niches[0]] ?? []).includes(p.niches[1]));
    expect(unrelated.slice(0, 3).map((p) => `${p.title}: ${p.niches.join(", ")}`)).toEqual([]);
  });
});

describe("an import's niche names", () => {
  it("are matched to the catalogue's niches whatever their case or synonym", () => {
    const row = [...generateProducts(1, OPTIONS)][0];
    const parsed = parseProductRow({ ...row, niches: ["Pet supplies", "PETS", "Dogs", "Home & Garden"] });
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(parsed.row.niches).toEqual(["pets", "home-garden"]);
  });
});
