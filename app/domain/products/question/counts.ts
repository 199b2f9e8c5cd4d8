// Counts with their unit (orders, views, engagement, stores), "low competition", "proven", and Amazon.
import { formatCount } from "~/domain/products/insights";
import { LOW_COMPETITION_MAX_STORES, PROVEN_MIN_ORDERS, type QuestionFilters } from "./filters";
import { CMP_MAX, CMP_MIN, take, type Reading } from "./reading";

/** 6. Counts with their unit: orders, views, engagement, stores. */
export function readCounts(r: Reading): void {
  const { w, f } = r;
  const units: { re: string; min: keyof QuestionFilters; max?: keyof QuestionFilters }[] = [
    { re: String.raw`orders?|sales|sold|purchases|buyers`, min: "minOrders", max: "maxOrders" },
    { re: String.raw`views?`, min: "minViews" },
    { re: String.raw`likes|engagements?|interactions`, min: "minEngagement" },
    { re: String.raw`stores?|shops?|sellers|competitors`, min: "minStores", max: "maxStores" },
  ];
  for (const u of units) {
    take(w, new RegExp(String.raw`\b(?:(?:sold|selling)\s+(?:by|in|on)\s+)?(${CMP_MIN}|${CMP_MAX}|fewer than|only)?\s*(\d{1,10})(\s?\+|\s(?:or more|and up|plus)|\s(?:or (?:less|fewer)|and under))?\s+(?:(?:a|per)\s+month\s+)?(?:${u.re})\b(?:\s+(?:a|per)\s+month|\s+in\s+(?:the\s+last\s+)?30\s+days)?`), (m) => {
      const n = Number(m[2]);
      const isMax = (m[1] && (new RegExp(`^(?:${CMP_MAX}|fewer than|only)$`).test(m[1]))) || /less|fewer|under/.test(m[3] ?? "");
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
}

/** 7. Amazon. */
export function readAmazon(r: Reading): void {
  const { w, f } = r;
  take(w, /\b(?:(?:also\s+)?(?:sold|selling|listed|available)\s+on\s+amazon|with an amazon price|on amazon|amazon)\b/, () => {
    f.hasAmazonPrice = true;
  });
}
