// The built-in parser of plain-words questions (app/domain/products/product-question.ts): a table of phrasings
// with the grid filters each must give (prices with and without currency signs, under/over/between,
// niche synonyms, stages, sorts, margins, counts), what it must say it cannot do (never guessed),
// "like X" and follow-ups that refine the previous answer, and properties over any text.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  checkModelAnswer,
  describeFilters,
  filtersFromParams,
  filtersProblem,
  filtersToParams,
  likeProduct,
  parseQuestion,
  QuestionFiltersSchema,
  readsAsQuestion,
  whyItFits,
  type QuestionContext,
  type QuestionFilters,
} from "~/domain/products/product-question";
import { parseProductQuery } from "~/domain/products/product-query";

// The generator's niches (scripts/lib/product-vocabulary.ts).
const NICHES = ["pets", "kitchen", "bakeware", "coffee-tea", "drinkware", "beauty", "skincare", "hair-care", "fitness", "yoga", "home-decor", "lighting", "smart-home", "phone-accessories", "tech-gadgets", "audio", "gaming", "office", "stationery", "baby", "kids-toys", "outdoor", "camping", "fishing", "cycling", "car-accessories", "travel", "bags", "jewelry", "watches", "fashion-accessories", "shoes", "health", "sleep", "massage", "bathroom", "cleaning", "storage-organization", "gardening", "tools-diy", "party-supplies", "crafts"];
const context: QuestionContext = { niches: NICHES };

