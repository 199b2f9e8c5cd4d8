// How guessable a configured secret is (docs/decisions/042). A secret generated the way .env.example says
// (openssl rand -hex 32, -base64 32) scores far above the floor; a word, a repeated character, a keyboard
// run or a counting sequence scores below it. The estimate is deliberately simple: the value's length times
// the Shannon entropy of its characters, or of the steps between neighbouring characters when that is
// lower (so "abcdef…" and "0123…" count as the predictable runs they are); a value that repeats a shorter
// unit counts as that unit once.

/** The fewest estimated bits a production secret may have. */
export const MIN_SECRET_BITS = 64;

function shannonBitsPerSymbol(symbols: readonly (string | number)[]): number {
  if (symbols.length === 0) return 0;
  const counts = new Map<string | number, number>();
  for (const s of symbols) counts.set(s, (counts.get(s) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / symbols.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** The shortest unit the characters repeat (the whole value when they do not). */
function repeatedUnit(chars: string[]): string[] {
  for (let period = 1; period <= chars.length / 2; period++) {
    if (chars.every((c, i) => i < period || c === chars[i - period])) return chars.slice(0, period);
  }
  return chars;
}

/** Estimated bits of entropy of a secret (rounded down). Bytes may be passed as a latin1 string. */
export function estimateSecretBits(value: string): number {
  const chars = repeatedUnit([...value]);
  if (chars.length < 2) return 0;
  const codes = chars.map((c) => c.codePointAt(0)!);
  const steps = codes.slice(1).map((code, i) => code - codes[i]!);
  const perSymbol = Math.min(shannonBitsPerSymbol(chars), shannonBitsPerSymbol(steps));
  return Math.floor(perSymbol * chars.length);
}

/**
 * Secrets made of words (decision 080): the character estimate above scores the product's name, "session" and
 * "secret" joined by hyphens at about 110 bits, because its letters are varied; an attacker tries the product's name
 * and dictionary words first. A guess estimator (zxcvbn, with English dictionaries and these words) finds the words,
 * and a value mostly made of them is judged by its guesses instead, against a higher floor: what 16 random bytes give.
 */
export const MIN_WORDS_SECRET_BITS = 128;

/** A value is made of words when the estimator's patterns (words, names, keyboard runs, dates) cover this share of it. */
export const WORDS_SHARE = 0.5;

/** What an attacker tries first against this product's secrets: its name and the variables' own words. */
export const PRODUCT_WORDS: readonly string[] = [
  "winning", "products", "winningproducts", "winning-products", "winning_products", "wp", "dropshipping",
  "session", "secret", "token", "encryption", "key", "keys", "api", "webhook", "client", "admin", "search",
  "shopify", "paddle", "discord", "algolia", "klaviyo", "hyros", "database", "auth", "prod", "production", "live",
];

/** What the guess estimator found in a value: log2 of its guesses, and the share of characters its patterns cover. */
export type GuessEstimate = { bits: number; patternShare: number };

/** How a value fails as a production secret: too few bits by characters, or made of words with too few guesses. */
export type SecretWeakness = { kind: "characters" | "words"; bits: number; floor: number };

/** Why `value` is too easy to guess, or null; `guesses` is the estimator's view of it (computed by the caller). */
export function secretWeakness(value: string, guesses: (value: string) => GuessEstimate): SecretWeakness | null {
  const bits = estimateSecretBits(value);
  if (bits < MIN_SECRET_BITS) return { kind: "characters", bits, floor: MIN_SECRET_BITS };
  const guess = guesses(value);
  if (guess.patternShare >= WORDS_SHARE && guess.bits < MIN_WORDS_SECRET_BITS) {
    return { kind: "words", bits: Math.floor(guess.bits), floor: MIN_WORDS_SECRET_BITS };
  }
  return null;
}
