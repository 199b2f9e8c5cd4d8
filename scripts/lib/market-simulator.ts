// A market of Shopify stores with known truth, for measuring the catalogue's matching (`npm run bench --
// catalogue`, tests/integration/catalogue/catalogue-simulator.test.ts; docs/decisions/046). Stores sell products; a product is
// sold by several stores under their own titles, prices and copies of the supplier's picture; some products are
// look-alikes of others (same kind of thing from another supplier: similar picture, overlapping title) that must
// stay apart; a few listings use a stock picture (a placeholder or size chart) under unrelated titles.
//
// Pictures come in two fidelities:
// - "real": every listing's picture is drawn and altered with sharp (scripts/lib/market-pictures.ts) and
//   fingerprinted by the real adapter. Exact, ~40 pictures a second: for the small simulator in the tests and for
//   calibrating the model below.
// - "modelled": a product's supplier picture gets a random 64-bit fingerprint (random pictures are ~32 bits apart,
//   as measured), a look-alike's is its original's with bits flipped, and a listing's is its product's with bits
//   flipped, the number of bits drawn from the distance distribution measured on real pictures for that kind of
//   alteration (calibrate()). For a million listings, where drawing every picture would take hours.
import { formatHash, type Hash64 } from "../../app/domain/catalogue/hash";
import { mulberry32 } from "./product-generator";
import { VARIANT_KINDS, type VariantKind } from "./market-pictures";

export interface SimulatedListing {
  id: number;
  storeId: number;
  /** The truth: which product this listing is. */
  productId: number;
  title: string;
  priceCents: number;
  currency: string;
  variant: VariantKind | "stock";
  /** The fingerprint (modelled), or null when pictures are drawn for real. */
  hash: string | null;
  /** Seconds since epoch: when the simulated tracker first saw it. */
  firstSeenAt: number;
}

export interface SimulatedProduct {
  id: number;
  /** The product this one looks like (a look-alike), or null. */
  lookAlikeOf: number | null;
  title: string;
  priceCents: number;
  designSeed: number;
}

export interface MarketOptions {
  seed: number;
  stores: number;
  products: number;
  listings: number;
  /** Share of products that are look-alikes of another product. */
  lookAlikeShare?: number;
  /** Share of listings that use a stock picture. */
  stockShare?: number;
  /** Distance distributions per alteration (from calibrate()); required for modelled fingerprints. */
  distances?: DistanceModel;
}

/** For each alteration, and for look-alikes: distances (bits) seen on real pictures, to draw from. */
export type DistanceModel = Record<VariantKind | "lookalike", number[]>;

/** How often stores do each thing to a supplier photo (most re-upload it as it came). */
export const VARIANT_WEIGHTS: Record<VariantKind, number> = {
  reencode: 0.3,
  resize: 0.25,
  crop: 0.1,
  badge: 0.1,
  watermark: 0.08,
  "colour-shift": 0.07,
  background: 0.1,
};

const NOUNS = (
  "neck fan|posture corrector|pet hair remover|dog harness|cat water fountain|led strip lights|phone holder|car phone mount|" +
  "garlic press|vegetable chopper|yoga mat|resistance bands|massage gun|hair straightener|makeup brush set|jewelry organizer|" +
  "water bottle|lunch box|baby carrier|night light|projector lamp|wireless charger|earbuds case|laptop stand|desk organizer|" +
  "shower head|bath mat|cleaning brush|lint roller|car vacuum|seat cushion|knee brace|foot massager|heated blanket|" +
  "plant pot|bird feeder|camping lantern|hammock|fishing lure|bike light|dog bed|cat tree|pet camera|chew toy|ice roller|" +
  "nail drill|lash curler|hair clip|scrunchie set|tote bag"
).split("|");
const ADJECTIVES = "portable|rechargeable|foldable|adjustable|waterproof|ergonomic|magnetic|silicone|wooden|smart|mini|electric|automatic|cordless|heavy duty|soft|anti slip|reusable|compact|ultra quiet".split("|");
const FEATURES = "usb|3 speeds|hands free|for travel|for home|for office|with timer|with remote|for dogs|for cats|for kids|non toxic|quick dry|stainless steel|led display".split("|");
const FLUFF = ["2026 NEW", "HOT SALE", "🔥", "Best Seller", "Premium", "Upgraded", "✨", "Free Shipping", "Limited Offer", "TikTok Viral"];
const COLOURS = ["(White)", "- Black", "Pink", "Blue", "(Grey)", "Green"];
const CURRENCIES = ["USD", "USD", "USD", "USD", "USD", "USD", "USD", "USD", "EUR", "GBP"];

