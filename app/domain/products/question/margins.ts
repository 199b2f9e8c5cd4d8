// The margin after duty and fees (decision 065): "50%+ margin", "margin over 40%", "30-50% margin", "high margin".
import { HIGH_MARGIN_PERCENT, LOW_MARGIN_PERCENT } from "./filters";
import { CMP_MAX, CMP_MIN, take, type Reading } from "./reading";

/** 5. Margin: a range, a bound, or a word with a stated meaning. */
export function readMargins(r: Reading): void {
  const { w, f } = r;
  take(w, new RegExp(String.raw`\b(?:margins?|profit(?: margins?)?)\s+(?:of\s+|between\s+)?(\d{1,3}(?:\.\d+)?)\s?%?\s?(?:-|to|and)\s?(\d{1,3}(?:\.\d+)?)\s?%|(\d{1,3}(?:\.\d+)?)\s?%?\s?(?:-|to)\s?(\d{1,3}(?:\.\d+)?)\s?%\s?(?:margins?|profit)?`), (m) => {
    const a = Number(m[1] ?? m[3]);
    const b = Number(m[2] ?? m[4]);
    f.minMargin = Math.min(a, b);
    f.maxMargin = Math.min(100, Math.max(a, b));
  });
  take(w, new RegExp(String.raw`\b(?:(?:with\s+)?(?:a\s+)?(?:margins?|profit(?: margins?)?)\s+(?:of\s+)?(${CMP_MIN}|${CMP_MAX})?\s*(\d{1,3}(?:\.\d+)?)\s?%?(\s?\+|\s(?:or more|and up|plus)|\s(?:or less|and under))?|(${CMP_MIN}|${CMP_MAX})?\s*(\d{1,3}(?:\.\d+)?)\s?%(\s?\+|\s(?:or more|and up|plus)|\s(?:or less|and under))?\s*(?:margins?|profit(?: margins?)?)?)`), (m) => {
    const cmp = m[1] ?? m[4];
    const n = Number(m[2] ?? m[5]);
    const tail = (m[3] ?? m[6] ?? "").trim();
    if (n > 100) return false;
    const isMax = (cmp && new RegExp(`^${CMP_MAX}$`).test(cmp)) || /less|under/.test(tail);
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
}
