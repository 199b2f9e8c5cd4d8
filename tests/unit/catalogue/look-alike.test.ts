// Look-alikes stay apart (decision 087): the pure rules, and the pair decision with them, on the patterns real
// stores list; then properties over any title (any script, emoji, 250 characters) and up to 100 variants.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { identityVerdict, listingTraits, lookAlikeReason, siblingWords, titleNumbers, validGtin, type ListingFacts } from "~/domain/catalogue/look-alike";
import { decidePair, pairMatches, type ListingForMatch } from "~/domain/catalogue/match";
import { normaliseTitle } from "~/domain/catalogue/title";

let nextId = 1;
function listing(title: string, facts: ListingFacts = {}, siblings?: ReturnType<typeof siblingWords>): ListingForMatch {
  const t = normaliseTitle(title);
  return { id: nextId++, title: t, priceCents: 2000, currency: "USD", traits: listingTraits(title, t, facts, siblings) };
}
const same = (a: ListingForMatch, b: ListingForMatch, distance = 0) => decidePair(a, b, distance);

describe("GTINs", () => {
  it("accepts GTIN-8, -12, -13 and -14 with a right check digit, as 14 digits", () => {
    expect(validGtin("96385074")).toBe("00000096385074");
    expect(validGtin("036000291452")).toBe("00036000291452");
    expect(validGtin("4006381333931")).toBe("04006381333931");
    expect(validGtin("10614141000415")).toBe("10614141000415");
  });
  it("ignores anything else: a wrong check digit, letters, other lengths, zeros, nothing", () => {
    for (const code of ["4006381333932", "40063813339", "ABC1234567890", "000000000000", "", " ", "N/A", null, undefined, "4006381333931x"]) expect(validGtin(code)).toBeNull();
  });
});

describe("strong identifiers decide first", () => {
  it("equal barcodes match whatever the titles and pictures say; different barcodes never do", () => {
    const a = listing("Insulated Water Bottle 750ml", { storeId: 1, variants: [{ barcode: "4006381333931" }] });
    const b = listing("Dog Bed", { storeId: 2, variants: [{ barcode: "x" }, { barcode: "4006381333931" }] });
    expect(same(a, b, 40)).toMatchObject({ match: true });
    expect(same(a, b, 40).reason).toContain("same barcode 04006381333931");
    const c = listing("Insulated Water Bottle 750ml", { storeId: 3, variants: [{ barcode: "036000291452" }] });
    expect(same(a, c, 0)).toMatchObject({ match: false });
    expect(same(a, c, 0).reason).toContain("different barcodes");
  });
  it("a barcode that is not a GTIN is never a reason to merge or split", () => {
    const a = listing("Insulated Water Bottle 750ml", { storeId: 1, variants: [{ barcode: "4006381333932" }] });
    const b = listing("Insulated Water Bottle 750ml leak proof", { storeId: 2, variants: [{ barcode: "123" }] });
    expect(identityVerdict(a.traits!, b.traits!)).toBeNull();
    expect(same(a, b, 2).match).toBe(true);
    const c = listing("Dog Bed", { storeId: 3, variants: [{ barcode: "4006381333932" }] });
    expect(same(a, c, 2).match).toBe(false); // the same broken code does not merge
  });
  it("SKUs count only within one vendor", () => {
    const brand = (store: number, sku: string) => listing("Wireless Mechanical Keyboard", { storeId: store, vendor: "Quillkey", variants: [{ sku }] });
    expect(same(brand(1, "QK-K3"), brand(2, "qk-k3")).match).toBe(true);
    expect(same(brand(1, "QK-K3"), brand(2, "QK-K5")).reason).toContain("different SKUs");
    const own = (store: number, sku: string) => listing("Wireless Mechanical Keyboard", { storeId: store, vendor: `Store ${store}`, variants: [{ sku }] });
    expect(same(own(1, "A-1"), own(2, "B-7")).match).toBe(true); // each store's own codes say nothing
  });
});

