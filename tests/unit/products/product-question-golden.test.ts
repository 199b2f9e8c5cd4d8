// parseQuestion's whole answer pinned, clause by clause (issue 36: the 310-line function was cut into per-clause
// readers behind this test). For each question of the corpus, alone and as a follow-up to an earlier answer, every
// field of the parse (filters, notes, what it cannot do, "like X", refined, among shown) must equal what the parser
// gave before the cut, recorded in product-question-golden.json. A change of behaviour on purpose rewrites that file
// (WRITE_GOLDEN=1 npx vitest run tests/unit/products/product-question-golden.test.ts) and shows in its diff.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseQuestion, type QuestionContext } from "~/domain/products/product-question";

const NICHES = ["pets", "kitchen", "bakeware", "coffee-tea", "drinkware", "beauty", "skincare", "hair-care", "fitness", "yoga", "home-decor", "lighting", "smart-home", "phone-accessories", "tech-gadgets", "audio", "gaming", "office", "baby", "jewelry", "watches", "cycling", "camping", "gardening", "crafts"];

const previous: NonNullable<QuestionContext["previous"]> = {
  filters: { niche: ["pets"], stage: ["rising"], minPrice: 10, maxPrice: 30, minMargin: 40, q: "brush", sort: "orders" },
  products: [
    { objectID: "p-1", title: "Slicker brush", priceCents: 2499, niches: ["pets"] },
    { objectID: "p-2", title: "Posture corrector", priceCents: 1999, niches: ["fitness"] },
    { objectID: "p-3", title: "Sunset lamp", priceCents: 3450, niches: ["lighting", "home-decor"] },
  ],
};

/** One or more questions per clause of the parser, in its order, and a few that cross clauses. */
const CORPUS = [
  // Cues: a fresh start, the products shown, "top N".
  "start over: beauty", "new search for kitchen gadgets", "forget that, show me yoga", "which of these are under $20?",
  "any of those rising", "among them, the cheapest", "top 10 products", "top 5 kitchen",
  // What the grid cannot do.
  "ships from the US", "free shipping pets", "with 4 stars or more", "branded watches", "red dress in size M",
  "aliexpress suppliers for dog toys", "viral on tiktok", "in stock kitchen", "lightweight camping gear under 2 kg",
  // Negations.
  "not declining fitness", "nothing at its peak", "not expensive beauty", "not saturated", "not too competitive pets",
  "no kitchen products please", "dog toys without batteries", "except the ugly ones", "not more than $30",
  // Another product.
  "more like the second", "like the first one but cheaper", "cheaper than the third", "pricier than number 2",
  "like the last product", "more like the fifth", "something like the posture corrector but cheaper",
  "products similar to the sunset lamp", "like the slicker brush but pricier", "i'd like cheap kitchen stuff",
  "would like something like a yoga mat under $30",
  // The measured catalogue and when first seen.
  "measured products", "measured kitchen products from real stores", "sample data pets",
  "added by stores this week", "added by 3+ stores this week", "picked up by at least 5 new shops in the last week",
  "new this week", "added in the last 30 days", "launched in the past 2 weeks", "first seen in the last 3 months",
  "this month's new launches", "new this year",
  // Margins.
  "high margin beauty", "good margins", "margin over 40%", "at least 60% margin", "50%+ margin", "margins between 30 and 50%",
  "30-50% margin", "low margin", "profitable pets", "margin after duty over 30%", "40%", "under 25% margin",
  "margin of 150%", "pet products with a margin after duties of at least 30 percent",
  // Counts.
  "over 1000 orders", "1k+ orders", "more than 500 sales", "fewer than 5 stores", "sold by under 10 stores",
  "more than 1 store", "low competition kitchen", "over 10k views", "50k likes", "proven sellers", "well-tested gadgets",
  "500 orders or less", "at most 20 views",
  // Amazon.
  "on amazon", "products sold on amazon over $19", "also listed on amazon",
  // Prices.
  "pet products under $30", "between $20 and $40", "from 10 to 20", "30-50", "$30-$50", "around $25", "about 40 dollars",
  "$25 or less", "$60+", "50 usd and up", "€30 kitchen", "under £15", "beauty under $1,299.99", "$19.99", "cheaper", "pricier",
  "more expensive than that", "less than $30", "~$12", ">= $8", "<$5",
  // Stages and sorts.
  "emerging products", "new gaming stuff", "still growing", "fastest growing pets", "trending up hair care", "declining products",
  "best selling yoga mats", "highest margin kitchen", "cheapest phone cases", "most expensive jewelry", "newest camping gear",
  "trending products", "sort by margin", "surprise me", "by revenue", "cheap kitchen stuff", "budget baby products",
  "premium watches", "high-ticket fitness",
  // Niches and words.
  "stuff for puppies", "gifts for cat lovers", "bike accessories over $40", "makeup and skincare under $20",
  "garlic press under $20", "dog toys", "bluetooth speakers under $30", "necklaces over $40", "home decor",
  // Numbers nobody claimed, and contradictions.
  "pets 42", "kitchen 7 and 9", "over $50 under $20 pets", "at least 60% margin and under 20% margin",
  "more than 100 orders and fewer than 5 orders", "over 20 stores and fewer than 5 stores",
  // Crossing clauses.
  "cheap pet products under $20 with good margin", "home decor between $20 and $40 that are rising sorted by most orders",
  "and only rising ones", "what about kitchen", "same but under $15", "now sort by newest", "make it cheaper",
  "show me only measured ones with over 100 orders", "then the ones not at their peak",
  "", "   ", "$$$", "10000000000 orders", "margin 1000%",
];

const GOLDEN = path.join(__dirname, "product-question-golden.json");

function parseAll() {
  return CORPUS.map((question) => ({
    question,
    alone: parseQuestion(question, { niches: NICHES }),
    followUp: parseQuestion(question, { niches: NICHES, previous }),
  }));
}

describe("parseQuestion's whole answer, pinned", () => {
  if (process.env.WRITE_GOLDEN === "1") writeFileSync(GOLDEN, `${JSON.stringify(parseAll(), null, 1)}\n`);
  const golden = existsSync(GOLDEN) ? (JSON.parse(readFileSync(GOLDEN, "utf8")) as ReturnType<typeof parseAll>) : [];

  it("covers every question of the corpus", () => {
    expect(golden.map((g) => g.question)).toEqual(CORPUS);
  });
  it.each(parseAll().map((p, i) => [p.question, p, golden[i]] as const))("%j", (_question, parsed, recorded) => {
    expect(parsed).toEqual(recorded);
  });
});
