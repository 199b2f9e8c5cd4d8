// Spelling correction for the product search ("bluetoth speker" -> "bluetooth speaker"), drawn from the
// catalogue's own words: the vocabulary is every word of the indexed titles and niches with how often
// it occurs. Pure: the search engine builds one vocabulary per catalogue version and decides when a
// correction is worth showing (only when the literal text finds nothing or almost nothing).
//
// Rules (docs/decisions/012):
// - a word in the vocabulary is never changed (the last word also counts as known when it begins a
//   vocabulary word: the search reads it as a prefix);
// - nor is a real English word the catalogue does not use ("air fryer" is not "hair dryer", "good margin"
//   is not "gold margin"; issue 35): the caller says which words are English (the search service reads a
//   word list, docs/decisions/082), so only words that are no word at all are corrected;
// - words under 3 characters and words with a digit ("iphone 15", "3000mah") are left alone;
// - up to 1 edit for words of 3-5 characters, 2 from 6 (insert, delete, substitute, swap two
//   neighbours: optimal string alignment distance, Damerau's), a swap costing half an edit: typing two
//   letters in the wrong order is the commonest slip, so "noen" is "neon" before "non" (issue 25);
// - the vocabulary also holds the singular of a plural word ("dogs" -> "dog"): the full-text index
//   stems both alike, so "dgo" can become "dog" with one swap;
// - the nearest candidate wins, then the most frequent, then the first alphabetically.

/** Shortest word the correction touches, and the length from which 2 edits are allowed. */
export const MIN_CORRECTED_LENGTH = 3;
export const TWO_EDITS_FROM_LENGTH = 6;
/** Longer "words" (pasted ids, URLs) are neither stored nor corrected. */
export const MAX_WORD_LENGTH = 30;
/** The search reads the first 12 words of a text (ftsQuery): later ones are not worth correcting. */
export const MAX_CORRECTED_WORDS = 12;

/** How many edits a word may be away from its correction: 0 means it is never corrected. */
export function maxEdits(word: string): number {
  if (word.length < MIN_CORRECTED_LENGTH || word.length > MAX_WORD_LENGTH || /\p{N}/u.test(word)) return 0;
  return word.length >= TWO_EDITS_FROM_LENGTH ? 2 : 1;
}

/** A word as the full-text index sees it: lower case, accents removed (unicode61, remove_diacritics). */
export function foldWord(word: string): string {
  return word.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
}

/** What swapping two neighbouring letters costs, in edits (every other edit costs 1). */
export const TRANSPOSITION_COST = 0.5;

/**
 * Optimal string alignment distance between a and b (a swap of neighbours costing `swap`), or max + 1
 * as soon as it must exceed max (the caller only cares about 1 or 2 edits).
 */
export function editDistance(a: string, b: string, max: number, swap = 1): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = new Array<number>(n + 1);
  let cur = new Array<number>(n + 1);
  for (let j = 0; j <= n; j++) prev[j] = j;
  // A swap reaches back two rows, so the distance can only be known to pass max once two rows in a row do
  // (with a swap cheaper than an edit, one row past max can still be followed by a row within it).
  let prevRowMin = 0;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const cb = b.charCodeAt(j - 1);
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca === cb ? 0 : 1));
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) d = Math.min(d, prev2[j - 2] + swap);
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max && prevRowMin > max) return max + 1;
    prevRowMin = rowMin;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return Math.min(prev[n], max + 1);
}

/** Which letters a word holds, one bit each (a-z, and 6 shared bits for anything else). */
function letterMask(word: string): number {
  let mask = 0;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    mask |= 1 << (c >= 97 && c <= 122 ? c - 97 : 26 + (c % 6));
  }
  return mask;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * Counts the words of a catalogue's text as it streams in, then freezes into a Vocabulary. Words the
 * correction never touches (short, with digits, very long) are not kept.
 */
export class VocabularyBuilder {
  private readonly counts = new Map<string, number>();

  /** Adds every word of a text (any separators: spaces, punctuation, newlines, JSON). */
  addText(text: string) {
    const lower = text.toLowerCase();
    let start = -1;
    let plain = true;
    for (let i = 0; i <= lower.length; i++) {
      const c = i < lower.length ? lower.charCodeAt(i) : 32;
      const ascii = c < 128;
      const wordChar = ascii ? (c >= 97 && c <= 122) || (c >= 48 && c <= 57) : true;
      if (wordChar) {
        if (start < 0) {
          start = i;
          plain = true;
        }
        if (!ascii) plain = false;
        continue;
      }
      if (start >= 0) {
        const token = lower.slice(start, i);
        if (plain) this.addWord(token);
        // Rare: accents, other scripts, punctuation outside ASCII. Fold, then split as FTS5 does.
        else for (const w of foldWord(token).split(/[^\p{L}\p{N}]+/u)) if (w) this.addWord(w);
        start = -1;
      }
    }
  }

