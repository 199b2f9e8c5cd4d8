// Plain-words questions about products ("pet products under $30 with high margin that are rising") turned
// into the product grid's query (docs/decisions/031). The filters use the grid's own URL parameter names
// and units (app/domain/products/product-query.ts: dollars, percent, counts), so an answer's filters open as they
// are in the grid. Pure: the catalogue's niches and the previous answer come in as context; a product
// named by title ("like the posture corrector") is looked up by the caller (the assistant service).
//
// Words with a stated meaning (HIGH_MARGIN_PERCENT, CHEAP_MAX_DOLLARS, ...) are explained in the answer's
// notes; what the grid cannot filter by (shipping country, reviews, brands, leaving a niche out) is said
// in `cannot`, never guessed.
import { z } from "zod";
import { formatCount } from "~/domain/products/insights";
import { soldByStores } from "~/domain/catalogue/measured-product";
import { parseProductQuery, QueryError, SORTS, STAGES, type Sort, type Stage } from "~/domain/products/product-query";

/** A question (and a follow-up) is at most this long. */
export const QUESTION_MAX_CHARS = 500;
/** "High margin" means a margin of at least this many percent. */
export const HIGH_MARGIN_PERCENT = 50;
/** "Low margin" means a margin of at most this many percent. */
export const LOW_MARGIN_PERCENT = 20;
/** "Cheap", "budget", "affordable": this price or less, in dollars. */
export const CHEAP_MAX_DOLLARS = 20;
/** "Premium", "expensive", "high-ticket": this price or more, in dollars. */
export const PREMIUM_MIN_DOLLARS = 50;
/** "Low competition", "not saturated": sold by at most this many stores. */
export const LOW_COMPETITION_MAX_STORES = 10;
/** "Best sellers" with a number nowhere: no threshold, a sort by orders. "Proven": at least this many orders. */
export const PROVEN_MIN_ORDERS = 500;
/** "Like X": X's niche and a price band of X's price ± this share. */
export const LIKE_PRICE_BAND = 0.25;
/** "Cheaper" lowers the price band by this share; "pricier" raises it by the same. */
export const PRICE_STEP = 0.25;

// ---------- the filters: the grid's parameters ----------

const money = z.number().min(0).max(10_000_000);
const count = z.number().int().min(0).max(1_000_000_000);

/** The grid's query as an object: keys are the grid's URL parameters, in the grid's units. */
export const QuestionFiltersSchema = z.object({
  q: z.string().trim().min(1).max(200).optional(),
  niche: z.array(z.string().regex(/^[a-z0-9-]{1,40}$/)).min(1).max(10).optional(),
  stage: z.array(z.enum(STAGES)).min(1).max(4).optional(),
  /** Dollars. */
  minPrice: money.optional(),
  maxPrice: money.optional(),
  /** Percent: (price - cost - shipping) / price. */
  minMargin: z.number().min(-1000).max(100).optional(),
  maxMargin: z.number().min(-1000).max(100).optional(),
  /** Orders in the last 30 days. */
  minOrders: count.optional(),
  maxOrders: count.optional(),
  minStores: count.optional(),
  maxStores: count.optional(),
  /** Stores that added it in the last 7 days (measured products only). */
  minStoresAdded7d: count.optional(),
  /** Measured products (what real stores sell) or sample data; absent: both. */
  source: z.enum(["measured", "sample"]).optional(),
  minViews: count.optional(),
  minEngagement: count.optional(),
  hasAmazonPrice: z.boolean().optional(),
  firstSeenDays: z.number().int().min(1).max(3650).optional(),
  sort: z.enum(SORTS).optional(),
});
export type QuestionFilters = z.infer<typeof QuestionFiltersSchema>;

const KEY_ORDER = Object.keys(QuestionFiltersSchema.shape) as (keyof QuestionFilters)[];

/** "30" for 30, "22.5" for 22.5, "19.99" for 19.99: dollars the grid's price fields accept. */
function dollarsText(n: number): string {
  return (Math.round(n * 100) / 100).toFixed(2).replace(/\.00$/, "").replace(/(\.\d)0$/, "$1");
}

function numberText(n: number): string {
  return String(Math.round(n * 100) / 100);
}

/** The filters as the grid's URL parameters, always in the same order. */
export function filtersToParams(f: QuestionFilters): URLSearchParams {
  const out = new URLSearchParams();
  for (const key of KEY_ORDER) {
    const v = f[key];
    if (v === undefined) continue;
    if (Array.isArray(v)) out.set(key, v.join(","));
    else if (typeof v === "boolean") {
      if (v) out.set(key, "true");
    } else if (typeof v === "number") out.set(key, key === "minPrice" || key === "maxPrice" ? dollarsText(v) : numberText(v));
    else out.set(key, v);
  }
  return out;
}

/**
 * The filters of grid URL parameters (a stored answer's query). Parameters the assistant does not
 * write are left out; null when what is left is not a query.
 */