const TABLE: [string, QuestionFilters][] = [
  // Prices, with and without currency signs and words.
  ["pet products under $30 with high margin that are rising", { niche: ["pets"], stage: ["rising"], maxPrice: 30, minMargin: 50 }],
  ["pet products under 30 dollars", { niche: ["pets"], maxPrice: 30 }],
  ["kitchen gadgets below $25", { niche: ["kitchen"], maxPrice: 25 }],
  ["less than $30", { maxPrice: 30 }],
  ["under 30", { maxPrice: 30 }],
  ["over $50", { minPrice: 50 }],
  ["above 100 dollars", { minPrice: 100 }],
  ["more than $40", { minPrice: 40 }],
  ["at least $15", { minPrice: 15 }],
  ["between $20 and $40", { minPrice: 20, maxPrice: 40 }],
  ["between 20 and 40", { minPrice: 20, maxPrice: 40 }],
  ["from $10 to $20", { minPrice: 10, maxPrice: 20 }],
  ["30-50", { minPrice: 30, maxPrice: 50 }],
  ["$30-$50", { minPrice: 30, maxPrice: 50 }],
  ["$20 to $35 yoga", { niche: ["yoga"], minPrice: 20, maxPrice: 35 }],
  ["around $25", { minPrice: 20, maxPrice: 30 }],
  ["$25 or less", { maxPrice: 25 }],
  ["$60+", { minPrice: 60 }],
  ["50 usd and up", { minPrice: 50 }],
  ["dog toys under 15 bucks", { q: "dog toys", niche: ["pets"], maxPrice: 15 }],
  ["beauty under $1,299.99", { niche: ["beauty"], maxPrice: 1299.99 }],
  ["cheap kitchen stuff", { niche: ["kitchen"], maxPrice: 20 }],
  ["budget baby products", { niche: ["baby"], maxPrice: 20 }],
  ["premium watches", { niche: ["watches"], minPrice: 50 }],
  ["high-ticket fitness", { niche: ["fitness"], minPrice: 50 }],
  // Margins.
  ["high margin beauty", { niche: ["beauty"], minMargin: 50 }],
  ["good margins", { minMargin: 50 }],
  ["margin over 40%", { minMargin: 40 }],
  ["at least 60% margin", { minMargin: 60 }],
  ["50%+ margin", { minMargin: 50 }],
  ["margins between 30 and 50%", { minMargin: 30, maxMargin: 50 }],
  ["low margin", { maxMargin: 20 }],
  ["profitable pets", { niche: ["pets"], minMargin: 50 }],
  // The margin is after duty and fees (decision 065): saying so changes nothing but is never searched as text.
  ["margin after duty over 30%", { minMargin: 30 }],
  ["margin above 30%", { minMargin: 30 }],
  ["margins over 30 percent", { minMargin: 30 }],
  ["at least 30% margin after fees", { minMargin: 30 }],
  ["margin after duty and fees over 30%", { minMargin: 30 }],
  ["pet products with a margin after duties of at least 30 percent", { niche: ["pets"], minMargin: 30 }],
  ["kitchen gadgets with 30%+ margin after tariffs and fees", { niche: ["kitchen"], minMargin: 30 }],
  // Stages.
  ["emerging products", { stage: ["emerging"] }],
  ["new gaming stuff", { niche: ["gaming"], stage: ["emerging"] }],
  ["rising skincare", { niche: ["skincare"], stage: ["rising"] }],
  ["trending up hair care", { niche: ["hair-care"], stage: ["rising"] }],
  ["growing products", { stage: ["rising"] }],
  ["declining products", { stage: ["declining"] }],
  ["products at their peak", { stage: ["peak"] }],
  ["not declining fitness", { niche: ["fitness"], stage: ["emerging", "rising", "peak"] }],
  // Sorts.
  ["best selling yoga mats", { q: "mats", niche: ["yoga"], sort: "orders" }],
  ["most orders", { sort: "orders" }],
  ["highest margin kitchen", { niche: ["kitchen"], sort: "margin" }],
  ["cheapest phone cases", { q: "cases", niche: ["phone-accessories"], sort: "price-asc" }],
  ["most expensive jewelry", { niche: ["jewelry"], sort: "price" }],
  ["newest camping gear", { niche: ["camping"], sort: "newest" }],
  ["trending products", { sort: "trending" }],
  ["sort by margin", { sort: "margin" }],
  ["top 10 products", { sort: "winning-score" }],
  ["surprise me", { sort: "random" }],
  // Counts.
  ["over 1000 orders", { minOrders: 1000 }],
  ["1k+ orders", { minOrders: 1000 }],
  ["more than 500 sales", { minOrders: 500 }],
  ["fewer than 5 stores", { maxStores: 5 }],
  ["sold by under 10 stores", { maxStores: 10 }],
  ["low competition kitchen", { niche: ["kitchen"], maxStores: 10 }],
  ["not saturated", { maxStores: 10 }],
  ["over 10k views", { minViews: 10000 }],
  // Amazon and first seen.
  ["on amazon", { hasAmazonPrice: true }],
  ["products sold on amazon over $19", { minPrice: 19, hasAmazonPrice: true }],
  ["new this week", { firstSeenDays: 7 }],
  ["added in the last 30 days", { firstSeenDays: 30 }],
  // Niche synonyms and words searched as text.
  ["stuff for puppies", { q: "puppies", niche: ["pets"] }],
  ["gifts for cat lovers", { q: "gifts cat lovers", niche: ["pets"] }],
  ["bike accessories over $40", { niche: ["cycling"], minPrice: 40 }],
  ["makeup and skincare under $20", { niche: ["beauty", "skincare"], maxPrice: 20 }],
  ["garlic press under $20", { q: "garlic press", maxPrice: 20 }],
  // A niche's word that names a kind of product is also searched (issue 35: "dog toys" is not every pet product).
  ["dog toys", { q: "dog toys", niche: ["pets"] }],
  ["cheap cat toys", { q: "cat toys", niche: ["pets"], maxPrice: 20 }],
  ["bluetooth speakers under $30", { q: "bluetooth speakers", niche: ["audio"], maxPrice: 30 }],
  ["necklaces over $40", { q: "necklaces", niche: ["jewelry"], minPrice: 40 }],
  ["pet products under $30", { niche: ["pets"], maxPrice: 30 }],
  ["cheap pet products under $20 with good margin", { niche: ["pets"], maxPrice: 20, minMargin: 50 }],
  ["home decor between $20 and $40 that are rising sorted by most orders", { niche: ["home-decor"], stage: ["rising"], minPrice: 20, maxPrice: 40, sort: "orders" }],
  // What the grid cannot do keeps its words out of the filters.
  ["ships from the US", {}],
  ["free shipping pets", { niche: ["pets"] }],
  ["with 4 stars or more", {}],
  ["no kitchen products please", {}],
  ["dog toys without batteries", { q: "dog toys", niche: ["pets"] }],
  ["over $50 under $20 pets", { niche: ["pets"] }],
];