function pick<T>(r: () => number, list: readonly T[]): T {
  return list[Math.floor(r() * list.length)];
}

function weighted(r: () => number): VariantKind {
  let x = r();
  for (const kind of VARIANT_KINDS) {
    x -= VARIANT_WEIGHTS[kind];
    if (x < 0) return kind;
  }
  return "reencode";
}

function baseTitle(r: () => number, noun: string): string {
  const words = [pick(r, ADJECTIVES), noun];
  if (r() < 0.6) words.unshift(pick(r, ADJECTIVES));
  if (r() < 0.7) words.push(pick(r, FEATURES));
  return [...new Set(words)].join(" ");
}

/** A store's title for the product: capitalised its way, fluff and colours added, a word dropped or moved. */
function storeTitle(r: () => number, title: string): string {
  let words = title.split(" ");
  if (words.length > 3 && r() < 0.3) words.splice(Math.floor(r() * (words.length - 2)), 1);
  if (r() < 0.3) words = [...words.slice(-1), ...words.slice(0, -1)];
  let text = words.join(" ");
  if (r() < 0.5) text = text.replace(/\b\w/g, (c) => c.toUpperCase());
  if (r() < 0.15) text = text.toUpperCase();
  if (r() < 0.5) text = `${pick(r, FLUFF)} ${text}`;
  if (r() < 0.3) text = `${text} ${pick(r, COLOURS)}`;
  if (r() < 0.2) text = `${text} ${pick(r, FLUFF)}`;
  if (r() < 0.2) text = text.replace(/ /, " | ");
  return text;
}

function randomHash(r: () => number): Hash64 {
  return { hi: Math.floor(r() * 2 ** 32) >>> 0, lo: Math.floor(r() * 2 ** 32) >>> 0 };
}

function flipBits(r: () => number, hash: Hash64, bits: number): Hash64 {
  let { hi, lo } = hash;
  const chosen = new Set<number>();
  while (chosen.size < Math.min(64, bits)) chosen.add(Math.floor(r() * 64));
  for (const b of chosen) {
    if (b < 32) hi = (hi ^ (1 << b)) >>> 0;
    else lo = (lo ^ (1 << (b - 32))) >>> 0;
  }
  return { hi, lo };
}

export interface Market {
  products: SimulatedProduct[];
  listings: SimulatedListing[];
}

/** The market: deterministic for its options. Listings are in the order the tracker first saw them. */
export function simulateMarket(options: MarketOptions): Market {
  const market = streamMarket(options);
  return { products: market.products, listings: [...market.listings] };
}

/**
 * The same market (the same random draws in the same order), its listings made one at a time as they are read:
 * a million listings need not be held as objects by whoever only keeps a few columns of them.
 */