export function filtersFromParams(params: URLSearchParams): QuestionFilters | null {
  const raw: Record<string, unknown> = {};
  for (const key of KEY_ORDER) {
    const v = params.get(key);
    if (v === null || v === "") continue;
    if (key === "niche" || key === "stage") raw[key] = v.split(",").filter(Boolean);
    else if (key === "hasAmazonPrice") raw[key] = v === "true" || v === "1";
    else if (key === "q" || key === "sort" || key === "source") raw[key] = v;
    else raw[key] = Number(v);
  }
  const parsed = QuestionFiltersSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** Why the grid would refuse these filters (a minimum above its maximum, ...), or null when it takes them. */
export function filtersProblem(f: QuestionFilters): string | null {
  try {
    parseProductQuery(filtersToParams(f));
    return null;
  } catch (error) {
    if (error instanceof QueryError) return error.message;
    throw error;
  }
}

// ---------- describing filters and products in words ----------

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
/** Cents as the product pages show them: 2499 -> "$24.99". */
export const money$ = (cents: number) => usd.format(cents / 100);
const dollars$ = (d: number) => money$(Math.round(d * 100));
/** Basis points as the product pages show them: 6240 -> "62.4%". */
export const percentOfBps = (bps: number) => `${(bps / 100).toFixed(1).replace(/\.0$/, "")}%`;

export const STAGE_WORDS: Record<Stage, string> = { emerging: "Emerging", rising: "Rising", peak: "Peak", declining: "Declining" };

export const SORT_WORDS: Record<Sort, string> = {
  "winning-score": "winning score",
  orders: "most orders (30 days)",
  revenue: "most revenue (30 days)",
  margin: "highest margin",
  price: "price, high to low",
  "price-asc": "price, low to high",
  newest: "newest first",
  trending: "trending now",
  random: "shuffle",
  relevance: "best match",
  storesAdded7d: "stores added this week",
  storesSelling: "stores selling",
};

/** "home-decor" -> "Home decor". */
export function nicheWords(slug: string): string {
  const words = slug.replace(/-/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function rangeWords(min: number | undefined, max: number | undefined, show: (n: number) => string, more = "or more", less = "or less") {
  if (min !== undefined && max !== undefined) return min === max ? show(min) : `${show(min)} to ${show(max)}`;
  if (min !== undefined) return `${show(min)} ${more}`;
  if (max !== undefined) return `${show(max)} ${less}`;
  return null;
}

/** A count range with its noun, singular for exactly one: "1 store", "2 to 5 stores", "1 order or less". */
function countWords(min: number | undefined, max: number | undefined, one: string, many: string, less: string): string | null {
  const noun = (n: number) => (n === 1 ? one : many);
  if (min !== undefined && max !== undefined) {
    return min === max ? `${formatCount(min)} ${noun(min)}` : `${formatCount(min)} to ${formatCount(max)} ${many}`;
  }
  if (min !== undefined) return `${formatCount(min)} or more ${many}`;
  if (max !== undefined) return max === 1 ? `1 ${one} ${less}` : `${formatCount(max)} ${less} ${many}`;
  return null;
}

/** The filters in words, one short phrase each, in the grid's order: what the answer says it searched. */
export function describeFilters(f: QuestionFilters): string[] {
  const out: string[] = [];
  if (f.source === "measured") out.push("measured products (what the stores we observe sell)");
  if (f.source === "sample") out.push("sample data only");
  if (f.q) out.push(`words “${f.q}”`);
  if (f.niche) out.push(`${f.niche.length === 1 ? "niche" : "niches"} ${f.niche.map(nicheWords).join(" or ")}`);
  if (f.stage) out.push(`stage ${f.stage.map((s) => STAGE_WORDS[s]).join(" or ")} (estimate)`);
  const price = rangeWords(f.minPrice, f.maxPrice, dollars$);
  if (price) out.push(`price ${price}`);
  const margin = rangeWords(f.minMargin, f.maxMargin, (n) => `${numberText(n)}%`);
  if (margin) out.push(`margin after duty and fees ${margin}`);
  const orders = countWords(f.minOrders, f.maxOrders, "order", "orders", "or less");
  if (orders) out.push(`${orders} (30 days)`);
  const stores = countWords(f.minStores, f.maxStores, "store", "stores", "or fewer");
  if (stores) out.push(`sold by ${stores}`);
  if (f.minStoresAdded7d !== undefined)
    out.push(`added by ${formatCount(f.minStoresAdded7d)} or more ${f.minStoresAdded7d === 1 ? "store" : "stores"} this week`);
  if (f.minViews !== undefined) out.push(`${formatCount(f.minViews)} or more views (30 days)`);
  if (f.minEngagement !== undefined) out.push(`${formatCount(f.minEngagement)} or more likes, comments and shares (30 days)`);
  if (f.hasAmazonPrice) out.push("with an Amazon price");
  if (f.firstSeenDays !== undefined) out.push(`first seen in the last ${formatCount(f.firstSeenDays)} days`);
  if (f.sort) out.push(`sorted by ${SORT_WORDS[f.sort]}`);
  return out;
}

/** Whether an answer's filters or order use the margin (then the answer says what the margin is). */
export function usesMargin(f: QuestionFilters): boolean {
  return f.minMargin !== undefined || f.maxMargin !== undefined || f.sort === "margin";
}

/** What the margin the grid filters on is, and the day its duty layers were checked (decision 065). */
export function marginMeaning(asOf: string | null): string {
  const when = asOf ? ` as of ${asOf}` : "";
  return `Margins are after duty and fees${when}: price minus supplier cost, shipping, US duty for each product's guessed HTS code and origin, and Shopify Payments' fees (2.9% + 30c), over price; no refund reserve or ad cost.`;
}

/** What the answer may say about one product: the figures its card shows (margin only with insights). */
export interface ProductFacts {
  objectID: string;
  title: string;
  niches: string[];
  priceCents: number;
  /** Null for a product with no sales data (added from a tracked store): its figures are not quoted. */
  orders: number | null;
  storesSelling: number | null;
  winningScore: number | null;
  lifecycleStage: string | null;
  /** "measured": its stores are counted, its orders are not (docs/decisions/046). */
  source?: string;
  /** Measured products: stores that added it in the last 7 days. */
  storesAdded7d?: number | null;
  views?: number | null;
  /** The margin after duty and fees the grid filters on (decision 065); null without a known cost or when the plan hides margins. */
  marginBps: number | null;
  amazonPriceCents?: number | null;
}

/**
 * Why a product fits the filters, quoting only its own figures as the product pages show them: each
 * filter the question set, then the figure it is sorted by. The first line is always its price.
 */
export function whyItFits(p: ProductFacts, f: QuestionFilters): string[] {
  const out: string[] = [money$(p.priceCents)];
  if (f.niche) {
    const hit = p.niches.find((n) => f.niche!.includes(n));
    if (hit) out.push(`in ${nicheWords(hit)}`);
  }
  if ((f.stage || f.sort === "trending") && p.lifecycleStage) {
    out.push(`stage ${STAGE_WORDS[p.lifecycleStage as Stage] ?? p.lifecycleStage} (estimate)`);
  }
  if ((f.minMargin !== undefined || f.maxMargin !== undefined || f.sort === "margin") && p.marginBps !== null) {
    out.push(`margin after duty and fees ${percentOfBps(p.marginBps)}`);
  }
  const measured = p.source === "measured";
  if (measured) out.push("measured: orders are not counted");
  else if (p.orders === null) out.push("no sales data yet");
  else out.push(`${formatCount(p.orders)} ${p.orders === 1 ? "order" : "orders"} in 30 days`);
  if ((measured || f.minStores !== undefined || f.maxStores !== undefined || f.sort === "storesSelling") && p.storesSelling !== null)
    out.push(soldByStores(p.storesSelling));
  if (measured && p.storesAdded7d != null && (p.storesAdded7d > 0 || f.minStoresAdded7d !== undefined || f.sort === "storesAdded7d"))
    out.push(`added by ${formatCount(p.storesAdded7d)} ${p.storesAdded7d === 1 ? "store" : "stores"} this week`);
  if (f.minViews !== undefined && p.views != null) out.push(`${formatCount(p.views)} views in 30 days`);
  if (f.hasAmazonPrice && p.amazonPriceCents) out.push(`Amazon price ${money$(p.amazonPriceCents)}`);
  if (p.winningScore !== null) out.push(`winning score ${p.winningScore}/100`);
  return out;
}

/**
 * Whether a product already shown passes the filters ("which of these are under $20?"), read from the
 * same figures its card shows. A figure the product lacks (no sales data, a margin the plan hides) does not
 * pass a filter on it, as in the grid (decision 026). Text matches every word of it in the title.
 */
export function factsPassFilters(p: ProductFacts, f: QuestionFilters): boolean {
  const within = (v: number | null | undefined, min: number | undefined, max: number | undefined) =>
    (min === undefined && max === undefined) || (v != null && (min === undefined || v >= min) && (max === undefined || v <= max));
  if (f.niche && !p.niches.some((n) => f.niche!.includes(n))) return false;
  if (f.stage && !(p.lifecycleStage && (f.stage as string[]).includes(p.lifecycleStage))) return false;
  if (f.source && (p.source === "measured") !== (f.source === "measured")) return false;
  if (!within(p.priceCents / 100, f.minPrice, f.maxPrice)) return false;
  if (!within(p.marginBps === null ? null : p.marginBps / 100, f.minMargin, f.maxMargin)) return false;
  if (!within(p.orders, f.minOrders, f.maxOrders)) return false;
  if (!within(p.storesSelling, f.minStores, f.maxStores)) return false;
  if (!within(p.storesAdded7d, f.minStoresAdded7d, undefined)) return false;
  if (!within(p.views, f.minViews, undefined)) return false;
  if (f.hasAmazonPrice && !p.amazonPriceCents) return false;
  if (f.q) {
    const title = p.title.toLowerCase();
    if (!f.q.toLowerCase().split(/\s+/).every((word) => title.includes(word))) return false;
  }
  return true;
}

// ---------- the built-in parser ----------

/** A product the question compares against ("like the second", "like the posture corrector"). */
export interface LikeProduct {
  objectID: string;
  title: string;
  priceCents: number;
  niches: string[];
}

export interface QuestionContext {
  /** The catalogue's niche slugs: a word maps only to a niche that exists. */
  niches: readonly string[];
  /** The thread's last answer: follow-ups refine its filters and may name its products by position. */
  previous?: { filters: QuestionFilters; products: LikeProduct[] } | null;
}

export type PriceMove = "cheaper" | "pricier";

export interface ParsedQuestion {
  filters: QuestionFilters;
  /** A product named by its title: the caller looks it up, then applies likeProduct(). */
  likeTitle: string | null;
  /** "Cheaper"/"pricier" said of the named product. */
  likeMove: PriceMove | null;
  /** True when the question refined the previous answer's filters. */
  refined: boolean;
  /** "Which of these ...": the answer is the previous answer's products that pass the filters. */
  amongShown: boolean;
  /** How words were read: the stated meanings of "high margin", "cheap", "cheaper", ... */
  notes: string[];
  /** What was asked that the grid cannot do, in sentences. */
  cannot: string[];
}

/** Words for niches; a word maps to a niche only when the catalogue has that slug. Longest phrases win. */
export const NICHE_SYNONYMS: Record<string, string[]> = {
  pets: ["pet toys", "dog toys", "cat toys", "chew toys", "pet", "pets", "dog", "dogs", "puppy", "puppies", "cat", "cats", "kitten", "kittens", "doggy", "pet supplies"],
  kitchen: ["kitchen", "cooking", "cook", "kitchenware", "kitchen gadgets"],
  bakeware: ["baking", "bakeware", "bake", "baker", "bakers"],
  "coffee-tea": ["coffee", "tea", "espresso", "barista", "coffee and tea"],
  drinkware: ["drinkware", "tumbler", "tumblers", "water bottle", "water bottles", "mug", "mugs", "hydration"],
  beauty: ["beauty", "makeup", "make-up", "cosmetics", "nails", "lashes"],
  skincare: ["skincare", "skin care", "skin", "facial", "face care"],
  "hair-care": ["hair", "haircare", "hair care", "hairstyling"],
  fitness: ["fitness", "gym", "workout", "workouts", "exercise", "home gym"],
  yoga: ["yoga", "pilates", "meditation"],
  "home-decor": ["decor", "home decor", "home decoration", "interior", "decoration"],
  lighting: ["lighting", "lights", "lamp", "lamps", "led"],
  "smart-home": ["smart home", "home automation", "smart-home"],
  "phone-accessories": ["phone", "phones", "phone accessories", "iphone", "android", "mobile"],
  "tech-gadgets": ["tech", "gadget", "gadgets", "electronics", "tech gadgets"],
  audio: ["audio", "headphones", "earbuds", "speaker", "speakers", "music"],
  gaming: ["gaming", "gamer", "gamers", "video games"],
  office: ["office", "home office", "work from home", "wfh", "desk"],
  stationery: ["stationery", "planner", "planners", "journaling", "pens"],
  baby: ["baby", "babies", "newborn", "newborns", "infant", "infants", "nursery"],
  "kids-toys": ["kids", "kid", "toys", "toy", "children", "child", "kids toys"],
  outdoor: ["outdoor", "outdoors", "backyard", "patio"],
  camping: ["camping", "camp", "hiking"],
  fishing: ["fishing", "angler", "anglers"],
  cycling: ["cycling", "bike", "bikes", "bicycle", "bicycles"],
  "car-accessories": ["car", "cars", "auto", "automotive", "car accessories", "vehicle"],
  travel: ["travel", "traveling", "travelling", "luggage", "travellers", "travelers"],
  bags: ["bags", "bag", "backpack", "backpacks", "handbag", "handbags", "purse", "purses"],
  jewelry: ["jewelry", "jewellery", "necklace", "necklaces", "earrings", "bracelet", "bracelets"],
  watches: ["watch", "watches"],
  "fashion-accessories": ["fashion", "fashion accessories", "sunglasses", "scarf", "scarves"],
  shoes: ["shoes", "shoe", "sneakers", "footwear"],
  health: ["health", "wellness", "healthcare", "posture"],
  sleep: ["sleep", "sleeping", "insomnia"],
  massage: ["massage", "massager", "massagers"],
  bathroom: ["bathroom", "bath", "shower"],
  cleaning: ["cleaning", "cleaner", "cleaners"],
  "storage-organization": ["storage", "organization", "organisation", "organizer", "organizers", "organiser", "declutter"],
  gardening: ["garden", "gardening", "gardeners", "plants"],
  "tools-diy": ["tools", "tool", "diy"],
  "party-supplies": ["party", "parties", "party supplies", "birthday", "wedding"],
  crafts: ["crafts", "craft", "crafting", "sewing", "knitting"],
};

/**
 * Niche words that name a kind of product inside the niche: they choose the niche and are searched as words too,
 * so "dog toys" finds the dog toys, not every pet product by score (issue 35). The other niche words ("pets",
 * "kitchen", "cooking") name only the niche.
 */
const PRODUCT_NOUNS = new Set(
  [
    "pet toys", "dog toys", "cat toys", "chew toys", "dog", "dogs", "puppy", "puppies", "cat", "cats", "kitten", "kittens", "doggy",
    "espresso", "tumbler", "tumblers", "water bottle", "water bottles", "mug", "mugs", "nails", "lashes",
    "lamp", "lamps", "iphone", "android", "headphones", "earbuds", "speaker", "speakers", "desk", "planner", "planners", "pens",
    "backpack", "backpacks", "handbag", "handbags", "purse", "purses",
    "necklace", "necklaces", "earrings", "bracelet", "bracelets", "sunglasses", "scarf", "scarves", "sneakers",
    "massager", "massagers", "organizer", "organizers", "organiser", "plants", "birthday", "wedding", "sewing", "knitting",
  ],
);

/** Words that carry no filter: never turned into search text. */
const STOP_WORDS = new Set(
  (
    "a an the and or but of for to in on at by with from into that which who whose what show me find give get i im i'm i'd i've we're let's " +
    "we my our you your want need looking look search searching some any all please can could would should there " +
    "products product items item stuff things thing ones one those these them they it its is are be been being was were " +
    "sell selling sold seller sellers niche niches idea ideas good great nice cool really very more most less least " +
    "now also just only same than then this that's so too some something anything list lists ok okay thanks thank " +
    "how about what's whats do does price priced prices cost costs costing dollar dollars usd bucks margin margins " +
    "order orders sale sales sorted sort rank ranked ranking order by per store stores shop shops dropshipping " +
    "dropship winning winners winner trend trends trendy category categories kind kinds type types sort of " +
    "here again instead other another like similar such as well right where when while have has had lot lots of " +
    "new ones today week month year days day still gear fast quick quickly accessories accessory"
  ).split(/\s+/),
);

interface Work {
  s: string;
  notes: string[];
  cannot: string[];
}

/** Removes every match of `re` from the working text, calling `fn` for each; a false return keeps the text. */
function take(w: Work, re: RegExp, fn: (m: RegExpExecArray) => boolean | void) {
  const global = new RegExp(re.source, re.flags.includes("g") ? re.flags : `${re.flags}g`);
  w.s = w.s.replace(global, (...args) => {
    const m = args.slice(0, -2) as unknown as RegExpExecArray;
    m.index = args[args.length - 2] as number;
    return fn(m) === false ? (args[0] as string) : " | ";
  });
}

const NUM = String.raw`\$?\s?(\d+(?:\.\d{1,2})?)(?!\d|\.\d)`;

/** "after duty and fees", "net of tariffs", "after fees": what the grid's margin already is (decision 065). */
const DUTY_WORD = String.raw`(?:the\s+)?(?:us\s+|import\s+|payment\s+|transaction\s+)?(?:duty|duties|tariffs?|customs|fees?)`;
const AFTER_DUTY_AND_FEES = new RegExp(String.raw`\b(?:after|net of|including|incl\.?)\s+(?:all\s+)?${DUTY_WORD}(?:\s*(?:,|and|&|\+|plus)\s*${DUTY_WORD})*(?![\w-])`, "g");

/** Lower case, one kind of quote and dash, thousands separators and "k" expanded, currencies as "$". */
function normalize(text: string, w: { notes: string[] }): string {
  let s = ` ${text.normalize("NFKC").toLowerCase()} `
    .replace(/[‘’`´]/g, "'")
    .replace(/[“”«»]/g, '"')
    .replace(/[–—−]/g, "-")
    .replace(/≤/g, "<=")
    .replace(/≥/g, ">=")
    .replace(/(\d),(\d{3})(?!\d)/g, "$1$2")
    .replace(/(\d),(\d{3})(?!\d)/g, "$1$2")
    .replace(/(\d+(?:\.\d+)?)\s?k\b/g, (_, n: string) => String(Math.round(Number(n) * 1000)))
    .replace(/(\d+(?:\.\d+)?)\s?m\b(?!\w)/g, (_, n: string) => String(Math.round(Number(n) * 1_000_000)));
  if (/[€£]|\b(?:eur|euros?|gbp|pounds?|cad|aud)\b/.test(s)) {
    w.notes.push("Prices in the catalogue are in US dollars: I read the amounts as dollars.");
    s = s.replace(/[€£]/g, "$").replace(/\b(?:eur|euros?|gbp|pounds?|cad|aud)\b/g, "dollars");
  }
  return s
    .replace(/(\d+(?:\.\d+)?)\s?(?:percent|per cent|pct)\b/g, "$1%")
    // The grid's margin is after duty and fees (decision 065): saying so asks for that margin, never for words.
    .replace(AFTER_DUTY_AND_FEES, " ")
    .replace(/(\d+(?:\.\d{1,2})?)\s?\$/g, "$$$1")
    .replace(/(\d+(?:\.\d{1,2})?)\s?(?:usd|dollars?|bucks)\b/g, "$$$1")
    .replace(/\$\s+(\d)/g, "$$$1")
    .replace(/\s+/g, " ");
}

/** Things the grid cannot filter by: said in a sentence, and their words kept out of everything else. */
const CANNOT: { re: RegExp; say: string }[] = [
  {
    re: /\b(?:ships?|shipping|shipped|delivery|delivered|deliver|warehouse)\b(?:\s+(?:from|to|in|within|country|countries|time|times))?(?:\s+(?:the\s+)?(?:us|usa|uk|eu|europe|china|canada|australia|germany|france|[a-z]+ ?days?))?|\b(?:shipping|destination) country\b|\bfast shipping\b|\bfree shipping\b|\bships? (?:fast|quickly)\b|\b(?:us|usa|uk|eu|china)[- ](?:based|warehouse|suppliers?)\b/,
    say: "I can't filter by shipping country, delivery time or free shipping yet.",
  },
  { re: /\b(?:reviews?|ratings?|rated|stars?|\d(?:\.\d)? stars?)\b/, say: "I can't filter by reviews or ratings: the catalogue does not keep them." },
  { re: /\b(?:brands?|branded|brand name)\b/, say: "I can't filter by brand: the catalogue's products are brand-less." },
  { re: /\b(?:colou?rs?|sizes?|sized|variants?)\b/, say: "I can't filter by colour or size yet." },
  {
    re: /\b(?:supplier|suppliers|aliexpress|alibaba|cj ?dropshipping|zendrop|temu)\b/,
    say: "I can't filter by supplier yet.",
  },
  {
    re: /\b(?:tiktok|tik tok|instagram|facebook|youtube|pinterest|meta ads?)\b/,
    say: "I can't filter by social platform: views and engagement are counted across platforms.",
  },
  { re: /\b(?:in stock|stock levels?|inventory)\b/, say: "I can't filter by stock: the catalogue does not track it." },
  { re: /\b(?:weight|weighs|lightweight|grams?|kg|pounds? heavy)\b/, say: "I can't filter by weight yet." },
];

/** What a question asks that the grid cannot do (shipping, reviews, brands, ...), in sentences. */
export function unsupportedPhrases(question: string): string[] {
  const w: Work = { s: normalize(question.slice(0, QUESTION_MAX_CHARS), { notes: [] }), notes: [], cannot: [] };
  for (const c of CANNOT) take(w, c.re, () => void (w.cannot.includes(c.say) || w.cannot.push(c.say)));
  return w.cannot;
}

const STAGE_PHRASES: { re: RegExp; stage: Stage }[] = [
  { re: /\b(?:trending up|on the rise|up and coming|taking off|heating up|gaining (?:traction|momentum)|growing|growth|rising|risers?|going up)\b/, stage: "rising" },
  { re: /\b(?:trending down|on the way down|cooling (?:off|down)|fading|dying|declining|decline|in decline|falling|going down)\b/, stage: "declining" },
  { re: /\b(?:at (?:their|its|the) peak|peaking|peaked|peak|mature|established|saturating)\b/, stage: "peak" },
  { re: /\b(?:emerging|brand new|just launched|early stage|early|fresh|new)\b/, stage: "emerging" },
];

const SORT_PHRASES: { re: RegExp; sort: Sort }[] = [
  { re: /\b(?:most orders|best[- ]?sell(?:ing|ers?)|top[- ]?sell(?:ing|ers?)|most sold|most popular|sell(?:ing)? the most|by orders|sort(?:ed)? by orders|by sales|most sales)\b/, sort: "orders" },
  { re: /\b(?:highest margins?|best margins?|most profitable|by margins?|sort(?:ed)? by margins?|biggest margins?|top margins?)\b/, sort: "margin" },
  { re: /\b(?:most revenue|highest revenue|top grossing|by revenue|sort(?:ed)? by revenue|biggest revenue)\b/, sort: "revenue" },
  { re: /\b(?:cheapest(?: first)?|lowest price(?:d)?|price low to high|low to high|by price(?: ascending)?|sort(?:ed)? by price)\b/, sort: "price-asc" },
  { re: /\b(?:most expensive|priciest|highest price(?:d)?|price high to low|high to low)\b/, sort: "price" },
  { re: /\b(?:newest|latest|most recent|recently added|just added|by date)\b/, sort: "newest" },
  { re: /\b(?:trending(?: now)?|hottest|hot right now|fastest growing|viral)\b/, sort: "trending" },
  { re: /\b(?:random|surprise me|shuffle(?:d)?)\b/, sort: "random" },
  { re: /\b(?:best|top|winning|highest scor(?:e|ing)|by score|sort(?:ed)? by score|winners)\b/, sort: "winning-score" },
];

const ORDINALS: Record<string, number> = {
  first: 1, "1st": 1, second: 2, "2nd": 2, third: 3, "3rd": 3, fourth: 4, "4th": 4, fifth: 5, "5th": 5,
  sixth: 6, "6th": 6, seventh: 7, "7th": 7, eighth: 8, "8th": 8, ninth: 9, "9th": 9, tenth: 10, "10th": 10,
};

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

interface NicheMatcher {
  /** One alternation of every phrase, longest first (so "pet toys" wins over "toys"). */
  source: string;
  slugOf: Map<string, string>;
}

const matchers = new Map<string, NicheMatcher>();

/** The catalogue's niches as one matcher of their synonym phrases, built once per niche list. */
function nicheMatcher(niches: readonly string[]): NicheMatcher {
  const key = niches.join(",");
  let m = matchers.get(key);
  if (m) return m;
  const slugOf = new Map<string, string>();
  for (const slug of niches) {
    for (const phrase of [slug.replace(/-/g, " "), slug, ...(NICHE_SYNONYMS[slug] ?? [])]) if (!slugOf.has(phrase)) slugOf.set(phrase, slug);
  }
  const phrases = [...slugOf.keys()].sort((a, b) => b.length - a.length);
  m = { source: phrases.length ? `(${phrases.map(escapeRe).join("|")})s?(?=$|[\\s|,.!?"'])` : "(?!)", slugOf };
  if (matchers.size > 50) matchers.clear();
  matchers.set(key, m);
  return m;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

function setPrice(f: QuestionFilters, min: number | undefined, max: number | undefined) {
  if (min !== undefined && max !== undefined && min > max) [min, max] = [max, min];
  if (min !== undefined) f.minPrice = round2(min);
  if (max !== undefined) f.maxPrice = round2(max);
}

/** A quarter off (or on) the band, in whole dollars, at least $1. */
function stepDown(d: number) {
  return Math.max(1, Math.floor(d * (1 - PRICE_STEP)));
}
function stepUp(d: number) {
  return Math.ceil(d * (1 + PRICE_STEP));
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
}

/** "Cheaper" or "pricier" than the previous answer: its price band moved by PRICE_STEP, or its middle price. */
export function movePriceBand(prev: QuestionFilters, prices: number[], move: PriceMove): { band: Pick<QuestionFilters, "minPrice" | "maxPrice">; note: string } | null {
  const { minPrice, maxPrice } = prev;
  const was = rangeWords(minPrice, maxPrice, dollars$);
  if (move === "cheaper") {
    if (maxPrice !== undefined) {
      const band = { maxPrice: stepDown(maxPrice), ...(minPrice !== undefined ? { minPrice: Math.min(stepDown(minPrice), stepDown(maxPrice)) } : {}) };
      if (band.maxPrice >= maxPrice) return null;
      return { band, note: `“Cheaper” moved the price band down by a quarter: ${was} became ${rangeWords(band.minPrice, band.maxPrice, dollars$)}.` };
    }
    if (minPrice !== undefined) {
      const band = { maxPrice: round2(Math.max(0, minPrice - 0.01)) };
      return { band, note: `“Cheaper” than ${was}: ${rangeWords(undefined, band.maxPrice, dollars$)}.` };
    }
    if (prices.length === 0) return null;
    const mid = median(prices) / 100;
    const band = { maxPrice: stepDown(mid) };
    return { band, note: `“Cheaper”: the products I showed cost ${dollars$(mid)} in the middle, so now ${rangeWords(undefined, band.maxPrice, dollars$)}.` };
  }
  if (minPrice !== undefined) {
    const band = { minPrice: stepUp(minPrice), ...(maxPrice !== undefined ? { maxPrice: stepUp(maxPrice) } : {}) };
    return { band, note: `“Pricier” moved the price band up by a quarter: ${was} became ${rangeWords(band.minPrice, band.maxPrice, dollars$)}.` };
  }
  if (maxPrice !== undefined) {
    const band = { minPrice: round2(maxPrice + 0.01) };
    return { band, note: `“Pricier” than ${was}: ${rangeWords(band.minPrice, undefined, dollars$)}.` };
  }
  if (prices.length === 0) return null;
  const mid = median(prices) / 100;
  const band = { minPrice: stepUp(mid) };
  return { band, note: `“Pricier”: the products I showed cost ${dollars$(mid)} in the middle, so now ${rangeWords(band.minPrice, undefined, dollars$)}.` };
}

/**
 * "Like X": X's first niche (unless the question named niches) and a price band around X's price
 * (± LIKE_PRICE_BAND), or strictly below / above it for "cheaper" / "pricier".
 */
export function likeProduct(filters: QuestionFilters, product: LikeProduct, move: PriceMove | null): { filters: QuestionFilters; note: string } {
  const f: QuestionFilters = { ...filters };
  const niche = product.niches[0];
  if (!f.niche && niche) f.niche = [niche];
  const price = product.priceCents / 100;
  delete f.minPrice;
  delete f.maxPrice;
  let band: string;
  if (move === "cheaper") {
    f.maxPrice = round2(Math.max(0, price - 0.01));
    band = `cheaper than its ${dollars$(price)}`;
  } else if (move === "pricier") {
    f.minPrice = round2(price + 0.01);
    band = `pricier than its ${dollars$(price)}`;
  } else {
    f.minPrice = Math.floor(price * (1 - LIKE_PRICE_BAND));
    f.maxPrice = Math.ceil(price * (1 + LIKE_PRICE_BAND));
    band = `within about ${Math.round(LIKE_PRICE_BAND * 100)}% of its ${dollars$(price)}`;
  }
  const where = !filters.niche && niche ? `the same niche (${nicheWords(niche)}), ` : "";
  return { filters: f, note: `Like “${product.title}”: ${where}priced ${band}.` };
}

const FOLLOW_UP_CUE = /^\s*(?:and|also|now|only|just|but|what about|how about|same but|same|make (?:it|them)|show (?:me )?(?:only|just)|narrow|filter|refine|more like|cheaper|pricier|more expensive|less expensive|sort(?:ed)? by|order(?:ed)? by|then|ok|okay|instead|without)\b/;
/** "Which of these", "any of those", "among them": the products the last answer showed (issue 25). */
export const AMONG_SHOWN = /\b(?:(?:which|any|how many|what|all|none|some|one)\s+of\s+(?:these|those|them|the ones you showed)|among (?:these|those|them)|out of (?:these|those))\b/;

/** Whether a question asks about the products just shown ("which of these are under $20?"). */
export function asksAmongShown(question: string): boolean {
  return AMONG_SHOWN.test(question.toLowerCase());
}

const FRESH_CUE = /\b(?:new search|start over|start again|forget (?:that|it|those)|from scratch|something else entirely)\b/;

/**
 * Turns a question into grid filters. With `previous`, a follow-up ("cheaper", "only rising ones",
 * "under $20", "sort by margin", "more like the second") refines the previous filters; a question that
 * names its own niche or product without a follow-up cue starts afresh.
 */
export function parseQuestion(question: string, context: QuestionContext): ParsedQuestion {
  const w: Work = { s: "", notes: [], cannot: [] };
  w.s = normalize(question.slice(0, QUESTION_MAX_CHARS), w);
  const original = w.s;
  const f: QuestionFilters = {};
  const previous = context.previous ?? null;
  // Set inside the matchers' callbacks (hence the casts: TypeScript cannot see those assignments).
  let likeTitle = null as string | null;
  let likeMove = null as PriceMove | null;
  let likeRef = null as LikeProduct | null;
  let move = null as PriceMove | null;
  let fresh = false;
  const stages = new Set<Stage>();
  const notStages = new Set<Stage>();
  const niches = new Set<string>();
  const matcher = nicheMatcher(context.niches);

  take(w, FRESH_CUE, () => {
    fresh = true;
  });
  let amongShown = false as boolean;
  take(w, AMONG_SHOWN, () => {
    amongShown = previous !== null;
  });
  take(w, /\btop\s+(\d{1,3})\b/, () => {
    f.sort ??= "winning-score";
  });

  // 1. What the grid cannot do: said, and its words used for nothing else.
  for (const c of CANNOT) {
    take(w, c.re, () => {
      if (!w.cannot.includes(c.say)) w.cannot.push(c.say);
    });
  }

  // 2. Negations. A stage can be left out (the other stages are chosen); a niche or a word cannot.
  const NEG = String.raw`\b(?:not|no|without|except|excluding|exclude|other than|apart from|isn't|aren't|nothing)\s+(?:the\s+|any\s+|too\s+|yet\s+)?`;
  for (const p of STAGE_PHRASES) {
    take(w, new RegExp(NEG + `(?:${p.re.source})`), () => void notStages.add(p.stage));
  }
  take(w, new RegExp(NEG + String.raw`(?:expensive|pricey|costly)\b`), () => {
    f.maxPrice ??= PREMIUM_MIN_DOLLARS;
    w.notes.push(`“Not expensive” means ${dollars$(PREMIUM_MIN_DOLLARS)} or less here.`);
  });
  take(w, new RegExp(NEG + String.raw`(?:saturated|oversaturated|crowded|competitive|competition|competitors)\b`), () => {
    f.maxStores = LOW_COMPETITION_MAX_STORES;
    w.notes.push(`“Not saturated” means sold by ${LOW_COMPETITION_MAX_STORES} stores or fewer.`);
  });
  take(w, new RegExp(NEG + matcher.source), (m) => {
    const slug = matcher.slugOf.get(m[1])!;
    w.cannot.push(`I can't leave out a niche (${nicheWords(slug)}) yet: the grid's niche filter only includes. Pick the niches you want instead.`);
  });
  take(w, /\b(?:without|except|excluding|exclude|other than|apart from|not)\s+(?:the\s+|any\s+)?([a-z][a-z'-]{2,30})\b/, (m) => {
    if (STOP_WORDS.has(m[1]) || /^(?:more|less|over|under|above|below|much|too|only|just|yet|sure)$/.test(m[1])) return false;
    w.cannot.push(`I can't leave out “${m[1]}”: the grid can only include things, so I did not use it.`);
  });

  // 3. Another product: "like the second", "similar to the posture corrector", "cheaper than the third".
  const ordinal = String.raw`(?:the\s+)?(?:(first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|sixth|6th|seventh|7th|eighth|8th|ninth|9th|tenth|10th|last)(?:\s+(?:one|product|item))?|(?:number|no\.?|#)\s?(\d{1,2}))`;
  take(w, new RegExp(String.raw`\b(?:more\s+)?(?:(?:something|products?|items?|stuff|ones?)\s+)?(?:like|similar to|such as|resembling|cheaper than|pricier than|more expensive than)\s+${ordinal}\b`), (m) => {
    const prev = previous?.products ?? [];
    const position = m[1] === "last" ? prev.length : m[1] ? ORDINALS[m[1]] : Number(m[2]);
    if (/cheaper than/.test(m[0])) likeMove = "cheaper";
    if (/pricier than|more expensive than/.test(m[0])) likeMove = "pricier";
    const p = prev[position - 1];
    if (p) likeRef = p;
    else
      w.cannot.push(
        prev.length === 0
          ? "“Like the second” needs an earlier answer in this thread: ask about some products first."
          : `The last answer listed ${prev.length} ${prev.length === 1 ? "product" : "products"}, so there is no number ${position}.`,
      );
  });
  take(w, /(?:^|\s)(?!(?:i|i'd|we|would|you|they|do|don't)\s)(?:(?:something|products?|items?|stuff|anything|things?|ones?)\s+)?(?:just\s+)?(?:like|similar to|such as|resembling|along the lines of)\s+(?:the\s+|a\s+|an\s+|my\s+|that\s+|this\s+)?([a-z0-9][a-z0-9' -]{1,80}?)(?=\s*(?:\||,|\.|\?|!|$|\s(?:but|under|over|below|above|between|less|cheaper|pricier|more|with|that|which|and|in|for|from|sorted|priced|costing|only|rising|emerging|declining|peaking)\b))/, (m) => {
    // "I'd like", "would like": the verb, not a comparison (the lookbehind above cannot see far enough).
    const before = original.slice(0, Math.max(0, original.indexOf(m[0].trim()))).trim();
    if (/\b(?:i|i'd|we|would|you|they|do|don't)$/.test(before)) return false;
    likeTitle = m[1].trim();
  });

  // 4a. The measured catalogue: "measured products", "added by stores this week", "added by 3+ stores this week".
  take(w, /\bmeasured(?:\s+(?:products?|items?|data|catalogue|catalog))?\b|\b(?:from|in|by) real stores\b/, () => {
    f.source = "measured";
  });
  take(w, /\bsample\s+(?:data|products?)\b/, () => {
    f.source = "sample";
  });
  take(
    w,
    new RegExp(String.raw`\b(?:added|picked up|adopted|listed)\s+by\s+(?:(?:at least|more than|over|min(?:imum)?(?: of)?)\s+)?(?:(\d{1,6})(?:\s?\+|\s+or more|\s+and up)?\s+)?(?:new\s+)?(?:stores?|shops?|sellers)(?:\s+(?:or more|and up|plus))?\s+(?:this|last|past|in the last)\s+(?:week|7 days)\b`),
    (m) => {
      f.minStoresAdded7d = m[1] !== undefined ? Math.max(1, Number(m[1])) : 1;
      f.sort ??= "storesAdded7d";
      w.notes.push("“Added by stores this week” counts the stores we observe that listed it in the last 7 days: only measured products have that figure.");
    },
  );

  // 4. When first seen: "new this week", "added in the last 30 days".
  take(w, /\b(?:new|added|first seen|launched|appeared|listed|discovered)\s+(?:in\s+)?(?:the\s+)?(?:last|past)\s+(\d{1,4})\s+(days?|weeks?|months?)\b/, (m) => {
    const n = Number(m[1]);
    const days = m[2].startsWith("week") ? n * 7 : m[2].startsWith("month") ? n * 30 : n;
    if (days >= 1 && days <= 3650) f.firstSeenDays = days;
  });
  take(w, /\b(?:(?:new|added|first seen|launched|appeared|listed)\s+)(?:this|last|past)\s+(week|month|year)\b|\b(?:this|last|past)\s+(week|month)'?s?\s+(?:new|additions|launches)\b/, (m) => {
    const unit = m[1] ?? m[2];
    f.firstSeenDays = unit === "week" ? 7 : unit === "month" ? 30 : 365;
  });

  // 5. Margin: "50%+ margin", "margin over 40%", "at least 40% margin", "30-50% margin", "high margin".
  const cmpMin = String.raw`(?:over|above|more than|greater than|at least|min(?:imum)?(?: of)?|>=?|from|starting at|no less than)`;
  const cmpMax = String.raw`(?:under|below|less than|lower than|at most|max(?:imum)?(?: of)?|<=?|up to|no more than|cheaper than|not more than|within)`;
  take(w, new RegExp(String.raw`\b(?:margins?|profit(?: margins?)?)\s+(?:of\s+|between\s+)?(\d{1,3}(?:\.\d+)?)\s?%?\s?(?:-|to|and)\s?(\d{1,3}(?:\.\d+)?)\s?%|(\d{1,3}(?:\.\d+)?)\s?%?\s?(?:-|to)\s?(\d{1,3}(?:\.\d+)?)\s?%\s?(?:margins?|profit)?`), (m) => {
    const a = Number(m[1] ?? m[3]);
    const b = Number(m[2] ?? m[4]);
    f.minMargin = Math.min(a, b);
    f.maxMargin = Math.min(100, Math.max(a, b));
  });
  take(w, new RegExp(String.raw`\b(?:(?:with\s+)?(?:a\s+)?(?:margins?|profit(?: margins?)?)\s+(?:of\s+)?(${cmpMin}|${cmpMax})?\s*(\d{1,3}(?:\.\d+)?)\s?%?(\s?\+|\s(?:or more|and up|plus)|\s(?:or less|and under))?|(${cmpMin}|${cmpMax})?\s*(\d{1,3}(?:\.\d+)?)\s?%(\s?\+|\s(?:or more|and up|plus)|\s(?:or less|and under))?\s*(?:margins?|profit(?: margins?)?)?)`), (m) => {
    const cmp = m[1] ?? m[4];
    const n = Number(m[2] ?? m[5]);
    const tail = (m[3] ?? m[6] ?? "").trim();
    if (n > 100) return false;
    const isMax = (cmp && new RegExp(`^${cmpMax}$`).test(cmp)) || /less|under/.test(tail);
    if (isMax) f.maxMargin = n;
    else f.minMargin = n;
    if (!/margin|profit/.test(m[0])) w.notes.push(`I read ${n}% as the margin after duty and fees: it is the only percentage the grid filters by.`);
  });
  take(w, /\b(?:high|higher|good|great|big|healthy|fat|strong|solid|decent|juicy)[- ](?:profit )?margins?\b|\bhigh[- ]profit\b|\bprofitable\b|\bmargin[- ]rich\b/, () => {
    f.minMargin ??= HIGH_MARGIN_PERCENT;
    w.notes.push(`“High margin” means a margin after duty and fees of ${HIGH_MARGIN_PERCENT}% or more.`);
  });
  take(w, /\b(?:low|thin|small)[- ]margins?\b/, () => {
    f.maxMargin ??= LOW_MARGIN_PERCENT;
    w.notes.push(`“Low margin” means a margin after duty and fees of ${LOW_MARGIN_PERCENT}% or less.`);
  });

  // 6. Counts with their unit: orders, views, engagement, stores.
  const units: { re: string; min: keyof QuestionFilters; max?: keyof QuestionFilters }[] = [
    { re: String.raw`orders?|sales|sold|purchases|buyers`, min: "minOrders", max: "maxOrders" },
    { re: String.raw`views?`, min: "minViews" },
    { re: String.raw`likes|engagements?|interactions`, min: "minEngagement" },
    { re: String.raw`stores?|shops?|sellers|competitors`, min: "minStores", max: "maxStores" },
  ];
  for (const u of units) {
    take(w, new RegExp(String.raw`\b(?:(?:sold|selling)\s+(?:by|in|on)\s+)?(${cmpMin}|${cmpMax}|fewer than|only)?\s*(\d{1,10})(\s?\+|\s(?:or more|and up|plus)|\s(?:or (?:less|fewer)|and under))?\s+(?:(?:a|per)\s+month\s+)?(?:${u.re})\b(?:\s+(?:a|per)\s+month|\s+in\s+(?:the\s+last\s+)?30\s+days)?`), (m) => {
      const n = Number(m[2]);
      const isMax = (m[1] && (new RegExp(`^(?:${cmpMax}|fewer than|only)$`).test(m[1]))) || /less|fewer|under/.test(m[3] ?? "");
      // Stores are few: "more than 1 store" must leave out the products sold by exactly one (at least 2).
      const strict = u.min === "minStores" && /^(?:over|above|more than|greater than)$/.test(m[1] ?? "");
      if (isMax && u.max) f[u.max] = n as never;
      else if (isMax) return false;
      else f[u.min] = (strict ? n + 1 : n) as never;
    });
  }
  take(w, /\b(?:low|little|less|no) competition\b|\bnot (?:yet )?saturated\b|\bunsaturated\b|\buntapped\b|\bfew (?:competitors|sellers|stores)\b/, () => {
    f.maxStores = LOW_COMPETITION_MAX_STORES;
    w.notes.push(`“Low competition” means sold by ${LOW_COMPETITION_MAX_STORES} stores or fewer.`);
  });
  take(w, /\bproven\b|\bwell[- ]tested\b/, () => {
    f.minOrders ??= PROVEN_MIN_ORDERS;
    w.notes.push(`“Proven” means at least ${formatCount(PROVEN_MIN_ORDERS)} orders in the last 30 days.`);
  });

  // 7. Amazon.
  take(w, /\b(?:(?:also\s+)?(?:sold|selling|listed|available)\s+on\s+amazon|with an amazon price|on amazon|amazon)\b/, () => {
    f.hasAmazonPrice = true;
  });

  // 8. Prices: ranges, then bounds, then a lone amount, then words.
  take(w, new RegExp(String.raw`\b(?:between|from)\s+${NUM}\s*(?:and|to|-)\s*${NUM}|${NUM}\s?(?:-|to)\s?${NUM}(?!\s?%)`), (m) => {
    const a = Number(m[1] ?? m[3]);
    const b = Number(m[2] ?? m[4]);
    setPrice(f, a, b);
  });
  take(w, new RegExp(String.raw`(?:\b|(?=[<>~]))(${cmpMax}|${cmpMin}|around|about|roughly|approximately|near|~)\s*${NUM}(?!\s?%)(?:\s?\+)?`), (m) => {
    const n = Number(m[2]);
    const cmp = m[1];
    if (/^(?:around|about|roughly|approximately|near|~)$/.test(cmp)) {
      setPrice(f, Math.floor(n * 0.8), Math.ceil(n * 1.2));
      w.notes.push(`“Around ${dollars$(n)}” means ${dollars$(Math.floor(n * 0.8))} to ${dollars$(Math.ceil(n * 1.2))}.`);
    } else if (new RegExp(`^${cmpMax}$`).test(cmp)) setPrice(f, undefined, n);
    else setPrice(f, n, undefined);
  });
  take(w, new RegExp(String.raw`${NUM}\s?(?:\+|or more|and up|and above|plus|or higher)`), (m) => setPrice(f, Number(m[1]), undefined));
  take(w, new RegExp(String.raw`${NUM}\s?(?:or less|or under|and under|and below|or cheaper|max|tops)`), (m) => setPrice(f, undefined, Number(m[1])));
  take(w, /\$(\d+(?:\.\d{1,2})?)/, (m) => {
    const n = Number(m[1]);
    if (f.maxPrice === undefined) {
      setPrice(f, undefined, n);
      w.notes.push(`I read ${dollars$(n)} as “${dollars$(n)} or less”.`);
    }
  });
  take(w, /\b(?:cheaper|less expensive|more affordable|lower[- ]priced|lower price)\b/, () => {
    move = "cheaper";
  });
  take(w, /\b(?:pricier|more expensive|higher[- ]priced|higher price|more premium)\b/, () => {
    move = "pricier";
  });

  // 9. Stages and sorts ("trending up" is a stage; "trending" alone is a sort).
  take(w, /\bfastest[- ]growing\b/, () => {
    f.sort ??= "trending";
  });
  take(w, /\bstill (?:growing|rising)\b/, () => void stages.add("rising"));
  for (const p of STAGE_PHRASES.slice(0, 3)) take(w, p.re, () => void stages.add(p.stage));
  for (const p of SORT_PHRASES) {
    take(w, p.re, () => {
      // The first sort named wins ("best selling" before "best").
      if (!f.sort) f.sort = p.sort;
    });
  }
  take(w, STAGE_PHRASES[3].re, () => void stages.add("emerging"));
  take(w, /\b(?:cheap|budget|affordable|inexpensive|low[- ]cost|low[- ]priced|impulse buys?)\b/, () => {
    if (f.maxPrice === undefined && f.minPrice === undefined) {
      f.maxPrice = CHEAP_MAX_DOLLARS;
      w.notes.push(`“Cheap” means ${dollars$(CHEAP_MAX_DOLLARS)} or less.`);
    }
  });
  take(w, /\b(?:premium|expensive|high[- ]ticket|luxury|upscale|high[- ]end)\b/, () => {
    if (f.maxPrice === undefined && f.minPrice === undefined) {
      f.minPrice = PREMIUM_MIN_DOLLARS;
      w.notes.push(`“Premium” means ${dollars$(PREMIUM_MIN_DOLLARS)} or more.`);
    }
  });

  // 10. Niches: the longest phrase first, plurals folded. A phrase naming a kind of product stays as words too.
  take(w, new RegExp(String.raw`(?:^|(?<=[\s|,.!?"]))` + matcher.source), (m) => {
    niches.add(matcher.slugOf.get(m[1])!);
    return !PRODUCT_NOUNS.has(m[1]);
  });

  // 11. What is left: a few words searched as text; numbers nobody claimed are said.
  const leftover = w.s
    .split(/[^a-z0-9'-]+/)
    .map((t) => t.replace(/^['-]+|['-]+$/g, ""))
    .filter((t) => t.length >= 3 && !STOP_WORDS.has(t) && !/^\d/.test(t));
  const unclaimed = w.s.match(/\b\d+(?:\.\d+)?\b/g);
  if (unclaimed) w.notes.push(`I did not know what ${unclaimed.map((n) => `“${n}”`).join(", ")} referred to, so I left ${unclaimed.length === 1 ? "it" : "them"} out.`);

  if (niches.size > 0) f.niche = context.niches.filter((n) => niches.has(n));
  const allStages = new Set<Stage>(stages);
  if (notStages.size > 0) {
    for (const s of STAGES) if (!notStages.has(s) && (stages.size === 0 || stages.has(s))) allStages.add(s);
    for (const s of notStages) allStages.delete(s);
  }
  if (allStages.size > 0) f.stage = STAGES.filter((s) => allStages.has(s));
  if (leftover.length > 0 && !likeTitle) f.q = leftover.slice(0, 6).join(" ");

  // 12. A follow-up refines the previous filters; a new subject starts afresh.
  // A question with its own subject (a niche, words, a product named by title) starts fresh unless it
  // begins with a follow-up cue: "something like the posture corrector but cheaper" is about the posture
  // corrector, not the kitchen products of the last answer (issue 25). "Cheaper" alone refines.
  const ownSubject = Boolean(f.niche || f.q || likeTitle);
  const cue = FOLLOW_UP_CUE.test(original) || likeRef !== null || amongShown || (move !== null && !ownSubject);
  const refined = Boolean(previous) && !fresh && !likeTitle && (cue || !ownSubject);
  let filters: QuestionFilters = f;
  if (refined && previous) {
    filters = { ...previous.filters };
    // A new niche or new words replace the old; "like the second" brings its own niche.
    if (likeRef) delete filters.niche;
    if (f.minPrice !== undefined || f.maxPrice !== undefined || likeRef) {
      delete filters.minPrice;
      delete filters.maxPrice;
    }
    if (f.minMargin !== undefined || f.maxMargin !== undefined) {
      delete filters.minMargin;
      delete filters.maxMargin;
    }
    if (f.niche && filters.q && !f.q) delete filters.q;
    Object.assign(filters, f);
  }

  if (likeRef) {
    const liked = likeProduct(filters, likeRef, likeMove);
    filters = liked.filters;
    w.notes.push(liked.note);
  } else if (move && likeTitle) {
    likeMove = move;
  } else if (move) {
    if (previous && refined && f.minPrice === undefined && f.maxPrice === undefined) {
      const moved = movePriceBand(previous.filters, previous.products.map((p) => p.priceCents), move);
      if (moved) {
        delete filters.minPrice;
        delete filters.maxPrice;
        Object.assign(filters, moved.band);
        w.notes.push(moved.note);
      } else {
        w.cannot.push(`I can't go ${move === "cheaper" ? "cheaper" : "pricier"} than that: ask with a price, like “under $15”.`);
      }
    } else if (f.minPrice === undefined && f.maxPrice === undefined) {
      w.cannot.push(`${move === "cheaper" ? "Cheaper" : "Pricier"} than what? Ask about some products first, or give a price like “under $30”.`);
    }
  }
  if (likeTitle && likeMove === null && move) likeMove = move;

  // Bounds that contradict each other ("over $50 ... under $20") are said, not guessed.
  const bounds: [keyof QuestionFilters, keyof QuestionFilters, string][] = [
    ["minPrice", "maxPrice", "price"],
    ["minMargin", "maxMargin", "margin"],
    ["minOrders", "maxOrders", "orders"],
    ["minStores", "maxStores", "stores"],
  ];
  for (const [min, max, name] of bounds) {
    const lo = filters[min] as number | undefined;
    const hi = filters[max] as number | undefined;
    if (lo !== undefined && hi !== undefined && lo > hi) {
      w.cannot.push(`The ${name} bounds contradict each other (at least ${numberText(lo)} and at most ${numberText(hi)}), so I used neither.`);
      delete filters[min];
      delete filters[max];
    }
  }
  return { filters: sortKeys(filters), likeTitle, likeMove, refined, amongShown: amongShown && refined, notes: unique(w.notes), cannot: unique(w.cannot) };
}

/** Filters a question sets only through amounts, counts and named kinds of product: a text with one of them is a question. */
const QUESTION_KEYS = new Set<keyof QuestionFilters>([
  "minPrice", "maxPrice", "minMargin", "maxMargin", "minOrders", "maxOrders", "minStores", "maxStores", "minStoresAdded7d",
  "source", "minViews", "minEngagement", "hasAmazonPrice", "firstSeenDays",
]);
/** From this many words, a stage or an order the parser reads ("rising", "best selling") also makes a text a question. */
const SENTENCE_WORDS = 4;

/**
 * Whether the grid's search box should hand a text to this parser instead of searching its words (issue 35):
 * "cheap pet products under $20 with good margin" asks for filters, "air fryer" and "dog toys" name products. A
 * price, margin, count or "like X" makes a question; a stage or an order word, or something the grid cannot do,
 * only in a text of SENTENCE_WORDS words or more ("new balance shoes", "king size pillow" are products).
 */
export function readsAsQuestion(text: string, niches: readonly string[]): boolean {
  const trimmed = text.trim();
  if (trimmed === "") return false;
  const parsed = parseQuestion(trimmed, { niches });
  const keys = (Object.keys(parsed.filters) as (keyof QuestionFilters)[]).filter((k) => k !== "q" && k !== "niche");
  if (parsed.likeTitle !== null || keys.some((k) => QUESTION_KEYS.has(k))) return true;
  return (keys.length > 0 || parsed.cannot.length > 0) && trimmed.split(/\s+/).length >= SENTENCE_WORDS;
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}

function sortKeys(f: QuestionFilters): QuestionFilters {
  const out: Record<string, unknown> = {};
  for (const key of KEY_ORDER) if (f[key] !== undefined) out[key] = f[key];
  return out as QuestionFilters;
}

// ---------- the model's answer ----------

/** What the AI model is asked for: the filters, plus a product it names and what it could not filter by. */
export const ModelAnswerSchema = QuestionFiltersSchema.extend({
  likeTitle: z.string().trim().min(1).max(120).optional(),
  likePosition: z.number().int().min(1).max(50).optional(),
  likeMove: z.enum(["cheaper", "pricier"]).optional(),
  unsupported: z.array(z.string().trim().min(1).max(80)).max(5).optional(),
});
export type ModelAnswer = z.infer<typeof ModelAnswerSchema>;

/** The JSON schema of the model's tool call (no $schema key: some servers refuse it). */
export function modelAnswerJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(ModelAnswerSchema) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

/**
 * The model's answer checked: its own shape (zod), its niches against the catalogue's and its filters
 * against the grid's rules. A reason in words when it does not hold.
 */
export function checkModelAnswer(raw: unknown, niches: readonly string[]): { ok: true; answer: ModelAnswer } | { ok: false; reason: string } {
  const parsed = ModelAnswerSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, reason: `${issue?.path.join(".") || "answer"}: ${issue?.message ?? "invalid"}` };
  }
  const unknown = (parsed.data.niche ?? []).filter((n) => !niches.includes(n));
  if (unknown.length > 0) return { ok: false, reason: `niche: ${unknown.join(", ")} is not a niche of the catalogue` };
  const { likeTitle: _t, likePosition: _p, likeMove: _m, unsupported: _u, ...filters } = parsed.data;
  const problem = filtersProblem(filters);
  if (problem) return { ok: false, reason: problem };
  return { ok: true, answer: parsed.data };
}

/** Splits a checked model answer into filters and the rest. */
export function splitModelAnswer(a: ModelAnswer): { filters: QuestionFilters; likeTitle: string | null; likePosition: number | null; likeMove: PriceMove | null; unsupported: string[] } {
  const { likeTitle, likePosition, likeMove, unsupported, ...filters } = a;
  return { filters: sortKeys(filters), likeTitle: likeTitle ?? null, likePosition: likePosition ?? null, likeMove: likeMove ?? null, unsupported: unsupported ?? [] };
}
