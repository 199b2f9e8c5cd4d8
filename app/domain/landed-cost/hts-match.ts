// Guessing a product's HTS code from its words (issue 35 item 15, decision 081): the product's title and type (its
// niches) against the descriptions of the HTS lines the tariff table carries. Pure: the lines come from the table
// (content/tariffs/, loaded by app/services/landed-cost/tariffs.server.ts).
//
// Each line is scored by the words it shares with the product, each word weighted by how rare it is among the lines
// (a word most lines carry, like "plastics", says little; "brush" says a lot), a line's own words counting more than
// its parents' (the HTS prints "Other" lines under their parents, so the parents' words are kept, at half weight). The
// product's type counts more than a word of its title. Words are stemmed (brushes -> brush, grooming -> groom) by the
// few suffix rules below: the descriptions and titles are short English, and a domain module takes no library.

export interface HtsLine {
  /** As printed: 9603.90.80 */
  htsCode: string;
  /** The HTS text: the line's parents, then the line ("Brooms, brushes ... > Other > Other"). */
  description: string;
  /** Seller's words for what the line holds ("pet grooming brush, deshedding tool"): ours, not the HTS's. */
  terms?: string;
}

export type HtsConfidence = "high" | "medium" | "low";

export interface HtsCandidate {
  htsCode: string;
  description: string;
  /** 0..1: the share of the product's word weight this line matches. */
  score: number;
  /** The product's words the line shares (stemmed). */
  matched: string[];
}

export interface HtsGuess {
  /** The nearest line, or null when no word matches any line. */
  best: HtsCandidate | null;
  /** The nearest lines after the best (up to `limit` in all, best first). */
  alternatives: HtsCandidate[];
  confidence: HtsConfidence;
  /** One sentence: why this confidence. */
  reason: string;
}

// Words that say nothing about what a product is: grammar, the HTS's own filler, and shop-title filler.
const STOP = new Set(
  (
    "a an and or of the for with without to in on by from as at its it is be are this that these those not nor other others " +
    "whether thereof therein such kind kinds used use using than including include includes containing contain each per " +
    "valued value over under more less but any all article articles part parts similar foregoing provided heading subheading " +
    "new best hot sale top premium quality pcs pc set sets piece pieces pack portable mini smart 1 2 3 4 5 6 10 " +
    "men women mens womens unisex adult adults kid kids"
  ).split(" "),
);

/** A light suffix-stripping stemmer for English nouns and verbs: brushes -> brush, toys -> toy, grooming -> groom. */
export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length <= 3) return w;
  if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (/(ch|sh|x|z|ss)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith("ing") && w.length > 5) {
    w = w.slice(0, -3);
    if (/([^aeiouls])\1$/.test(w)) w = w.slice(0, -1); // shipping -> ship
  } else if (w.endsWith("ed") && w.length > 4) {
    w = w.slice(0, -2);
    if (/([^aeiouls])\1$/.test(w)) w = w.slice(0, -1);
  }
  return w;
}

/** The stemmed words of a text that can say what a product is. */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !STOP.has(w) && !/^\d+$/.test(w))
    .map(stem)
    .filter((w) => !STOP.has(w));
}

interface IndexedLine {
  line: HtsLine;
  /** Stemmed word -> weight of the field it came from (1 the line's own text and terms, 0.5 its parents). */
  fields: Map<string, number>;
}

export interface HtsIndex {
  lines: IndexedLine[];
  /** Stemmed word -> its rarity weight, ln(1 + lines / lines carrying it). */
  idf: Map<string, number>;
}

/** Indexes the table's lines once (the service keeps the index for its table). */
export function indexHtsLines(lines: readonly HtsLine[]): HtsIndex {
  const indexed = lines.map((line) => {
    const segments = line.description.split(">").map((s) => s.trim());
    const own = segments.pop() ?? "";
    const fields = new Map<string, number>();
    const add = (text: string, weight: number) => {
      for (const w of words(text)) fields.set(w, Math.max(fields.get(w) ?? 0, weight));
    };
    add(segments.join(" "), 0.5);
    add(own, 1);
    add(line.terms ?? "", 1);
    return { line, fields };
  });
  const df = new Map<string, number>();
  for (const l of indexed) for (const w of l.fields.keys()) df.set(w, (df.get(w) ?? 0) + 1);
  const idf = new Map([...df].map(([w, n]) => [w, Math.log(1 + indexed.length / n)]));
  return { lines: indexed, idf };
}

const TYPE_WEIGHT = 1.5;
/** The best line's score at or above which, with a clear lead, the guess is "high". */
const HIGH_SCORE = 0.45;
/** How far ahead of the next heading the best line must be for "high". */
const HIGH_LEAD = 1.5;

