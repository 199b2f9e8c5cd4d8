// The working text a question is read from: normalised once, then each clause reader takes the words it
// understands out of it (take), so nothing is read twice and what is left is searched as words.
import type { Stage } from "~/domain/products/product-query";
import { QUESTION_MAX_CHARS, type QuestionFilters } from "./filters";
import type { LikeProduct, PriceMove, QuestionContext } from "./types";
import { nicheMatcher, type NicheMatcher } from "./vocabulary";

export interface Work {
  s: string;
  notes: string[];
  cannot: string[];
}

/** Removes every match of `re` from the working text, calling `fn` for each; a false return keeps the text. */
export function take(w: Work, re: RegExp, fn: (m: RegExpExecArray) => boolean | void) {
  const global = new RegExp(re.source, re.flags.includes("g") ? re.flags : `${re.flags}g`);
  w.s = w.s.replace(global, (...args) => {
    const m = args.slice(0, -2) as unknown as RegExpExecArray;
    m.index = args[args.length - 2] as number;
    return fn(m) === false ? (args[0] as string) : " | ";
  });
}

export const NUM = String.raw`\$?\s?(\d+(?:\.\d{1,2})?)(?!\d|\.\d)`;

/** "after duty and fees", "net of tariffs", "after fees": what the grid's margin already is (decision 065). */
const DUTY_WORD = String.raw`(?:the\s+)?(?:us\s+|import\s+|payment\s+|transaction\s+)?(?:duty|duties|tariffs?|customs|fees?)`;
export const AFTER_DUTY_AND_FEES = new RegExp(String.raw`\b(?:after|net of|including|incl\.?)\s+(?:all\s+)?${DUTY_WORD}(?:\s*(?:,|and|&|\+|plus)\s*${DUTY_WORD})*(?![\w-])`, "g");

/** Lower case, one kind of quote and dash, thousands separators and "k" expanded, currencies as "$". */
export function normalize(text: string, w: { notes: string[] }): string {
  let s = ` ${text.normalize("NFKC").toLowerCase()} `
    .replace(/[‘’`´]/g, "'")
    .replace(/[“”«»]/g, '"')
    .replace(/[–—−]/g, "-")
    .replace(/≤/g, "<=")
    .replace(/≥/g, ">=")
    .replace(/(\d),(\d{3})(?!\d)/g, "$1$2")
    .replace(/(\d),(\d{3})(?!\d)/g, "$1$2")
    .replace(/(\d+(?:\.\d+)?)\s?k\b/g, (_, n: string) => String(Math.round(Number(n) * 1000)))
    .replace(/(\d+(?:\.\d+)?)\s?m\b(?!\w)/g, (_, n: string) => String(Math.round(Number(n) * 1_000_000)));
  if (/[€£]|\b(?:eur|euros?|gbp|pounds?|cad|aud)\b/.test(s)) {
    w.notes.push("Prices in the catalogue are in US dollars: I read the amounts as dollars.");
    s = s.replace(/[€£]/g, "$").replace(/\b(?:eur|euros?|gbp|pounds?|cad|aud)\b/g, "dollars");
  }
  return s
    .replace(/(\d+(?:\.\d+)?)\s?(?:percent|per cent|pct)\b/g, "$1%")
    // The grid's margin is after duty and fees (decision 065): saying so asks for that margin, never for words.
    .replace(AFTER_DUTY_AND_FEES, " ")
    .replace(/(\d+(?:\.\d{1,2})?)\s?\$/g, "$$$1")
    .replace(/(\d+(?:\.\d{1,2})?)\s?(?:usd|dollars?|bucks)\b/g, "$$$1")
    .replace(/\$\s+(\d)/g, "$$$1")
    .replace(/\s+/g, " ");
}

export const round2 = (n: number) => Math.round(n * 100) / 100;

export function setPrice(f: QuestionFilters, min: number | undefined, max: number | undefined) {
  if (min !== undefined && max !== undefined && min > max) [min, max] = [max, min];
  if (min !== undefined) f.minPrice = round2(min);
  if (max !== undefined) f.maxPrice = round2(max);
}

/** "Over", "at least", ">=": a lower bound. */
export const CMP_MIN = String.raw`(?:over|above|more than|greater than|at least|min(?:imum)?(?: of)?|>=?|from|starting at|no less than)`;
/** "Under", "at most", "<=": an upper bound. */
export const CMP_MAX = String.raw`(?:under|below|less than|lower than|at most|max(?:imum)?(?: of)?|<=?|up to|no more than|cheaper than|not more than|within)`;

/** A question being read: the working text, the filters so far, and what the clause readers found. */
export interface Reading {
  w: Work;
  /** The normalised question, before any reader took words out of it. */
  original: string;
  f: QuestionFilters;
  context: QuestionContext;
  previous: NonNullable<QuestionContext["previous"]> | null;
  matcher: NicheMatcher;
  likeTitle: string | null;
  likeMove: PriceMove | null;
  likeRef: LikeProduct | null;
  move: PriceMove | null;
  fresh: boolean;
  amongShown: boolean;
  stages: Set<Stage>;
  notStages: Set<Stage>;
  niches: Set<string>;
}

export function startReading(question: string, context: QuestionContext): Reading {
  const w: Work = { s: "", notes: [], cannot: [] };
  w.s = normalize(question.slice(0, QUESTION_MAX_CHARS), w);
  return {
    w,
    original: w.s,
    f: {},
    context,
    previous: context.previous ?? null,
    matcher: nicheMatcher(context.niches),
    likeTitle: null,
    likeMove: null,
    likeRef: null,
    move: null,
    fresh: false,
    amongShown: false,
    stages: new Set<Stage>(),
    notStages: new Set<Stage>(),
    niches: new Set<string>(),
  };
}
