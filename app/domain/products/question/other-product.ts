// "Like the second", "similar to the posture corrector", "cheaper than the third": another product to compare with.
import { take, type Reading } from "./reading";
import { ORDINALS } from "./vocabulary";

const ORDINAL = String.raw`(?:the\s+)?(?:(first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|sixth|6th|seventh|7th|eighth|8th|ninth|9th|tenth|10th|last)(?:\s+(?:one|product|item))?|(?:number|no\.?|#)\s?(\d{1,2}))`;

/** 3. Another product: by its position in the last answer, or by its title (looked up by the caller). */
export function readOtherProduct(r: Reading): void {
  const { w, previous, original } = r;
  take(w, new RegExp(String.raw`\b(?:more\s+)?(?:(?:something|products?|items?|stuff|ones?)\s+)?(?:like|similar to|such as|resembling|cheaper than|pricier than|more expensive than)\s+${ORDINAL}\b`), (m) => {
    const prev = previous?.products ?? [];
    const position = m[1] === "last" ? prev.length : m[1] ? ORDINALS[m[1]] : Number(m[2]);
    if (/cheaper than/.test(m[0])) r.likeMove = "cheaper";
    if (/pricier than|more expensive than/.test(m[0])) r.likeMove = "pricier";
    const p = prev[position - 1];
    if (p) r.likeRef = p;
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
    r.likeTitle = m[1].trim();
  });
}
