// The built-in writer names a product's niches as a category of the shop, so a niche of any shape (a
// plural noun, a mass noun, a gerund, two words) reads right: no "Made for bags lovers", no "anyone
// into baby".
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { writeBuiltInAdScript, writeBuiltInCopy, type ProductFacts } from "~/integrations/ai-text.server";

const bag: ProductFacts = {
  title: "Foldable Travel Tote Bag",
  description: "A foldable tote that fits in a pocket. Holds a week of groceries.",
  niches: ["bags"],
  tags: [],
  reasons: [],
};

const text = (facts: ProductFacts) => {
  const copy = writeBuiltInCopy(facts);
  return [copy.descriptionHtml, ...copy.bullets].join("\n");
};

describe("niche wording in the built-in copy", () => {
  it("says 'our bags range', not 'Made for bags lovers'", () => {
    const copy = writeBuiltInCopy(bag);
    expect(copy.bullets).toContain("Part of our bags range");
    expect(copy.descriptionHtml).toContain("A pick from our bags range.");
    expect(text(bag)).not.toMatch(/lovers|anyone into/i);
  });

  it("never treats a niche as a person, whatever its name", () => {
    const slug = fc.constantFrom("bags", "baby", "pet-supplies", "cycling", "jewelry", "kitchen", "home_decor", "fitness");
    fc.assert(
      fc.property(fc.uniqueArray(slug, { minLength: 1, maxLength: 4 }), (niches) => {
        const out = text({ ...bag, niches });
        expect(out).not.toMatch(/lovers|fans\b|anyone into|for (?:bags|baby|cycling|jewelry|kitchen|fitness)\b/i);
        expect(out).toContain(`our ${niches[0].replace(/[-_]+/g, " ")}`);
      }),
    );
  });

  it("the ad script names the niche as a category too: no 'if you love baby', no 'bags products'", () => {
    for (const niche of ["bags", "baby", "cycling"]) {
      const script = writeBuiltInAdScript({ ...bag, niches: [niche], orders: 0, storesSelling: 0, priceCents: 1999 });
      // The three hooks offered are words the ad may show too.
      const words = [...script.scenes.map((s) => s.text), ...(script.hooks ?? [])].join("\n");
      expect(words).not.toMatch(new RegExp(`you love ${niche}|${niche} products|${niche} lovers|${niche} fans`, "i"));
    }
  });
});
