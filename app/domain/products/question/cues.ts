// The first readers: the cues that decide how the rest is read (a fresh start, "which of these", "top 10"),
// what the grid cannot do (said, and its words used for nothing else), and negations.
import { LOW_COMPETITION_MAX_STORES, PREMIUM_MIN_DOLLARS } from "./filters";
import { take, type Reading } from "./reading";
import { AMONG_SHOWN, CANNOT, FRESH_CUE, STAGE_PHRASES, STOP_WORDS } from "./vocabulary";
import { dollars$, nicheWords } from "./words";

/** A fresh start ("start over"), the products just shown ("which of these"), "top 10". */
export function readCues(r: Reading): void {
  const { w, f, previous } = r;
  take(w, FRESH_CUE, () => {
    r.fresh = true;
  });
  take(w, AMONG_SHOWN, () => {
    r.amongShown = previous !== null;
  });
  take(w, /\btop\s+(\d{1,3})\b/, () => {
    f.sort ??= "winning-score";
  });
}

/** 1. What the grid cannot do: said, and its words used for nothing else. */
export function readCannot(r: Reading): void {
  const { w } = r;
  for (const c of CANNOT) {
    take(w, c.re, () => {
      if (!w.cannot.includes(c.say)) w.cannot.push(c.say);
    });
  }

}

const NEG = String.raw`\b(?:not|no|without|except|excluding|exclude|other than|apart from|isn't|aren't|nothing)\s+(?:the\s+|any\s+|too\s+|yet\s+)?`;

/** 2. Negations. A stage can be left out (the other stages are chosen); a niche or a word cannot. */
export function readNegations(r: Reading): void {
  const { w, f, notStages, matcher } = r;
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
}