describe("the built-in parser: a question becomes the grid's filters", () => {
  it("has at least 60 phrasings", () => expect(TABLE.length).toBeGreaterThanOrEqual(60));

  // A loop, not it.each: its titles would read "$30" as a placeholder.
  for (const [question, expected] of TABLE) {
    it(question, () => {
      const parsed = parseQuestion(question, context);
      expect(parsed.filters).toEqual(expected);
      expect(parsed.likeTitle).toBeNull();
      // The grid takes every answer as it is.
      expect(filtersProblem(parsed.filters)).toBeNull();
    });
  }
});

describe("the search box sends a sentence to the parser, and searches words as text (issue 35)", () => {
  // Loops, not it.each: its titles would read "$20" as a placeholder.
  const questions = [
    "cheap pet products under $20 with good margin",
    "pet products under $30",
    "kitchen gadgets with high margin that are rising",
    "best selling yoga mats this month",
    "cheap dog toys",
    "garlic press under 20 dollars",
    "phone cases with 1000+ orders",
    "something like the posture corrector",
    "dog toys that ship from the US",
  ];
  for (const text of questions) it(`“${text}” reads as a question`, () => expect(readsAsQuestion(text, NICHES)).toBe(true));

  // Product words, misspelt ones, and a stage or order word that is part of a product's name.
  const words = ["air fryer", "christmas gifts", "dog toys", "bluetoth speker", "posture corrector", "new balance shoes", "led strip lights", "best", "fresh herb keeper", "phone holder car", "king size pillow", "iphone 15 case", "", "   "];
  for (const text of words) it(`“${text}” is searched as text`, () => expect(readsAsQuestion(text, NICHES)).toBe(false));
});

describe("what it cannot do is said, never guessed", () => {
  it.each([
    ["ships from the US", "I can't filter by shipping country, delivery time or free shipping yet."],
    ["free shipping pets", "I can't filter by shipping country, delivery time or free shipping yet."],
    ["I'd like pet stuff that ships fast", "I can't filter by shipping country, delivery time or free shipping yet."],
    ["with 4 stars or more", "I can't filter by reviews or ratings: the catalogue does not keep them."],
    ["branded watches", "I can't filter by brand: the catalogue's products are brand-less."],
    ["red shoes in size 9", "I can't filter by colour or size yet."],
    ["aliexpress suppliers", "I can't filter by supplier yet."],
    ["viral on tiktok", "I can't filter by social platform: views and engagement are counted across platforms."],
    ["no kitchen products please", "I can't leave out a niche (Kitchen) yet: the grid's niche filter only includes. Pick the niches you want instead."],
    ["dog toys without batteries", "I can't leave out “batteries”: the grid can only include things, so I did not use it."],
    ["over $50 under $20 pets", "The price bounds contradict each other (at least 50 and at most 20), so I used neither."],
    ["cheaper", "Cheaper than what? Ask about some products first, or give a price like “under $30”."],
  ])("%#: the question's sentence is said", (question, sentence) => {
    expect(parseQuestion(question, context).cannot).toContain(sentence);
  });

  it("states the meaning it gave a word", () => {
    expect(parseQuestion("high margin pets", context).notes).toContain("“High margin” means a margin after duty and fees of 50% or more.");
    expect(parseQuestion("cheap kitchen stuff", context).notes).toContain("“Cheap” means $20.00 or less.");
    expect(parseQuestion("low competition", context).notes).toContain("“Low competition” means sold by 10 stores or fewer.");
    expect(parseQuestion("€30 beauty", context).notes).toContain("Prices in the catalogue are in US dollars: I read the amounts as dollars.");
  });

  it("maps words only to niches the catalogue has", () => {
    expect(parseQuestion("dog toys", { niches: ["kitchen"] }).filters).toEqual({ q: "dog toys" });
  });

  it("does not read “I'd like” as a comparison", () => {
    expect(parseQuestion("I'd like pet products", context).likeTitle).toBeNull();
  });
});

