// Placing a listing that has no picture fingerprint (none published, or one that could not be read yet):
// docs/decisions/091. Such a listing joins the catalogue at once on its title evidence, under a strict rule,
// and is placed again by its picture when one arrives (the matching state rebuilds on a changed picture).
// - The rule (titlePairReason): normalised titles the same or nearly so (at least TITLE_MATCH.minWords content
//   words, and TITLE_MATCH.minOverlap of the LONGER title's words shared, so "Neck fan" never takes in every
//   "Portable neck fan with light"), no quantity or model contradiction, the same vendor when both name one, prices
//   within TITLE_MATCH.maxPriceRatio in one unit (one currency, or dollars at a dated reference rate: prices.ts). The caller adds the identifier and look-alike rules
//   (decision 087: keptApartByTraits) to the same judgement.
// - Candidates come from an index of title words (TitleIndex), never from all pairs: prefix filtering: a title
//   sharing minOverlap of n words must contain at least one of the n - ceil(minOverlap * n) + 1 rarest of them.
// Pure: no I/O.
import { pricePairClause, priceRatio, type ComparablePrice } from "~/domain/catalogue/prices";
import { compareTitles, type NormalisedTitle } from "~/domain/catalogue/title";

export const TITLE_MATCH = {
  /** Titles of fewer content words than this never match on title alone ("Lamp" names a thousand products). */
  minWords: 2,
  /** Share of the longer title's words the shorter must share. */
  minOverlap: 0.8,
  /** As MATCH.maxPriceRatio: the dearer offer at most this many times the cheaper. */
  maxPriceRatio: 3,
  /** Listings read from one word's postings at most (a look-up stays bounded on common words). */
  maxPostingsRead: 4_000,
  /** Candidates judged at most, those sharing most words first. */
  maxCandidates: 24,
} as const;

export interface TitleListing extends ComparablePrice {
  title: NormalisedTitle;
  /** Folded vendor, "" when the store names none. */
  vendor: string;
}

/** "acme" from " ACME  Inc."'s first word-ish folding: case, accents and spacing folded. */
export function foldVendor(vendor: string | null | undefined): string {
  return (vendor ?? "")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/**
 * Whether two listings are one product on their titles (one of them without a picture), as a sentence, or null.
 * "no picture; titles the same: neck, fan, bladeless; same vendor acme; $19.99 and $24.95".
 */
export function titlePairReason(a: TitleListing, b: TitleListing): string | null {
  const titles = compareTitles(a.title, b.title);
  const longer = Math.max(a.title.words.length, b.title.words.length);
  if (Math.min(a.title.words.length, b.title.words.length) < TITLE_MATCH.minWords) return null;
  if (titles.shared.length < TITLE_MATCH.minOverlap * longer) return null;
  if (titles.contradiction) return null;
  if (a.vendor && b.vendor && a.vendor !== b.vendor) return null;
  if (priceRatio(a, b) > TITLE_MATCH.maxPriceRatio) return null;
  return [
    "no picture",
    `titles the same: ${titles.shared.join(", ")}`,
    ...(a.vendor && a.vendor === b.vendor ? [`same vendor ${a.vendor}`] : []),
    pricePairClause(a, b),
  ].join("; ");
}

/** Placed listings by the words of their normalised titles. */
export class TitleIndex {
  private readonly postings = new Map<string, number[]>();
  private readonly words = new Map<number, string[]>();

  get size(): number {
    return this.words.size;
  }

  has(id: number): boolean {
    return this.words.has(id);
  }

  add(id: number, title: NormalisedTitle): void {
    if (this.words.has(id) || title.words.length < TITLE_MATCH.minWords) return;
    this.words.set(id, title.words);
    for (const w of title.words) {
      const list = this.postings.get(w);
      if (list) list.push(id);
      else this.postings.set(w, [id]);
    }
  }

  /**
   * Listings that could share TITLE_MATCH.minOverlap of this title's words, those sharing most first (then the
   * earliest added): only the rarest words' postings are read (prefix filtering), each at most maxPostingsRead.
   */
  candidates(title: NormalisedTitle): number[] {
    const n = title.words.length;
    if (n < TITLE_MATCH.minWords) return [];
    const byRarity = [...title.words].sort((x, y) => (this.postings.get(x)?.length ?? 0) - (this.postings.get(y)?.length ?? 0));
    const prefix = byRarity.slice(0, n - Math.ceil(TITLE_MATCH.minOverlap * n) + 1);
    const seen = new Set<number>();
    for (const w of prefix) {
      const list = this.postings.get(w) ?? [];
      for (let i = 0; i < list.length && i < TITLE_MATCH.maxPostingsRead; i++) seen.add(list[i]);
    }
    const mine = new Set(title.words);
    const scored: Array<{ id: number; shared: number }> = [];
    for (const id of seen) {
      const words = this.words.get(id)!;
      let shared = 0;
      for (const w of words) if (mine.has(w)) shared++;
      if (shared >= TITLE_MATCH.minOverlap * Math.max(n, words.length)) scored.push({ id, shared });
    }
    scored.sort((x, y) => y.shared - x.shared || x.id - y.id);
    return scored.slice(0, TITLE_MATCH.maxCandidates).map((s) => s.id);
  }
}
