// What the question parser reads from (the catalogue's niches, the previous answer) and what it gives.
import type { QuestionFilters } from "./filters";

/** A product the question compares against ("like the second", "like the posture corrector"). */
export interface LikeProduct {
  objectID: string;
  title: string;
  priceCents: number;
  niches: string[];
}

export interface QuestionContext {
  /** The catalogue's niche slugs: a word maps only to a niche that exists. */
  niches: readonly string[];
  /** The thread's last answer: follow-ups refine its filters and may name its products by position. */
  previous?: { filters: QuestionFilters; products: LikeProduct[] } | null;
}

export type PriceMove = "cheaper" | "pricier";

export interface ParsedQuestion {
  filters: QuestionFilters;
  /** A product named by its title: the caller looks it up, then applies likeProduct(). */
  likeTitle: string | null;
  /** "Cheaper"/"pricier" said of the named product. */
  likeMove: PriceMove | null;
  /** True when the question refined the previous answer's filters. */
  refined: boolean;
  /** "Which of these ...": the answer is the previous answer's products that pass the filters. */
  amongShown: boolean;
  /** How words were read: the stated meanings of "high margin", "cheap", "cheaper", ... */
  notes: string[];
  /** What was asked that the grid cannot do, in sentences. */
  cannot: string[];
}
