// Amounts, ranges, stages, sorts and niches in the words the assistant's answers use.
import { formatCount } from "~/domain/products/insights";
import type { Sort, Stage } from "~/domain/products/product-query";

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
/** Cents as the product pages show them: 2499 -> "$24.99". */
export const money$ = (cents: number) => usd.format(cents / 100);
export const dollars$ = (d: number) => money$(Math.round(d * 100));
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

export function rangeWords(min: number | undefined, max: number | undefined, show: (n: number) => string, more = "or more", less = "or less") {
  if (min !== undefined && max !== undefined) return min === max ? show(min) : `${show(min)} to ${show(max)}`;
  if (min !== undefined) return `${show(min)} ${more}`;
  if (max !== undefined) return `${show(max)} ${less}`;
  return null;
}

/** A count range with its noun, singular for exactly one: "1 store", "2 to 5 stores", "1 order or less". */
export function countWords(min: number | undefined, max: number | undefined, one: string, many: string, less: string): string | null {
  const noun = (n: number) => (n === 1 ? one : many);
  if (min !== undefined && max !== undefined) {
    return min === max ? `${formatCount(min)} ${noun(min)}` : `${formatCount(min)} to ${formatCount(max)} ${many}`;
  }
  if (min !== undefined) return `${formatCount(min)} or more ${many}`;
  if (max !== undefined) return max === 1 ? `1 ${one} ${less}` : `${formatCount(max)} ${less} ${many}`;
  return null;
}