export function streamMarket(options: MarketOptions): { products: SimulatedProduct[]; listings: Generator<SimulatedListing> } {
  const r = mulberry32(options.seed);
  const lookAlikeShare = options.lookAlikeShare ?? 0.1;
  const stockShare = options.stockShare ?? 0.003;
  const products: SimulatedProduct[] = [];
  const productHash: Hash64[] = [];
  const nounOf: string[] = [];
  for (let id = 0; id < options.products; id++) {
    const parent = id > 10 && r() < lookAlikeShare ? Math.floor(r() * id) : null;
    const noun = parent === null ? pick(r, NOUNS) : nounOf[parent];
    // A look-alike is the same kind of thing: its noun, and otherwise its own words.
    const title = baseTitle(r, noun);
    const priceCents = parent === null ? 500 + Math.floor(r() * 7500) : Math.round(products[parent].priceCents * (0.7 + r() * 0.6));
    let hash = randomHash(r);
    if (parent !== null && options.distances) hash = flipBits(r, productHash[parent], pick(r, options.distances.lookalike));
    products.push({ id, lookAlikeOf: parent, title, priceCents, designSeed: parent === null ? 10_000 + id : products[parent].designSeed });
    productHash.push(hash);
    nounOf.push(noun);
  }
  const storeCurrency = Array.from({ length: options.stores }, () => pick(r, CURRENCIES));
  const stockHashes = Array.from({ length: 5 }, () => randomHash(r));
  const t0 = Date.UTC(2026, 8, 1) / 1000;
  const storesOf = new Map<number, Set<number>>();
  function* listings(): Generator<SimulatedListing> {
    // Popularity is skewed: a few products are sold by many stores.
    for (let id = 0; id < options.listings; id++) {
      let productId = Math.min(options.products - 1, Math.floor(options.products * r() ** 1.6));
      // A store lists a product once (a second listing in one store is a second version: decision 087): a product
      // every store lists already gives its draw to the next product that some store does not, and a draw that
      // lands on a store already listing it moves to the next store without one.
      for (let k = 0; k < options.products && (storesOf.get(productId)?.size ?? 0) >= options.stores; k++) productId = (productId + 1) % options.products;
      const product = products[productId];
      let storeId = Math.floor(r() * options.stores);
      const listedBy = storesOf.get(productId) ?? new Set<number>();
      for (let k = 0; k < options.stores && listedBy.has(storeId); k++) storeId = (storeId + 1) % options.stores;
      listedBy.add(storeId);
      storesOf.set(productId, listedBy);
      const currency = storeCurrency[storeId];
      const rate = currency === "USD" ? 1 : 0.92;
      const stock = r() < stockShare;
      const variant = stock ? "stock" : weighted(r);
      let hash: string | null = null;
      if (stock) hash = formatHash(pick(r, stockHashes));
      else if (options.distances) hash = formatHash(flipBits(r, productHash[productId], pick(r, options.distances[variant as VariantKind])));
      yield {
        id: id + 1,
        storeId,
        productId,
        title: storeTitle(r, product.title),
        priceCents: Math.round(product.priceCents * (0.9 + r() * 0.7) * rate),
        currency,
        variant,
        hash,
        firstSeenAt: t0 + Math.floor((id / options.listings) * 60 * 86_400),
      };
    }
  }
  return { products, listings: listings() };
}

export interface MatchQuality {
  precision: number;
  recall: number;
  truePairs: number;
  falsePairs: number;
  missedPairs: number;
  /** Predicted products against true products. */
  predicted: number;
  truth: number;
}

/**
 * Pairwise precision and recall of a grouping against the truth: a pair of listings is a true positive when
 * both are in one predicted product and are one true product. Stock-picture listings count like any other.
 */
export function matchQuality(listings: Iterable<{ id: number; productId: number }>, predictedOf: (listingId: number) => number): MatchQuality {
  const joint = new Map<number, number>();
  const predicted = new Map<number, number>();
  const truth = new Map<number, number>();
  for (const l of listings) {
    const p = predictedOf(l.id);
    const key = p * 2 ** 26 + l.productId; // a product id below 2^26, a listing id below 2^27: exact in a double
    joint.set(key, (joint.get(key) ?? 0) + 1);
    predicted.set(p, (predicted.get(p) ?? 0) + 1);
    truth.set(l.productId, (truth.get(l.productId) ?? 0) + 1);
  }
  const pairs = (n: number) => (n * (n - 1)) / 2;
  let tp = 0;
  for (const n of joint.values()) tp += pairs(n);
  let predictedPairs = 0;
  for (const n of predicted.values()) predictedPairs += pairs(n);
  let truePairs = 0;
  for (const n of truth.values()) truePairs += pairs(n);
  return {
    precision: predictedPairs === 0 ? 1 : tp / predictedPairs,
    recall: truePairs === 0 ? 1 : tp / truePairs,
    truePairs: tp,
    falsePairs: predictedPairs - tp,
    missedPairs: truePairs - tp,
    predicted: predicted.size,
    truth: truth.size,
  };
}
