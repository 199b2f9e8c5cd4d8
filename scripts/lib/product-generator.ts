// A deterministic, realistic product catalogue (`npm run products:generate`, the first-start seed and
// the search benchmark). Same seed, count and end day -> byte-identical rows; product i does not
// depend on how many are generated, so a small catalogue is a prefix of a large one.
// Realism, in short (docs/decisions/011, 028): ~40 niches with brand-less titles whose attributes fit
// their noun and never repeat a word; the supplier is named as demo data; long-tailed prices
// (log-normal) and orders (log-normal with a rare viral boost); costs 15-45% of price; 90 days of
// history shaped as emerging, rising, peaking, declining or steady demand with weekly rhythm and
// Poisson noise; engagement follows orders; stores selling follows cumulative demand; firstSeenAt is
// the first active day (or before the window for older products). The lifecycle stage a product ends
// up with is computed by app/domain/products/insights.ts from these numbers, not copied from the shape.
import { DEMO_SUPPLIER_NAME } from "~/domain/products/demo-catalogue";
import { dayNumber, dayString } from "~/domain/products/insights";
import type { ProductImportInput } from "~/domain/products/product-import";
import { BROAD_WORDS, NICHES, RARE_WORD_RATE, RARE_WORDS, type NicheVocabulary, type NounVocabulary } from "./product-vocabulary";

export { BROAD_WORDS, NICHES, RARE_WORDS } from "./product-vocabulary";

export const HISTORY_DAYS = 90;

/**
 * Niches a product may also be listed in (issue 25: a random second niche put headphones among "Pets").
 * Only these pairs; a niche not listed gets no second niche.
 */
export const RELATED_NICHES: Record<string, string[]> = {
  kitchen: ["bakeware", "coffee-tea"],
  bakeware: ["kitchen"],
  "coffee-tea": ["kitchen", "drinkware"],
  drinkware: ["coffee-tea", "travel"],
  beauty: ["skincare"],
  skincare: ["beauty"],
  "hair-care": ["beauty"],
  fitness: ["yoga", "health"],
  yoga: ["fitness"],
  "home-decor": ["lighting"],
  lighting: ["home-decor", "smart-home"],
  "smart-home": ["tech-gadgets"],
  "phone-accessories": ["tech-gadgets"],
  "tech-gadgets": ["phone-accessories"],
  audio: ["tech-gadgets"],
  gaming: ["tech-gadgets"],
  office: ["stationery"],
  stationery: ["office"],
  baby: ["kids-toys"],
  "kids-toys": ["baby"],
  outdoor: ["camping", "gardening"],
  camping: ["outdoor"],
  travel: ["bags"],
  bags: ["travel", "fashion-accessories"],
  jewelry: ["fashion-accessories"],
  watches: ["fashion-accessories"],
  health: ["massage"],
  sleep: ["health"],
  massage: ["health"],
  bathroom: ["cleaning"],
  cleaning: ["bathroom", "storage-organization"],
  "storage-organization": ["cleaning"],
};

/** A niche's prices stay within this factor of its median, either way (issue 25: a $319.99 butter dish). */
export const PRICE_SPREAD = 2.5;

/** The range a generated product of this niche is priced in, in cents ($2.99 at least). */
export function nichePriceRange(slug: string): { minCents: number; maxCents: number } {
  const median = NICHES.find((n) => n.slug === slug)?.price ?? 25;
  return { minCents: Math.max(299, Math.ceil(median / PRICE_SPREAD) * 100 - 1), maxCents: Math.floor(median * PRICE_SPREAD) * 100 - 1 };
}

/** mulberry32: a small, fast, well-distributed 32-bit PRNG; returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Mixes the catalogue seed and a product index into an independent 32-bit seed (murmur3 finaliser). */
export function productSeed(seed: number, index: number): number {
  let h = (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

class Random {
  private spareNormal: number | null = null;
  constructor(readonly next: () => number) {}
  float(min: number, max: number) {
    return min + (max - min) * this.next();
  }
  int(min: number, max: number) {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number) {
    return this.next() < p;
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)];
  }
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    let r = this.next() * entries.reduce((s, [, w]) => s + w, 0);
    for (const [value, w] of entries) {
      r -= w;
      if (r < 0) return value;
    }
    return entries[entries.length - 1][0];
  }
  normal() {
    if (this.spareNormal !== null) {
      const v = this.spareNormal;
      this.spareNormal = null;
      return v;
    }
    const u = 1 - this.next();
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spareNormal = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }
  logNormal(median: number, sigma: number) {
    return median * Math.exp(sigma * this.normal());
  }
  /** Poisson counts: exact (Knuth) for small means, normal approximation above 10. */
  poisson(mean: number) {
    if (mean <= 0) return 0;
    if (mean > 10) return Math.max(0, Math.round(mean + Math.sqrt(mean) * this.normal()));
    const limit = Math.exp(-mean);
    let k = 0;
    let p = this.next();
    while (p > limit) {
      k++;
      p *= this.next();
    }
    return k;
  }
}

