// The last step: a follow-up refines the previous answer's filters, "like X" and "cheaper" / "pricier" move the
// price band, and bounds that contradict each other are said, not guessed.
import { numberText, sortKeys, type QuestionFilters } from "./filters";
import { likeProduct, movePriceBand } from "./price-moves";
import type { Reading } from "./reading";
import type { ParsedQuestion } from "./types";
import { FOLLOW_UP_CUE } from "./vocabulary";

function unique(list: string[]): string[] {
  return [...new Set(list)];
}

/** 12. A follow-up refines the previous filters; a new subject starts afresh. */
export function settle(r: Reading): ParsedQuestion {
  const { w, f, previous, original } = r;
  // A question with its own subject (a niche, words, a product named by title) starts r.fresh unless it
  // begins with a follow-up cue: "something like the posture corrector but cheaper" is about the posture
  // corrector, not the kitchen products of the last answer (issue 25). "Cheaper" alone refines.
  const ownSubject = Boolean(f.niche || f.q || r.likeTitle);
  const cue = FOLLOW_UP_CUE.test(original) || r.likeRef !== null || r.amongShown || (r.move !== null && !ownSubject);
  const refined = Boolean(previous) && !r.fresh && !r.likeTitle && (cue || !ownSubject);
  let filters: QuestionFilters = f;
  if (refined && previous) {
    filters = { ...previous.filters };
    // A new niche or new words replace the old; "like the second" brings its own niche.
    if (r.likeRef) delete filters.niche;
    if (f.minPrice !== undefined || f.maxPrice !== undefined || r.likeRef) {
      delete filters.minPrice;
      delete filters.maxPrice;
    }
    if (f.minMargin !== undefined || f.maxMargin !== undefined) {
      delete filters.minMargin;
      delete filters.maxMargin;
    }
    if (f.niche && filters.q && !f.q) delete filters.q;
    Object.assign(filters, f);
  }

  if (r.likeRef) {
    const liked = likeProduct(filters, r.likeRef, r.likeMove);
    filters = liked.filters;
    w.notes.push(liked.note);
  } else if (r.move && r.likeTitle) {
    r.likeMove = r.move;
  } else if (r.move) {
    if (previous && refined && f.minPrice === undefined && f.maxPrice === undefined) {
      const moved = movePriceBand(previous.filters, previous.products.map((p) => p.priceCents), r.move);
      if (moved) {
        delete filters.minPrice;
        delete filters.maxPrice;
        Object.assign(filters, moved.band);
        w.notes.push(moved.note);
      } else {
        w.cannot.push(`I can't go ${r.move === "cheaper" ? "cheaper" : "pricier"} than that: ask with a price, like “under $15”.`);
      }
    } else if (f.minPrice === undefined && f.maxPrice === undefined) {
      w.cannot.push(`${r.move === "cheaper" ? "Cheaper" : "Pricier"} than what? Ask about some products first, or give a price like “under $30”.`);
    }
  }
  if (r.likeTitle && r.likeMove === null && r.move) r.likeMove = r.move;

  // Bounds that contradict each other ("over $50 ... under $20") are said, not guessed.
  const bounds: [keyof QuestionFilters, keyof QuestionFilters, string][] = [
    ["minPrice", "maxPrice", "price"],
    ["minMargin", "maxMargin", "margin"],
    ["minOrders", "maxOrders", "orders"],
    ["minStores", "maxStores", "stores"],
  ];
  for (const [min, max, name] of bounds) {
    const lo = filters[min] as number | undefined;
    const hi = filters[max] as number | undefined;
    if (lo !== undefined && hi !== undefined && lo > hi) {
      w.cannot.push(`The ${name} bounds contradict each other (at least ${numberText(lo)} and at most ${numberText(hi)}), so I used neither.`);
      delete filters[min];
      delete filters[max];
    }
  }
  return { filters: sortKeys(filters), likeTitle: r.likeTitle, likeMove: r.likeMove, refined, amongShown: r.amongShown && refined, notes: unique(w.notes), cannot: unique(w.cannot) };
}