describe("like X", () => {
  it.each([
    ["something like the posture corrector but cheaper", "posture corrector", "cheaper"],
    ["products similar to the sunset lamp", "sunset lamp", null],
    ["like the slicker brush but pricier", "slicker brush", "pricier"],
  ])("%s names “%s” for the caller to look up", (question, title, move) => {
    const parsed = parseQuestion(question, context);
    expect(parsed.likeTitle).toBe(title);
    expect(parsed.likeMove).toBe(move);
  });

  const brush = { objectID: "b-1", title: "Slicker brush", priceCents: 2400, niches: ["pets", "cleaning"] };
  it("takes the product's niche and a band of ±25% around its price", () => {
    expect(likeProduct({}, brush, null).filters).toEqual({ niche: ["pets"], minPrice: 18, maxPrice: 30 });
  });
  it("cheaper: strictly below its price; pricier: strictly above", () => {
    expect(likeProduct({}, brush, "cheaper").filters).toEqual({ niche: ["pets"], maxPrice: 23.99 });
    expect(likeProduct({ niche: ["kitchen"] }, brush, "pricier").filters).toEqual({ niche: ["kitchen"], minPrice: 24.01 });
  });
});

describe("follow-ups refine the previous answer", () => {
  const products = [
    { objectID: "p-1", title: "Slicker brush", priceCents: 2499, niches: ["pets"] },
    { objectID: "p-2", title: "Posture corrector", priceCents: 1999, niches: ["fitness"] },
  ];
  const previous: NonNullable<QuestionContext["previous"]> = { filters: { niche: ["pets"], stage: ["rising"], maxPrice: 30, sort: "orders" }, products };
  const ask = (q: string, prev = previous) => parseQuestion(q, { niches: NICHES, previous: prev });

  it("“cheaper” lowers the price band by a quarter and keeps the rest", () => {
    const r = ask("cheaper");
    expect(r.refined).toBe(true);
    expect(r.filters).toEqual({ niche: ["pets"], stage: ["rising"], maxPrice: 22, sort: "orders" });
    expect(r.notes).toContain("“Cheaper” moved the price band down by a quarter: $30.00 or less became $22.00 or less.");
  });
  it("“cheaper” without a price band goes under the middle price of the last answer", () => {
    expect(ask("cheaper", { filters: { niche: ["pets"] }, products }).filters).toEqual({ niche: ["pets"], maxPrice: 14 });
  });
  it("“only rising ones” sets the stage", () => {
    expect(ask("only rising ones", { filters: { niche: ["pets"], stage: ["peak"] }, products }).filters).toEqual({ niche: ["pets"], stage: ["rising"] });
  });
  it("“more like the second” takes the second product's niche and price band", () => {
    const r = ask("more like the second");
    expect(r.filters).toEqual({ niche: ["fitness"], stage: ["rising"], minPrice: 14, maxPrice: 25, sort: "orders" });
    expect(r.notes).toContain("Like “Posture corrector”: the same niche (Fitness), priced within about 25% of its $19.99.");
  });
  it("“under $20” replaces the price, “sort by margin” the sort", () => {
    expect(ask("under $20").filters).toEqual({ niche: ["pets"], stage: ["rising"], maxPrice: 20, sort: "orders" });
    expect(ask("sort by margin").filters).toEqual({ niche: ["pets"], stage: ["rising"], maxPrice: 30, sort: "margin" });
  });
  it("a question with its own subject starts afresh; a cue keeps the rest", () => {
    expect(ask("kitchen stuff")).toMatchObject({ refined: false, filters: { niche: ["kitchen"] } });
    expect(ask("what about kitchen").filters).toEqual({ niche: ["kitchen"], stage: ["rising"], maxPrice: 30, sort: "orders" });
    expect(ask("start over: beauty").filters).toEqual({ niche: ["beauty"] });
  });
  it("a position past the last answer is said", () => {
    expect(ask("more like the fifth").cannot).toContain("The last answer listed 2 products, so there is no number 5.");
  });
});

