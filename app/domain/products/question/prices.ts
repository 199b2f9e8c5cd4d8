// Prices: ranges, then bounds, then a lone amount, then "cheaper" / "pricier".
import { CMP_MAX, CMP_MIN, NUM, setPrice, take, type Reading } from "./reading";
import { dollars$ } from "./words";

/** 8. Prices: ranges, then bounds, then a lone amount, then words. */
export function readPrices(r: Reading): void {
  const { w, f } = r;
  take(w, new RegExp(String.raw`\b(?:between|from)\s+${NUM}\s*(?:and|to|-)\s*${NUM}|${NUM}\s?(?:-|to)\s?${NUM}(?!\s?%)`), (m) => {
    const a = Number(m[1] ?? m[3]);
    const b = Number(m[2] ?? m[4]);
    setPrice(f, a, b);
  });
  take(w, new RegExp(String.raw`(?:\b|(?=[<>~]))(${CMP_MAX}|${CMP_MIN}|around|about|roughly|approximately|near|~)\s*${NUM}(?!\s?%)(?:\s?\+)?`), (m) => {
    const n = Number(m[2]);
    const cmp = m[1];
    if (/^(?:around|about|roughly|approximately|near|~)$/.test(cmp)) {
      setPrice(f, Math.floor(n * 0.8), Math.ceil(n * 1.2));
      w.notes.push(`“Around ${dollars$(n)}” means ${dollars$(Math.floor(n * 0.8))} to ${dollars$(Math.ceil(n * 1.2))}.`);
    } else if (new RegExp(`^${CMP_MAX}$`).test(cmp)) setPrice(f, undefined, n);
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
    r.move = "cheaper";
  });
  take(w, /\b(?:pricier|more expensive|higher[- ]priced|higher price|more premium)\b/, () => {
    r.move = "pricier";
  });
}