  private addWord(word: string, alsoSingular = true) {
    if (word.length < MIN_CORRECTED_LENGTH || word.length > MAX_WORD_LENGTH) return;
    const count = this.counts.get(word);
    if (count !== undefined) this.counts.set(word, count + 1);
    else {
      if (/\p{N}/u.test(word)) return;
      // A slice keeps its whole source text (megabytes) alive: store a copy.
      this.counts.set(word.split("").join(""), 1);
    }
    // "dogs" also teaches "dog" (see the header); "glass" is not a plural.
    if (alsoSingular && word.length > MIN_CORRECTED_LENGTH && word.endsWith("s") && !word.endsWith("ss")) this.addWord(word.slice(0, -1), false);
  }

  build(): Vocabulary {
    return new Vocabulary(this.counts);
  }
}

/** The catalogue's words, sorted, with their counts, bucketed by length for the nearest-word search. */
export class Vocabulary {
  /** Sorted words (code unit order). */
  readonly words: string[];
  readonly counts: Int32Array;
  private readonly masks: Int32Array;
  /** Positions in `words` of the words of each length. */
  private readonly byLength: Int32Array[];

  constructor(counts: ReadonlyMap<string, number>) {
    this.words = [...counts.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const n = this.words.length;
    this.counts = new Int32Array(n);
    this.masks = new Int32Array(n);
    const lengths: number[][] = [];
    for (let i = 0; i < n; i++) {
      const w = this.words[i];
      this.counts[i] = counts.get(w)!;
      this.masks[i] = letterMask(w);
      (lengths[w.length] ??= []).push(i);
    }
    this.byLength = Array.from({ length: MAX_WORD_LENGTH + 3 }, (_, len) => Int32Array.from(lengths[len] ?? []));
  }

  static fromText(text: string): Vocabulary {
    const builder = new VocabularyBuilder();
    builder.addText(text);
    return builder.build();
  }

  get size() {
    return this.words.length;
  }

  /** Position of the first word >= word. */
  private lowerBound(word: string): number {
    let lo = 0;
    let hi = this.words.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.words[mid] < word) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  has(word: string): boolean {
    const i = this.lowerBound(word);
    return i < this.words.length && this.words[i] === word;
  }

  /** Whether some word begins with this one. */
  hasPrefix(prefix: string): boolean {
    const i = this.lowerBound(prefix);
    return i < this.words.length && this.words[i].startsWith(prefix);
  }

  countOf(word: string): number {
    const i = this.lowerBound(word);
    return i < this.words.length && this.words[i] === word ? this.counts[i] : 0;
  }

  /** The nearest known word within the word's allowed edits (then the most frequent), or null. */
  nearest(word: string): string | null {
    const max = maxEdits(word);
    if (max === 0) return null;
    const mask = letterMask(word);
    let best = -1;
    let bestDistance = max + 1;
    for (let len = Math.max(1, word.length - max); len <= Math.min(MAX_WORD_LENGTH, word.length + max); len++) {
      const bucket = this.byLength[len];
      for (let k = 0; k < bucket.length; k++) {
        const i = bucket[k];
        // Each edit adds or removes at most two letters from the set of letters used: a cheap bound.
        if (popcount(mask ^ this.masks[i]) > 2 * bestDistance) continue;
        const d = editDistance(word, this.words[i], Math.min(max, bestDistance), TRANSPOSITION_COST);
        if (d > max) continue;
        // Positions follow alphabetical order: i < best is the alphabetical tie-break.
        const better =
          d < bestDistance || (d === bestDistance && (this.counts[i] > this.counts[best] || (this.counts[i] === this.counts[best] && i < best)));
        if (better) {
          best = i;
          bestDistance = d;
        }
      }
    }
    return best >= 0 ? this.words[best] : null;
  }

  /** A rough size in memory: the strings, their array slots, and the typed arrays. */
  approximateBytes(): number {
    let bytes = 0;
    // A V8 sequential one-byte string: 16 bytes of header, then its characters rounded up to 8 bytes.
    for (const w of this.words) bytes += 16 + Math.ceil(w.length / 8) * 8 + 8;
    return bytes + this.counts.byteLength + this.masks.byteLength + this.words.length * 4;
  }
}

/**
 * The text with its misspelt words replaced, or null when no word needed (or found) a correction.
 * Words keep their place and the text between them; a corrected word is written as the vocabulary
 * spells it (lower case). `isEnglish` (a folded word) marks the real words left alone though the catalogue lacks them.
 */
export function correctQuery(text: string, vocabulary: Vocabulary, isEnglish: (word: string) => boolean = () => false): string | null {
  const spans = [...text.matchAll(/[\p{L}\p{N}\p{M}]+/gu)];
  const lastWord = spans.length - 1;
  let out = "";
  let at = 0;
  let changed = false;
  spans.forEach((span, i) => {
    if (i >= MAX_CORRECTED_WORDS) return;
    const word = foldWord(span[0]);
    if (!/^[\p{L}\p{N}]+$/u.test(word)) return;
    const known = vocabulary.has(word) || (i === lastWord && vocabulary.hasPrefix(word)) || isEnglish(word);
    if (known) return;
    const fix = vocabulary.nearest(word);
    if (fix === null || fix === word) return;
    out += text.slice(at, span.index) + fix;
    at = span.index + span[0].length;
    changed = true;
  });
  return changed ? out + text.slice(at) : null;
}