describe("versions of one line stay apart whatever their pictures say", () => {
  const pairs: Array<[string, string]> = [
    ["Muslin Baby Blanket 4 Layer", "Muslin Baby Blanket | 8-Layer"],
    ["6 Panel Camp Cap", "Camp Cap 5 Panel - Organic Cotton"],
    ["Silicone Baby Bib Set of 4", "Silicone Baby Bib, Set of 6"],
    ["Silicone Baby Bib Set of 4", "SILICONE BABY BIB (6 PIECE SET)"],
    ["Wireless Charging Stand 2-in-1", "Wireless Charging Stand 3 in 1"],
    ["Felt Desk Mat Version 2", "Felt Desk Mat Version 3"],
    ["Organic Cold Pressed Juice | Carrot", "Organic Cold Pressed Juice - Beetroot"],
    ["Muslin Swaddle Blanket Dinosaur", "Butterfly Muslin Swaddle Blanket"],
    ["Muslin Swaddle Blanket Dinosaur", "Muslin Swaddle Blanket Rainbow"],
    ["Aluminium Keyboard Kit No. 2 | Plate", "Aluminium Keyboard Kit No. 2 | PCB"],
    ["Aluminium Keyboard Kit No. 2", "Aluminium Keyboard Kit No. 3"],
  ];
  it.each(pairs)("%s / %s", (x, y) => {
    const decision = same(listing(x, { storeId: 1 }), listing(y, { storeId: 2 }), 0);
    expect(decision.match).toBe(false);
    expect(decision.reason).toMatch(/^versions of one line, not one product: /);
  });

  it("an option both have, with no value in common, keeps them apart; shared values do not", () => {
    const bib = (values: string[], store: number) => listing("Muslin Knot Bib", { storeId: store, options: [{ name: "Size", values }] });
    expect(same(bib(["0-3 months"], 1), bib(["6-12 months", "12-24 months"], 2)).reason).toContain("size 0-3 months against");
    expect(same(bib(["0-3 months", "6-12 months"], 1), bib(["6-12 Months"], 2)).match).toBe(true);
    const colour = (name: string, values: string[], store: number) => listing("Canvas Lunch Bag", { storeId: store, options: [{ name, values }] });
    expect(same(colour("Colour", ["Khaki"], 1), colour("color", ["Navy"], 2)).match).toBe(false);
    expect(same(colour("Colour", ["Khaki"], 1), colour("Size", ["Large"], 2)).match).toBe(true);
  });

  it("one store's two listings are two products; identical barcodes still merge them", () => {
    expect(same(listing("Neck Fan", { storeId: 4 }), listing("Neck Fan", { storeId: 4 })).reason).toContain("one store's two listings");
    const withCode = { storeId: 4, variants: [{ barcode: "4006381333931" }] };
    expect(same(listing("Neck Fan", withCode), listing("Neck Fan", withCode)).match).toBe(true);
  });

  it("words a store uses to tell its own listings apart tell other stores' listings apart", () => {
    const line = ["Collection Snowboard Helium", "Collection Snowboard Neon", "Collection Snowboard Argon"];
    // Learned from two stores that list the line; one store alone, or pictures far apart, teach nothing.
    const siblings = siblingWords([9, 10].flatMap((storeId) => line.map((t) => ({ storeId, words: normaliseTitle(t).words }))));
    expect(siblings.get("helium")).toEqual(new Set(["neon", "argon"]));
    expect(siblingWords(line.map((t) => ({ storeId: 9, words: normaliseTitle(t).words }))).size).toBe(0);
    const far = [{ hi: 0, lo: 0 }, { hi: 0xffffffff, lo: 0xffffffff }];
    expect(siblingWords([9, 10].flatMap((storeId) => line.slice(0, 2).map((t, i) => ({ storeId, words: normaliseTitle(t).words, picture: far[i] })))).size).toBe(0);
    const decision = same(listing("Collection Snowboard, Helium", { storeId: 1 }, siblings), listing("Collection Snowboard Neon (All Mountain)", { storeId: 2 }, siblings));
    expect(decision.reason).toContain("helium against neon (a store sells both)");
    // Titles that differ in a number as well are not siblings by their words.
    const marked = siblingWords([
      { storeId: 3, words: ["floating", "wall", "shelf", "rustic"], marks: "tier=2" },
      { storeId: 3, words: ["floating", "wall", "shelf", "bathroom"], marks: "tier=3" },
    ]);
    expect(marked.size).toBe(0);
  });

  it("words named together in titles are one name's parts, not siblings, whatever one store dropped", () => {
    // Two stores each list two look-alike fans, one with "portable" dropped and one with "rechargeable" dropped: the
    // words look like a slot's alternatives, but other titles name both, so a third store's "Portable Neck Fan" and
    // a fourth's "Rechargeable Neck Fan" (one product, each title a word short) are not kept apart by them.
    const dropped = [9, 10].flatMap((storeId) => ["Portable Neck Fan USB", "Rechargeable Neck Fan USB"].map((t) => ({ storeId, words: normaliseTitle(t).words })));
    expect(siblingWords(dropped).get("portable")).toEqual(new Set(["rechargeable"]));
    const named = [11, 12].map((storeId) => ({ storeId, words: normaliseTitle("Portable Rechargeable Neck Fan").words }));
    const siblings = siblingWords([...dropped, ...named]);
    expect(siblings.has("portable")).toBe(false);
    expect(same(listing("Portable Neck Fan", { storeId: 3 }, siblings), listing("Rechargeable Neck Fan", { storeId: 4 }, siblings)).match).toBe(true);
    // One title naming both (a bundle) is not enough to unlearn them.
    expect(siblingWords([...dropped, named[0]]).get("portable")).toEqual(new Set(["rechargeable"]));
  });

  it("the same item reworded by two stores stays one product", () => {
    const reworded: Array<[string, string]> = [
      ["Muslin Baby Blanket 8 Layer - Newborn", "✨ Premium Muslin Baby Blanket – 8-Layers"],
      ["Silicone Baby Bib Set of 4", "With Pocket Silicone Baby Bib | Pack of 4"],
      ["2026 NEW Bladeless Neck Fan 🔥", "BLADELESS NECK FAN (USB RECHARGEABLE)"],
      ["Silicone Teether Rattle Kitty", "Silicone Teether Rattle - Cat"],
      ["Bougie Parfumée 70g | Figue", "Bougie parfumée 70g, figue, cire végétale"],
    ];
    for (const [x, y] of reworded) expect(same(listing(x, { storeId: 1 }), listing(y, { storeId: 2 }), 2), `${x} / ${y}`).toMatchObject({ match: true });
  });

  it("reads numbers tied to what they count, not years or unit quantities", () => {
    expect(Object.fromEntries(titleNumbers("2026 NEW Muslin Blanket 8 Layer, Set of 4, 500 ml, Version 2, 2 in 1"))).toEqual({
      layer: "8",
      pcs: "4",
      version: "2",
      "in-one": "2in1",
    });
  });
});

