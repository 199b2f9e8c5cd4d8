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
