// The question parser's names that app/domain/products/product-question.ts uses and re-exports (decision 099):
// the lint lets a module outside this folder import ~/domain/products/question, not the files in it.
export {
  CHEAP_MAX_DOLLARS,
  filtersFromParams,
  filtersProblem,
  filtersToParams,
  HIGH_MARGIN_PERCENT,
  LIKE_PRICE_BAND,
  LOW_COMPETITION_MAX_STORES,
  LOW_MARGIN_PERCENT,
  numberText,
  PREMIUM_MIN_DOLLARS,
  PRICE_STEP,
  PROVEN_MIN_ORDERS,
  QUESTION_MAX_CHARS,
  QuestionFiltersSchema,
  sortKeys,
  type QuestionFilters,
} from "./filters";
export { parseQuestion } from "./parse";
export { likeProduct, movePriceBand } from "./price-moves";
export { normalize, take, type Work } from "./reading";
export type { LikeProduct, ParsedQuestion, PriceMove, QuestionContext } from "./types";
export { AMONG_SHOWN, CANNOT, NICHE_SYNONYMS } from "./vocabulary";
export { countWords, dollars$, money$, nicheWords, percentOfBps, rangeWords, SORT_WORDS, STAGE_WORDS } from "./words";
