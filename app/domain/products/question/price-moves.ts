// Moving a price band: "cheaper" / "pricier" than the previous answer, and "like X" around a product's price.
import { LIKE_PRICE_BAND, PRICE_STEP, type QuestionFilters } from "./filters";
import { round2 } from "./reading";
import type { LikeProduct, PriceMove } from "./types";
import { dollars$, nicheWords, rangeWords } from "./words";

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
