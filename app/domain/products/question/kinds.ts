// Stages, sorts, niches and the words left over: what kind of product, in what order.
import { STAGES, type Stage } from "~/domain/products/product-query";
import { CHEAP_MAX_DOLLARS, PREMIUM_MIN_DOLLARS } from "./filters";
import { take, type Reading } from "./reading";
import { PRODUCT_NOUNS, SORT_PHRASES, STAGE_PHRASES, STOP_WORDS } from "./vocabulary";
import { dollars$ } from "./words";

/** 9. Stages and sorts ("trending up" is a stage; "trending" alone is a sort), and "cheap" / "premium". */
export function readStagesAndSorts(r: Reading): void {
  const { w, f, stages } = r;
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
}

/** 10. Niches: the longest phrase first, plurals folded. A phrase naming a kind of product stays as words too. */
export function readNiches(r: Reading): void {
  const { w, niches, matcher } = r;
  take(w, new RegExp(String.raw`(?:^|(?<=[\s|,.!?"]))` + matcher.source), (m) => {
    niches.add(matcher.slugOf.get(m[1])!);
    return !PRODUCT_NOUNS.has(m[1]);
  });
}

/** 11. What is left: a few words searched as text; numbers nobody claimed are said. Then the niches and stages read become filters. */
export function readWhatIsLeft(r: Reading): void {
  const { w, f, stages, notStages, niches, context } = r;
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
  if (leftover.length > 0 && !r.likeTitle) f.q = leftover.slice(0, 6).join(" ");
}