// ---------- properties ----------
const anyTitle = fc.oneof(
  fc.string({ maxLength: 250 }),
  fc.string({ unit: "grapheme", maxLength: 250 }),
  fc.array(fc.constantFrom("Muslin", "Blanket", "8", "Layer", "Set", "of", "4", "|", "-", "🔥", "恐竜", "Бабочка", "ช้าง", "Dinosaur", "No.", "2-in-1", "%"), { maxLength: 60 }).map((w) => w.join(" ")),
);
const anyCode = fc.oneof(fc.constant(null), fc.string({ maxLength: 20 }), fc.stringMatching(/^\d{8,14}$/), fc.constantFrom("4006381333931", "036000291452", "96385074"));
const anyFacts = fc.record({
  storeId: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
  vendor: fc.option(fc.constantFrom("", "Quillkey", "Store 1", "quillkey"), { nil: null }),
  variants: fc.array(fc.record({ sku: fc.option(fc.string({ maxLength: 12 }), { nil: null }), barcode: anyCode }), { maxLength: 100 }),
  options: fc.array(fc.record({ name: fc.constantFrom("Size", "Color", "Colour", "Title", "Layout"), values: fc.array(fc.string({ maxLength: 30 }), { maxLength: 100 }) }), { maxLength: 3 }),
});

describe("properties", () => {
  it("any titles and facts: an answer with a sentence, never a throw; pairMatches agrees; symmetric where it must be", () => {
    fc.assert(
      fc.property(anyTitle, anyTitle, anyFacts, anyFacts, (x, y, fx, fy) => {
        const a = listing(x, fx);
        const b = listing(y, fy);
        for (const distance of [0, 5, 13, 40]) {
          const d = decidePair(a, b, distance);
          expect(typeof d.reason).toBe("string");
          expect(d.reason.length).toBeGreaterThan(0);
          expect(pairMatches(a, b, distance)).toBe(d.match);
          // Identifiers and the look-alike rules are symmetric: swapping the listings never changes "apart".
          expect(identityVerdict(a.traits!, b.traits!)?.same).toBe(identityVerdict(b.traits!, a.traits!)?.same);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("a valid barcode shared decides a merge; valid barcodes none shared decide a split, whatever else", () => {
    fc.assert(
      fc.property(anyTitle, anyTitle, anyFacts, anyFacts, fc.integer({ min: 0, max: 64 }), (x, y, fx, fy, distance) => {
        const code = { sku: null, barcode: "4006381333931" };
        const a = listing(x, { ...fx, variants: [...fx.variants, code] });
        const b = listing(y, { ...fy, variants: [code, ...fy.variants] });
        expect(decidePair(a, b, distance).match).toBe(true);
        const c = listing(y, { ...fy, variants: [{ sku: null, barcode: "036000291452" }] });
        const onlyOther = a.traits!.barcodes.includes("00036000291452");
        if (!onlyOther) expect(decidePair(a, c, distance).match).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it("two titles that differ only in the number they count never match", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("Muslin Baby Blanket", "Camp Cap", "Seed Starter Tray", "Wall Shelf"),
        fc.constantFrom("Layer", "Panel", "Cell", "Tier", "Outlet"),
        fc.integer({ min: 1, max: 999 }),
        fc.integer({ min: 1, max: 999 }),
        (line, unit, m, n) => {
          fc.pre(m !== n);
          const a = listing(`${line} ${m} ${unit}`, { storeId: 1 });
          const b = listing(`${line} ${n}-${unit}`, { storeId: 2 });
          expect(decidePair(a, b, 0).match).toBe(false);
          expect(lookAlikeReason(a.traits, b.traits, a.title, b.title)).toContain(`against`);
        },
      ),
    );
  });
});
