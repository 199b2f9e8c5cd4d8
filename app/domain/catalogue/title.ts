// Product titles as the measured catalogue compares them (docs/decisions/046-measured-catalogue.md). Two stores
// selling one product title it differently: "2026 NEW Portable Neck Fan - Bladeless, USB Rechargeable (White) 🔥"
// and "Bladeless neck fan | hands-free cooling". What survives normalising is what names the product:
// - case and accents folded, emoji and symbols dropped, punctuation made a space;
// - marketing words dropped (new, hot, sale, 2026, best, premium, upgraded, free shipping ...), colours dropped
//   (one listing shows the white variant, another the black), stop words dropped;
// - quantities kept but written one way ("500 ml", "500ML" and "0.5 l" -> "500ml"; "10 pcs" -> "10pcs"): a
//   2-pack and a 10-pack are different offers, so a quantity in both titles that differs is a contradiction;
// - model words (letters with digits: "x12", "iphone15") kept: two titles naming different models contradict;
// - plurals folded ("fans" -> "fan") by a small suffix rule, enough for shop titles.
// Pure: no I/O. The thresholds that use these tokens live in app/domain/catalogue/match.ts.

const STOP_WORDS = new Set(
  (
    "a an and the for with of to in on by from at or as is it its this that your you our my me we be are " +
    "set pack pcs piece pieces kit item items product products style type version edition model size one"
  ).split(" "),
);

const MARKETING_WORDS = new Set(
  (
    "new newest latest hot sale sales best bestseller bestselling top premium quality high deluxe luxury upgraded " +
    "upgrade original genuine official amazing perfect ultimate super great cool cute trending viral popular " +
    "limited offer deal discount cheap free shipping fast delivery gift gifts idea ideas tiktok musthave must " +
    "have 2020 2021 2022 2023 2024 2025 2026 2027 edition"
  ).split(" "),
);

const COLOUR_WORDS = new Set(
  (
    "black white red blue green yellow orange purple pink grey gray brown beige navy gold golden silver rose " +
    "khaki ivory cream teal turquoise violet lilac maroon burgundy coral mint olive charcoal transparent clear " +
    "multicolor multicolour colorful colourful rainbow dark light"
  ).split(" "),
);

/** Units a quantity may carry, each written one way, with the factor to a base unit of its kind. */
const UNITS: Record<string, { base: string; factor: number }> = {
  ml: { base: "ml", factor: 1 },
  l: { base: "ml", factor: 1000 },
  ltr: { base: "ml", factor: 1000 },
  liter: { base: "ml", factor: 1000 },
  litre: { base: "ml", factor: 1000 },
  oz: { base: "oz", factor: 1 },
  g: { base: "g", factor: 1 },
  kg: { base: "g", factor: 1000 },
  mm: { base: "mm", factor: 1 },
  cm: { base: "mm", factor: 10 },
  m: { base: "mm", factor: 1000 },
  inch: { base: "in", factor: 1 },
  inches: { base: "in", factor: 1 },
  w: { base: "w", factor: 1 },
  mah: { base: "mah", factor: 1 },
  v: { base: "v", factor: 1 },
  pcs: { base: "pcs", factor: 1 },
  pc: { base: "pcs", factor: 1 },
  pack: { base: "pcs", factor: 1 },
  packs: { base: "pcs", factor: 1 },
  x: { base: "pcs", factor: 1 },
};

export interface NormalisedTitle {
  /** Content words, singular, deduplicated, in first-seen order. */
  words: string[];
  /** Quantities written one way ("500ml", "2pcs"). */
  quantities: string[];
  /** Words with letters and digits that name a model ("x12", "iphone15"). */
  models: string[];
}

/** One token: letters and digits only, case folded, accents removed. */
function foldToken(token: string): string {
  return token.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
}