// ---- Titles (docs/decisions/028) ---------------------------------------------------------------------

/** The words of a title as a reader compares them: lower case, split at spaces, hyphens and brackets. */
export function titleWords(text: string): string[] {
  return text.toLowerCase().split(/[^a-z0-9\u00c0-\u024f']+/).filter(Boolean);
}

interface Phrase {
  text: string;
  words: string[];
}

interface TitleNoun {
  noun: string;
  words: string[];
  /** Attributes and audiences that share no word with the noun. */
  attributes: Phrase[];
  rare: Phrase[];
  audiences: Phrase[];
  portable: boolean;
  sets: boolean;
  /** What this type of product does ("that …"), and its own tags: from its vocabulary group. */
  benefits: string[];
  tags: string[];
}

const phrase = (text: string): Phrase => ({ text, words: titleWords(text) });
const sharesWord = (a: readonly string[], b: readonly string[]) => a.some((w) => b.includes(w));

function titleNoun(entry: NounVocabulary): TitleNoun {
  const words = titleWords(entry.noun);
  const fits = (p: Phrase) => !sharesWord(p.words, words);
  return {
    noun: entry.noun,
    words,
    attributes: entry.attributes.map(phrase).filter(fits),
    rare: entry.rare.map(phrase).filter(fits),
    audiences: entry.audiences.map(phrase).filter(fits),
    portable: entry.portable && !words.includes("portable"),
    sets: entry.sets && !words.includes("set"),
    benefits: entry.benefits,
    tags: entry.tags,
  };
}

/** Per niche, its nouns ready for titles (built once; generating stays a few array picks per title). */
const TITLE_NOUNS: TitleNoun[][] = NICHES.map((niche) => niche.nouns.map(titleNoun));

/** The share of products whose noun passes `test` (a niche is picked uniformly, then a noun in it). */
function nounShare(test: (noun: TitleNoun) => boolean): number {
  return TITLE_NOUNS.reduce((sum, nouns) => sum + nouns.filter(test).length / nouns.length, 0) / TITLE_NOUNS.length;
}

// Broad and rare words go only to the nouns they fit, at the rate that keeps their catalogue-wide share.
const PORTABLE_RATE = Math.min(1, BROAD_WORDS.portable / nounShare((t) => t.portable));
const SET_RATE = Math.min(1, BROAD_WORDS.set / nounShare((t) => t.sets));
const RARE_RATE = new Map(
  RARE_WORDS.map((word) => [word, Math.min(1, RARE_WORD_RATE / Math.max(1e-9, nounShare((t) => t.rare.some((r) => r.text === word))))]),
);

/** The title vocabulary of a niche: for the tests (attributes only ever come from their noun's list). */
export function titleVocabulary(niche: NicheVocabulary) {
  return TITLE_NOUNS[NICHES.indexOf(niche)];
}

type Shape = "emerging" | "rising" | "peak" | "declining" | "steady";
const SHAPES: [Shape, number][] = [
  ["emerging", 0.15],
  ["rising", 0.2],
  ["peak", 0.2],
  ["declining", 0.25],
  ["steady", 0.2],
];

export interface GenerateOptions {
  seed: number;
  /** Last day of history (YYYY-MM-DD); defaults to yesterday (UTC) in the CLI and seed. */
  endDay: string;
  days?: number;
}

/** Yesterday in UTC: the last complete day of data. */
export function defaultEndDay(now = new Date()): string {
  return dayString(Math.floor(now.getTime() / 86_400_000) - 1);
}

export function objectIdFor(seed: number, index: number): string {
  return `gen${seed}-${String(index + 1).padStart(7, "0")}`;
}

const article = (word: string) => (/^[aeiou]/i.test(word) ? "An" : "A");

/** Plural nouns that come as a pair ("a pair of open-ear earbuds"); other plurals come as a pack ("set" is one of the catalogue's measured broad words). */
const PAIR_NOUNS = /(?:sunglasses|earbuds|headphones|gloves|earrings|socks|slippers|slides|insoles|pliers|shears|scissors|plugs|bookends|weights)$/;

/**
 * The subject of a description's first sentence, singular so every benefit's verb agrees with it: "A fine-tip gel
 * pen", "A pack of fine-tip gel pens", "A pair of open-ear earbuds", "A paint by numbers kit".
 */
export function descriptionSubject(thing: string): string {
  if (/paint by numbers$/.test(thing)) return `${article(thing)} ${thing} kit`;
  if (!/[^s]s$/.test(thing)) return `${article(thing)} ${thing}`;
  return `${PAIR_NOUNS.test(thing) ? "A pair of" : "A pack of"} ${thing}`;
}
const round99 = (dollars: number) => Math.max(299, Math.round(dollars) * 100 - 1);

/** Demand (expected orders a day) of one shape on day t of the window, before noise. */
function demandCurve(shape: Shape, rng: Random, days: number, scale: number): { curve: Float64Array; launch: number } {
  // Two extra days at the end let views lead orders by two days.
  const curve = new Float64Array(days + 2);
  let launch: number;
  switch (shape) {
    case "emerging": {
      launch = rng.int(days - 35, days - 8);
      const growth = rng.float(0.06, 0.16);
      const start = Math.max(0.25, scale * rng.float(0.04, 0.12));
      for (let t = launch; t < curve.length; t++) curve[t] = Math.min(scale, start * Math.exp(growth * (t - launch)));
      break;
    }
    case "rising": {
      const centre = rng.int(days - 25, days + 20);
      const width = rng.float(5, 14);
      launch = Math.round(centre - width * rng.float(3, 6));
      for (let t = Math.max(0, launch); t < curve.length; t++) curve[t] = scale / (1 + Math.exp(-(t - centre) / width));
      break;
    }
    case "peak": {
      const centre = rng.int(5, days - 40);
      const width = rng.float(4, 12);
      launch = Math.round(centre - width * 5);
      const drift = rng.float(-0.002, 0.002);
      for (let t = Math.max(0, launch); t < curve.length; t++) {
        curve[t] = (scale / (1 + Math.exp(-(t - centre) / width))) * (1 + drift * Math.max(0, t - centre));
      }
      break;
    }
    case "declining": {
      const peakDay = rng.int(5, days - 25);
      const riseWidth = rng.float(4, 15);
      const tau = rng.float(8, 35);
      const floor = rng.float(0.02, 0.2);
      launch = Math.round(peakDay - 3 * riseWidth);
      for (let t = Math.max(0, launch); t < curve.length; t++) {
        curve[t] =
          t < peakDay
            ? scale * Math.exp(-((t - peakDay) ** 2) / (2 * riseWidth * riseWidth))
            : scale * (floor + (1 - floor) * Math.exp(-(t - peakDay) / tau));
      }
      break;
    }
    case "steady": {
      launch = -rng.int(30, 700);
      const level = scale * rng.float(0.75, 1);
      const wobble = rng.float(0, 0.15);
      const period = rng.float(15, 40);
      const phase = rng.float(0, 2 * Math.PI);
      for (let t = 0; t < curve.length; t++) curve[t] = level * (1 + wobble * Math.sin((2 * Math.PI * t) / period + phase));
      break;
    }
  }
  return { curve, launch };
}

/** One product, fully determined by (seed, index, endDay). */
export function generateProduct(index: number, options: GenerateOptions): ProductImportInput {
  const days = options.days ?? HISTORY_DAYS;
  const rng = new Random(mulberry32(productSeed(options.seed, index)));
  const objectID = objectIdFor(options.seed, index);
  const nicheIndex = rng.int(0, NICHES.length - 1);
  const niche = NICHES[nicheIndex];
  const related = RELATED_NICHES[niche.slug] ?? [];
  // Drawn whatever the outcome, so every later draw of the product stays where it was.
  const extraRoll = rng.chance(0.25);
  const extraPick = rng.next();
  const extraNiche = extraRoll && related.length > 0 ? related[Math.floor(extraPick * related.length)] : null;

  // Title: [Portable] [attribute] noun [Set | (Set of n)] [for audience], the attribute from the noun's
  // own list, and no word twice.
  const entry = rng.pick(TITLE_NOUNS[nicheIndex]);
  const noun = entry.noun;
  const words: string[] = [];
  const used = [...entry.words];
  if (entry.portable && rng.chance(PORTABLE_RATE)) {
    words.push("Portable");
    used.push("portable");
  }
  let attribute: Phrase | null = null;
  if (entry.rare.length > 0) {
    const rare = rng.pick(entry.rare);
    if (rng.chance(RARE_RATE.get(rare.text)! * entry.rare.length)) attribute = rare;
  }
  if (!attribute && entry.attributes.length > 0 && rng.chance(0.85)) attribute = rng.pick(entry.attributes);
  if (attribute && sharesWord(attribute.words, used)) attribute = null;
  const feature = attribute?.text ?? null;
  if (attribute) {
    words.push(attribute.text);
    used.push(...attribute.words);
  }
  words.push(noun);
  const setSize = entry.sets && rng.chance(SET_RATE) ? rng.int(2, 6) : 0;
  if (setSize) {
    const asWord = rng.chance(0.5);
    words.push(asWord ? "Set" : `(Set of ${setSize})`);
    used.push(...(asWord ? ["set"] : ["set", "of", String(setSize)]));
  }
  let audience = entry.audiences.length > 0 && rng.chance(0.6) ? rng.pick(entry.audiences) : null;
  if (audience && sharesWord(audience.words, used)) audience = null;
  const title = words.join(" ") + (audience ? ` for ${audience.text}` : "");

  // Prices: log-normal around the niche median, .99 endings, inside the niche's range (nichePriceRange).
  let dollars = rng.logNormal(niche.price, 0.45);
  if (rng.chance(0.02)) dollars *= rng.float(1.3, 1.8); // a few premium items, still plausible for the niche
  const range = nichePriceRange(niche.slug);
  const priceCents = Math.min(range.maxCents, Math.max(range.minCents, round99(dollars)));
  const costCents = Math.round(priceCents * rng.float(0.15, 0.45));
  const shippingCents = rng.chance(0.45) ? 0 : rng.pick([199, 299, 399, 499, 599, 799]);
  const amazonPriceCents = rng.chance(0.3) ? round99((priceCents / 100) * rng.float(0.75, 1.9)) : null;

  // Demand: log-normal scale (median ~2 orders a day) and a rare viral boost.
  const shape = rng.weighted(SHAPES);
  let scale = rng.logNormal(2.2, 1.25);
  if (rng.chance(0.006)) scale *= rng.float(5, 30);
  scale = Math.min(scale, 20_000);
  const { curve, launch } = demandCurve(shape, rng, days, scale);
  const viewsPerOrder = rng.logNormal(300, 0.8);
  const likeRate = Math.min(0.25, rng.logNormal(0.035, 0.4));
  const commentRate = rng.float(0.02, 0.1);
  const shareRate = rng.float(0.05, 0.25);
  const storesMax = Math.max(1, Math.round(scale * rng.logNormal(1.2, 1)));
  const weekendLift = rng.float(0, 0.2);
  const endDayNum = dayNumber(options.endDay);
  const startDayNum = endDayNum - days + 1;

  const orders: number[] = new Array(days);
  const revenueCents: number[] = new Array(days);
  const views: number[] = new Array(days);
  const likes: number[] = new Array(days);
  const comments: number[] = new Array(days);
  const shares: number[] = new Array(days);
  const storesSelling: number[] = new Array(days);
  let curveMax = 0;
  let curveTotal = 0;
  for (let t = 0; t < days; t++) {
    curveTotal += curve[t];
    if (curve[t] > curveMax) curveMax = curve[t];
  }
  let cumulative = 0;
  const count = (x: number) => (x < 10 ? rng.poisson(x) : Math.round(x));
  for (let t = 0; t < days; t++) {
    const weekday = (startDayNum + t + 4) % 7; // 0 = Sunday
    const season = weekday === 0 || weekday === 6 ? 1 + weekendLift : 1;
    const noise = Math.exp(0.18 * rng.normal());
    const o = Math.min(10_000_000, rng.poisson(curve[t] * season * noise));
    orders[t] = o;
    revenueCents[t] = rng.chance(0.08) ? Math.round(o * priceCents * 0.9) : o * priceCents;
    // Views lead orders by two days; launched products get a trickle of organic views.
    const active = t >= launch - 2;
    const expectedViews = active ? (curve[t + 2] * viewsPerOrder + rng.float(0, 15)) * Math.exp(0.25 * rng.normal()) : 0;
    const v = Math.min(70_000_000, count(expectedViews));
    views[t] = v;
    const l = Math.min(v, count(v * likeRate));
    likes[t] = l;
    comments[t] = count(l * commentRate);
    shares[t] = count(l * shareRate);
    cumulative += curve[t];
    let stores = 0;
    if (t >= launch && curveTotal > 0) {
      const adoption = 0.15 + 0.85 * Math.sqrt(cumulative / curveTotal);
      const fading = curveMax > 0 ? 0.7 + 0.3 * (curve[t] / curveMax) : 1;
      stores = Math.max(1, Math.round(storesMax * adoption * fading));
    }
    storesSelling[t] = stores;
  }

  // firstSeenAt: the first active day in the window, or before it for products launched earlier.
  let firstActive = -1;
  for (let t = 0; t < days; t++) {
    if (orders[t] > 0 || views[t] > 0) {
      firstActive = t;
      break;
    }
  }
  let firstSeenDay: number;
  if (firstActive > 0) firstSeenDay = startDayNum + firstActive;
  else if (firstActive === 0) firstSeenDay = startDayNum + Math.min(0, launch, -rng.int(1, 60));
  else firstSeenDay = endDayNum; // nothing happened yet: seen for the first time on the last day
  const firstSeenAt = new Date(firstSeenDay * 86_400_000 + rng.int(0, 86_399) * 1000).toISOString();

  // Description: built from the same words as the title (so search finds what the title promises), and
  // claiming only what this type of product does (its noun's benefits, never another type's of the niche).
  const benefit = rng.pick(entry.benefits);
  const thing = (feature ? `${feature} ${noun}` : noun).toLowerCase();
  const sentences = [`${descriptionSubject(thing)} that ${benefit}.`];
  if (audience) sentences.push(`Made for ${audience.text.toLowerCase()}.`);
  if (setSize) sentences.push(`Comes as a set of ${setSize}.`);
  if (words.includes("Portable")) sentences.push("Portable enough to take anywhere.");
  sentences.push(
    rng.pick([
      "Easy to clean and built to last.",
      "A thoughtful gift that gets used every day.",
      "Ships in a protective box.",
      "Simple to use out of the box.",
      "Compact and easy to store.",
    ]),
  );

  // Tags: the type's own (a leash: dogs, dog walking), what the audience implies ("for Kittens": cats), one
  // of the niche's general tags, then facts about the listing. Never another type's ("cats" on a leash).
  const tags = new Set<string>(entry.tags);
  if (audience) for (const tag of niche.audienceTags[audience.text] ?? []) tags.add(tag);
  tags.add(rng.pick(niche.tags));
  if (shippingCents === 0) tags.add("free shipping");
  if (priceCents < 2000) tags.add("under $20");
  if (rng.chance(0.2)) tags.add("gift idea");

  const imageCount = rng.int(1, 4);

  return {
    objectID,
    title,
    description: sentences.join(" "),
    niches: extraNiche && extraNiche !== niche.slug ? [niche.slug, extraNiche] : [niche.slug],
    tags: [...tags],
    images: Array.from({ length: imageCount }, (_, i) => `/product-images/${objectID}-${i + 1}.svg`),
    // Generated suppliers are not real companies: the name says so and there is no link to follow.
    supplierName: DEMO_SUPPLIER_NAME,
    supplierUrl: null,
    costCents,
    priceCents,
    shippingCents,
    amazonPriceCents,
    firstSeenAt,
    lastUpdatedAt: new Date((endDayNum + 1) * 86_400_000).toISOString(),
    randomSortKey: Math.floor(rng.next() * 2_147_483_648),
    history: {
      startDay: dayString(startDayNum),
      orders,
      revenueCents,
      views,
      likes,
      comments,
      shares,
      storesSelling,
    },
  };
}

/**
 * After this many candidates in a row repeat a title, the vocabulary is spent (about 14,000 distinct
 * titles): from then on titles may repeat, which only the large benchmark catalogues reach.
 */
const TITLE_RETRIES = 64;

/**
 * `count` products with distinct titles (issue 25: 429 repeated titles in 3,000): product i is skipped
 * when its title (any case) was already made, and the next index tried; the objectID keeps the index, so
 * a small catalogue is still a prefix of a large one (ids may skip a number).
 */
export function* generateProducts(count: number, options: GenerateOptions): Generator<ProductImportInput> {
  const seen = new Set<string>();
  let misses = 0;
  let spent = false;
  for (let i = 0, made = 0; made < count; i++) {
    const product = generateProduct(i, options);
    if (!spent) {
      const title = product.title.toLowerCase();
      if (seen.has(title)) {
        if (++misses < TITLE_RETRIES) continue;
        spent = true;
        seen.clear();
      } else {
        seen.add(title);
        misses = 0;
      }
    }
    made++;
    yield product;
  }
}

/** Generated products as import rows (line = product number), ready for importProducts. */
export function* generatedRows(count: number, options: GenerateOptions): Generator<{ line: number; row: unknown }> {
  let line = 0;
  for (const row of generateProducts(count, options)) yield { line: ++line, row };
}
