// The demo catalogue reads like real listings (docs/decisions/028), checked over 50,000 generated products
// and over random seeds: no word twice in a title ("Calming Calming Bed"), every attribute from its own
// noun's list ("LED Vegan Eyelash Curler" cannot happen), a picture drawn for each category (a handbag for
// bags, never a phone), descriptions that claim only what their own type of product does, and suppliers
// that say they are demo data instead of linking to suppliers.example.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEMO_SUPPLIER_NAME } from "~/domain/products/demo-catalogue";
import { CATEGORY_DRAWINGS, drawingSubject, renderProductSvg } from "~/services/products/images.server";
import { generateProduct, NICHES, titleVocabulary, titleWords } from "../../../scripts/lib/product-generator";

const END_DAY = "2026-05-31";

/** The title's parts: "[Portable] [attribute] noun [Set | (Set of n)] [for audience]", read back with the niche's table. */
function readTitle(title: string, nicheSlug: string) {
  const niche = NICHES.find((n) => n.slug === nicheSlug);
  if (!niche) throw new Error(`unknown niche ${nicheSlug}`);
  const [head, audience = null] = title.split(" for ");
  const withoutSet = head.replace(/ (Set|\(Set of [2-6]\))$/, "");
  const nouns = titleVocabulary(niche).filter((n) => withoutSet === n.noun || withoutSet.endsWith(` ${n.noun}`));
  // The longest noun the title ends with ("Hair Clip" rather than "Clip").
  const noun = nouns.sort((a, b) => b.noun.length - a.noun.length)[0];
  if (!noun) throw new Error(`"${title}" ends with no noun of ${nicheSlug}`);
  const before = withoutSet.slice(0, withoutSet.length - noun.noun.length).trim();
  const attribute = before.replace(/^Portable\b ?/, "") || null;
  return { noun, attribute, portable: before.startsWith("Portable"), audience };
}

function check(product: ReturnType<typeof generateProduct>) {
  const words = titleWords(product.title);
  expect(new Set(words).size, product.title).toBe(words.length);
  const { noun, attribute, portable, audience } = readTitle(product.title, product.niches[0]);
  if (attribute !== null) {
    const fits = [...noun.attributes, ...noun.rare].map((a) => a.text);
    expect(fits, `${product.title}: "${attribute}" is not an attribute of ${noun.noun}`).toContain(attribute);
  }
  if (portable) expect(noun.portable, product.title).toBe(true);
  if (audience !== null) expect(noun.audiences.map((a) => a.text), product.title).toContain(audience);
  // The description claims what this type of product does, never another type's benefit (issue 25).
  const claimed = /^An? .+? that (.+?)\./.exec(product.description)?.[1];
  expect(noun.benefits, `${product.title}: "${claimed}"`).toContain(claimed);
  expect(product.supplierName).toBe(DEMO_SUPPLIER_NAME);
  expect(product.supplierUrl).toBeNull();
  expect(JSON.stringify(product)).not.toContain("suppliers.example");
}

describe("the demo catalogue", () => {
  it("50,000 products: no repeated word in a title, attributes only from their noun's list, demo suppliers", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 50_000; i++) {
      const product = generateProduct(i, { seed: 1, endDay: END_DAY });
      check(product);
      seen.add(product.niches[0]);
    }
    expect(seen.size).toBe(NICHES.length);
  }, 120_000);

  it("holds for any seed and product number", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.nat({ max: 5_000_000 }), (seed, index) => {
        check(generateProduct(index, { seed, endDay: END_DAY }));
      }),
      { numRuns: 3000 },
    );
  });

  it("gives every category a drawing of its own, and each product the drawing of its category", () => {
    const subjects = NICHES.map((n) => drawingSubject(n.slug));
    expect(new Set(subjects).size).toBe(NICHES.length);
    for (const niche of NICHES) expect(CATEGORY_DRAWINGS[niche.slug], niche.slug).toBeDefined();
    expect(drawingSubject("bags")).toBe("a handbag");
    expect(drawingSubject("lighting")).toBe("a table lamp");
    expect(drawingSubject("shoes")).toBe("a sneaker");
    // Products are drawn as their (primary) category, whatever their title says.
    for (let i = 0; i < 400; i++) {
      const p = generateProduct(i, { seed: 3, endDay: END_DAY });
      const svg = renderProductSvg({ objectID: p.objectID, n: 1, title: p.title, niche: p.niches[0] });
      expect(svg).toContain(`data-subject="${drawingSubject(p.niches[0])}"`);
      expect(svg).toContain(`drawing of ${drawingSubject(p.niches[0])}"`);
    }
    // A niche of someone's own import gets a neutral parcel, not another category's object.
    expect(drawingSubject("garden-gnomes")).toBe("a parcel");
  });

  it("is still deterministic for a seed", () => {
    expect(JSON.stringify(generateProduct(123, { seed: 9, endDay: END_DAY }))).toBe(JSON.stringify(generateProduct(123, { seed: 9, endDay: END_DAY })));
  });
});