function singular(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(ss|us|is)$/.test(word)) return word;
  if (/(ches|shes|xes|zes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s")) return word.slice(0, -1);
  return word;
}

function formatQuantity(amount: number, unit: string): string | null {
  const spec = UNITS[unit];
  if (!spec || !Number.isFinite(amount) || amount <= 0) return null;
  const value = Math.round(amount * spec.factor * 100) / 100;
  return `${value}${spec.base}`;
}

/**
 * Normalises a listing title for matching. Deterministic and idempotent on its words: normalising the
 * joined words again gives the same words.
 */
export function normaliseTitle(title: string): NormalisedTitle {
  // Everything that is not a letter, a digit or a decimal point becomes a space (emoji, symbols, punctuation).
  const spaced = foldToken(title)
    .replace(/[^\p{L}\p{N}.]+/gu, " ")
    .replace(/(?<!\d)\.|\.(?!\d)/g, " ");
  // "500 ml" -> "500ml" before splitting; "2 x" stays a quantity of pieces.
  const joined = spaced.replace(/(\d+(?:\.\d+)?)\s+([a-z]+)\b/g, (all, n: string, unit: string) => (UNITS[unit] ? `${n}${unit}` : all));
  const words: string[] = [];
  const quantities: string[] = [];
  const models: string[] = [];
  const seen = new Set<string>();
  const add = (list: string[], token: string) => {
    if (seen.has(token)) return;
    seen.add(token);
    list.push(token);
  };
  for (const raw of joined.split(/\s+/)) {
    if (!raw) continue;
    const quantity = /^(\d+(?:\.\d+)?)([a-z]+)$/.exec(raw);
    if (quantity && UNITS[quantity[2]]) {
      const formatted = formatQuantity(Number(quantity[1]), quantity[2]);
      if (formatted) add(quantities, formatted);
      continue;
    }
    // A leading "x2" / "2x" is a pack size too.
    const pack = /^(?:x(\d+)|(\d+)x)$/.exec(raw);
    if (pack) {
      add(quantities, `${Number(pack[1] ?? pack[2])}pcs`);
      continue;
    }
    if (/^\d+(?:\.\d+)?$/.test(raw)) continue; // a bare number says nothing on its own ("2026", "1")
    if (/\d/.test(raw) && /\p{L}/u.test(raw)) {
      add(models, raw.replace(/\./g, ""));
      continue;
    }
    const word = singular(raw.replace(/\./g, ""));
    if (word.length < 2 || STOP_WORDS.has(word) || MARKETING_WORDS.has(word) || MARKETING_WORDS.has(raw)) continue;
    if (COLOUR_WORDS.has(word) || COLOUR_WORDS.has(raw)) continue;
    add(words, word);
  }
  return { words, quantities, models };
}

export interface TitleComparison {
  /** Content words both titles share. */
  shared: string[];
  /** |shared| / |smaller title's words|: 1 when one title's words are all in the other. */
  overlap: number;
  /** Why the titles cannot be one product, as a phrase, or null. */
  contradiction: string | null;
}

/**
 * Compares two normalised titles. Overlap is measured against the shorter title, since one store writes
 * "Neck fan" and another "Portable bladeless neck fan with 3 speeds". A contradiction is a fact both titles
 * state differently: different quantities of the same unit, or different model words where both name one.
 */
export function compareTitles(a: NormalisedTitle, b: NormalisedTitle): TitleComparison {
  const inB = new Set(b.words);
  const shared = a.words.filter((w) => inB.has(w));
  const smaller = Math.min(a.words.length, b.words.length);
  const overlap = smaller === 0 ? 0 : shared.length / smaller;
  return { shared, overlap, contradiction: quantityContradiction(a, b) ?? modelContradiction(a, b) };
}

function unitOf(quantity: string): string {
  return quantity.replace(/^[\d.]+/, "");
}

function quantityContradiction(a: NormalisedTitle, b: NormalisedTitle): string | null {
  for (const qa of a.quantities) {
    const unit = unitOf(qa);
    const sameUnit = b.quantities.filter((qb) => unitOf(qb) === unit);
    if (sameUnit.length > 0 && !sameUnit.includes(qa)) return `${qa} against ${sameUnit.join(", ")}`;
  }
  return null;
}

function modelContradiction(a: NormalisedTitle, b: NormalisedTitle): string | null {
  if (a.models.length === 0 || b.models.length === 0) return null;
  const inB = new Set(b.models);
  if (a.models.some((m) => inB.has(m))) return null;
  return `model ${a.models.join(", ")} against ${b.models.join(", ")}`;
}

/** Whether compareTitles would find a contradiction, without writing it out (grouping's hot path). */
export function titlesContradict(a: NormalisedTitle, b: NormalisedTitle): boolean {
  if (a.quantities.length > 0 && b.quantities.length > 0 && quantityContradiction(a, b) !== null) return true;
  return a.models.length > 0 && b.models.length > 0 && modelContradiction(a, b) !== null;
}