describe("filters and the grid", () => {
  it("are the grid's own URL parameters, and open the same query", () => {
    const f: QuestionFilters = { niche: ["pets", "kitchen"], stage: ["rising"], maxPrice: 22.5, minMargin: 50, sort: "orders" };
    const params = filtersToParams(f);
    expect(params.toString()).toBe("niche=pets%2Ckitchen&stage=rising&maxPrice=22.5&minMargin=50&sort=orders");
    const q = parseProductQuery(params);
    expect(q).toMatchObject({ niches: ["pets", "kitchen"], stages: ["rising"], price: { max: 2250 }, margin: { min: 5000 }, sort: "orders" });
    expect(filtersFromParams(params)).toEqual(f);
  });

  it("are described in words", () => {
    expect(describeFilters({ niche: ["home-decor"], maxPrice: 30, minMargin: 50, stage: ["rising"], sort: "orders" })).toEqual([
      "niche Home decor",
      "stage Rising (estimate)",
      "price $30.00 or less",
      "margin after duty and fees 50% or more",
      "sorted by most orders (30 days)",
    ]);
  });

  it("why a product fits quotes its own figures, and margin only when the plan shows it", () => {
    const p = { objectID: "x", title: "Brush", niches: ["pets"], priceCents: 2499, orders: 1840, storesSelling: 4, winningScore: 88, lifecycleStage: "rising", marginBps: 6240 };
    const f: QuestionFilters = { niche: ["pets"], stage: ["rising"], minMargin: 50 };
    expect(whyItFits(p, f)).toEqual(["$24.99", "in Pets", "stage Rising (estimate)", "margin after duty and fees 62.4%", "1,840 orders in 30 days", "winning score 88/100"]);
    expect(whyItFits({ ...p, marginBps: null }, f).join(" ")).not.toContain("62.4%");
  });
});

describe("the model's answer is checked", () => {
  it("accepts filters the grid takes", () => {
    expect(checkModelAnswer({ niche: ["pets"], maxPrice: 30, unsupported: ["shipping country"] }, NICHES)).toMatchObject({ ok: true });
  });
  it.each([
    [{ maxPrice: "thirty" }, "maxPrice"],
    [{ stage: ["sideways"] }, "stage"],
    [{ niche: ["unicorns"] }, "niche: unicorns is not a niche of the catalogue"],
    [{ minPrice: 50, maxPrice: 20 }, "maxPrice: the minimum is above the maximum"],
    ["not an object", "answer"],
  ])("refuses %j", (raw, reason) => {
    const checked = checkModelAnswer(raw, NICHES);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.reason).toContain(reason);
  });
});

describe("properties", () => {
  it("any text gives filters the grid accepts, that survive the URL", () => {
    const words = fc.constantFrom("pets", "under", "$30", "over", "50%", "margin", "rising", "not", "cheap", "like", "the", "second", "between", "20", "and", "40", "orders", "1k", "stores", "best", "new", "-", "%", "€", "kitchen", "cheaper", "without");
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 120 }), fc.array(words, { maxLength: 14 }).map((w) => w.join(" "))), (text) => {
        const parsed = parseQuestion(text, { niches: NICHES, previous: { filters: { maxPrice: 30 }, products: [{ objectID: "a", title: "A", priceCents: 1000, niches: ["pets"] }] } });
        expect(QuestionFiltersSchema.safeParse(parsed.filters).success).toBe(true);
        expect(filtersProblem(parsed.filters)).toBeNull();
        expect(filtersFromParams(filtersToParams(parsed.filters)) ?? {}).toEqual(parsed.filters);
      }),
      { numRuns: 400 },
    );
  });
});