function headingOf(code: string): string {
  return code.replace(/\./g, "").slice(0, 4);
}

/** Scores equal to nine places are a tie: a sum of the same weights in another order may differ in the last bits. */
const scoreKey = (score: number) => Math.round(score * 1e9);
/** A residual line: its own text is just "Other" (the HTS's catch-all for what no line before it names). */
const residual = (description: string) => /^other\.?$/i.test(description.split(">").pop()!.trim());
const depth = (description: string) => description.split(">").length;
const digits = (code: string) => code.replace(/\D/g, "").length;

/**
 * The ranking's order, a strict total one (decision 092): the higher score; on a tie, the line that names something
 * before a residual "Other" line (as the HTS's rule 3(a) prefers the most specific description), then the deeper
 * description (a line under more headings says more), then the longer code (a statistical suffix is more specific
 * than its subheading), then the code. Never the line's place in the table.
 */
export function compareHtsCandidates(a: HtsCandidate, b: HtsCandidate): number {
  return (
    scoreKey(b.score) - scoreKey(a.score) ||
    Number(residual(a.description)) - Number(residual(b.description)) ||
    depth(b.description) - depth(a.description) ||
    digits(b.htsCode) - digits(a.htsCode) ||
    (a.htsCode < b.htsCode ? -1 : a.htsCode > b.htsCode ? 1 : 0)
  );
}

/**
 * Ranks the table's lines for a product's title and type (niche words): the nearest first, with a confidence and its
 * reason. `limit` lines in all (the best and its alternatives). The same words always give the same answer, whatever the
 * table's order (ties by compareHtsCandidates).
 */
export function guessHtsFromWords(index: HtsIndex, input: { title: string; type?: readonly string[] }, limit = 5): HtsGuess {
  const weights = new Map<string, number>();
  for (const w of words(input.title)) weights.set(w, Math.max(weights.get(w) ?? 0, 1));
  for (const w of words((input.type ?? []).join(" ").replace(/-/g, " "))) weights.set(w, TYPE_WEIGHT);
  // In word order, so the sums (floating point) do not depend on the title's word order.
  const query = new Map([...weights].sort(([a], [b]) => (a < b ? -1 : 1)));
  // A word no line carries weighs as the rarest word does: the product said it, and no line matched it.
  const rarest = Math.log(1 + index.lines.length);
  let total = 0;
  for (const [w, weight] of query) total += weight * (index.idf.get(w) ?? rarest);
  const scored: HtsCandidate[] = [];
  for (const { line, fields } of index.lines) {
    let sum = 0;
    const matched: string[] = [];
    for (const [w, weight] of query) {
      const field = fields.get(w);
      if (field === undefined) continue;
      sum += weight * field * index.idf.get(w)!;
      matched.push(w);
    }
    if (sum > 0) scored.push({ htsCode: line.htsCode, description: line.description, score: total > 0 ? Math.min(1, sum / total) : 0, matched: matched.sort() });
  }
  scored.sort(compareHtsCandidates);
  const top = scored.slice(0, Math.max(1, limit));
  const best = top[0] ?? null;
  if (!best) {
    return {
      best: null,
      alternatives: [],
      confidence: "low",
      reason: query.size === 0 ? "The title has no word that says what the product is." : "No word of the title or type matches an HTS description we carry.",
    };
  }
  const rounded = (n: number) => Math.round(n * 100);
  const rival = scored.find((c) => headingOf(c.htsCode) !== headingOf(best.htsCode));
  const words_ = `"${best.matched.join('", "')}"`;
  let confidence: HtsConfidence;
  let reason: string;
  if (best.score >= HIGH_SCORE && (!rival || best.score >= HIGH_LEAD * rival.score)) {
    confidence = "high";
    reason = `${words_} match ${best.htsCode} (${rounded(best.score)}% of the title's weight)${rival ? `, well ahead of any other heading (next ${rival.htsCode}, ${rounded(rival.score)}%)` : ""}.`;
  } else if (best.score >= HIGH_SCORE / 2) {
    confidence = "medium";
    reason = rival && best.score < HIGH_LEAD * rival.score
      ? `${words_} match ${best.htsCode} (${rounded(best.score)}%), but ${rival.htsCode} is close (${rounded(rival.score)}%): check which describes the product.`
      : `${words_} match ${best.htsCode}, but only ${rounded(best.score)}% of the title's weight: check the description.`;
  } else {
    confidence = "low";
    reason = `Only ${words_} match${best.matched.length === 1 ? "es" : ""} ${best.htsCode} (${rounded(best.score)}% of the title's weight): pick the code that describes the product.`;
  }
  return { best, alternatives: top.slice(1), confidence, reason };
}
