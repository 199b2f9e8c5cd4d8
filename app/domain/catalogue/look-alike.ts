// Look-alikes stay apart (docs/decisions/087). Real stores list every version of a line as its own product,
// usually under the line's one packshot: "Muslin Blanket 4 Layer" and "8 Layer", "Set of 4" and "Set of 6",
// "Swaddle | Dinosaur" and "Swaddle | Butterfly", a keyboard's ANSI and ISO layouts. Their pictures say "the same";
// these rules say otherwise, whatever the pictures. In order:
// 1. Strong identifiers decide first when both listings have them (identityVerdict): a shared valid barcode (GTIN-8,
//    -12, -13 or -14 with its check digit, any variant) makes one product; valid barcodes none of which is shared
//    never do. A SKU counts only between listings of one vendor (a brand's code; a store's own SKUs mean nothing
//    elsewhere): a shared SKU is one product, SKUs none of which is shared are two. A barcode that is not a valid
//    GTIN is ignored: never a reason to merge or split.
// 2. One store's two listings are two products (a store does not list one product twice: when it lists two,
//    they are two versions).
// 3. The titles state a number for the same thing differently ("4 layer" / "8 layer", "set of 4" / "set of 6",
//    "version 2" / "version 3", "2 in 1" / "3 in 1"); quantities with units stay catalogue-title's rule.
// 4. The titles name different members of one class of distinguishing nouns (animals, produce and flavours, scents,
//    prints and motifs, kit parts) and share none of that class.
// 5. Words a store uses to tell its own listings apart (siblingWords: the one slot in which two of its titles
//    differ, "Collection Snowboard Helium" / "Neon") tell any two listings apart that differ in that slot.
// 6. An option both listings have (size, layout, colour ...) with values none of which they share.
// Pure: no I/O. Bounded: at most MAX_VARIANTS variants and MAX_TITLE characters are read of a listing.
import { hammingDistance, type Hash64 } from "~/domain/catalogue/hash";
import type { NormalisedTitle } from "~/domain/catalogue/title";

export const LOOK_ALIKE = {
  /** Variants read per listing (the tracker keeps at most 250). */
  maxVariants: 250,
  /** Characters of a title read for numbers and slots. */
  maxTitle: 500,
  /** A slot a store's two titles differ in: at most this many words. */
  maxSlotWords: 2,
  /** ... under pictures at most this many bits apart (one packshot for the line's versions), when both are known. */
  siblingPictureBits: 12,
  /** ... in at least this many stores (one store's two look-alike products that read alike teach nothing). */
  siblingMinStores: 2,
  /**
   * ... and never named together: two words found side by side in at least this many titles (of any store) are
   * parts of one name ("seat cushion", "portable rechargeable"), not a line's alternatives ("helium" / "neon"); a
   * store that dropped one and kept the other taught nothing.
   */
  siblingMaxTogether: 2,
} as const;

export interface OptionValues {
  name: string;
  values: string[];
}

/** What a listing carries besides its title and price, as the store publishes it. */
export interface ListingFacts {
  storeId?: number | null;
  vendor?: string | null;
  options?: readonly OptionValues[];
  variants?: ReadonlyArray<{ sku?: string | null; barcode?: string | null }>;
}

/** A listing's traits for the look-alike rules, computed once per listing (listingTraits). */
export interface ListingTraits {
  storeId: number | null;
  /** Folded vendor, "" when none or a placeholder. */
  vendor: string;
  /** Valid GTINs, as 14 digits, sorted. */
  barcodes: string[];
  skus: string[];
  /** Option name -> folded values ("title" / "default title" left out). */
  options: Map<string, Set<string>>;
  /** Numbers the title states for a thing: "layer=4", "pcs=6", "version=2". */
  numbers: Map<string, string>;
  /** Distinguishing nouns by class: "animal" -> {"dinosaur"}. */
  nouns: Map<string, Set<string>>;
  /** Words known to tell listings apart (siblingWords), shared by every listing of one run. */
  siblings: SiblingWords;
}

/** word -> the words some store uses in the same slot of a sibling listing. */
export type SiblingWords = ReadonlyMap<string, ReadonlySet<string>>;

const NO_SIBLINGS: SiblingWords = new Map();
// Most listings have no options, numbers or nouns: they share these empty values (a million listings are matched at once).
const NONE: string[] = [];
const NO_OPTIONS = new Map<string, Set<string>>();
const NO_NUMBERS = new Map<string, string>();
const NO_NOUNS = new Map<string, Set<string>>();

/** Whether a code is a GTIN (8, 12, 13 or 14 digits, GS1 check digit right, not all zeros); as 14 digits, or null. */
export function validGtin(code: string | null | undefined): string | null {
  if (typeof code !== "string") return null;
  const digits = code.trim();
  if (!/^\d+$/.test(digits) || ![8, 12, 13, 14].includes(digits.length) || /^0+$/.test(digits)) return null;
  const padded = digits.padStart(14, "0");
  let sum = 0;
  // Weights 3,1,3,1... from the left of the 14-digit form, over the first 13 digits.
  for (let i = 0; i < 13; i++) sum += Number(padded[i]) * (i % 2 === 0 ? 3 : 1);
  return (10 - (sum % 10)) % 10 === Number(padded[13]) ? padded : null;
}

const fold = (s: string) =>
  s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();

const PLACEHOLDER_VENDORS = new Set(["", "vendor", "default", "default vendor", "unknown", "n/a", "na", "none", "supplier", "aliexpress", "dropshipping", "my store", "store"]);
const OPTION_NAMES: Record<string, string> = { colour: "color", couleur: "color", farbe: "color", colors: "color", colours: "color", taille: "size", grosse: "size", sizes: "size" };

/** word -> "class:canonical" (a kitty is a cat, a bunny a rabbit: one store's "Kitty" is another's "Cat"). */
const CLASSES: Record<string, string> = {};
const SAME_AS: Record<string, string> = {
  kitty: "cat", kitten: "cat", bunny: "rabbit", dino: "dinosaur", puppy: "dog", teddy: "bear", checker: "checkerboard", floral: "flower",
  leaves: "leaf", stars: "star", beet: "beetroot", ambre: "amber", figue: "fig", cedarwood: "cedar", stabiliser: "stabilizer", striped: "stripe",
  reindeer: "deer", pony: "horse", lamb: "sheep", spearmint: "mint", peppermint: "mint",
};
// Prints and characters are one class (a dinosaur print against a rainbow print), flavours and scents another.
for (const [cls, words] of Object.entries({
  print:
    "dinosaur dino butterfly elephant giraffe kitty cat dog puppy bunny rabbit bear teddy panda lion tiger fox owl deer reindeer unicorn shark whale dolphin " +
    "octopus turtle frog duck chick chicken penguin koala monkey zebra horse pony llama alpaca sloth hedgehog squirrel flamingo parrot bee ladybug snail " +
    "crab fish mermaid dragon cow pig sheep lamb goat hippo rhino crocodile snake",
  flavour:
    "beetroot beet carrot apple pear banana orange lemon lime mango pineapple strawberry raspberry blueberry cherry peach apricot plum grape watermelon " +
    "melon kiwi coconut pomegranate ginger turmeric spinach kale cucumber tomato celery pumpkin avocado matcha coffee cocoa chocolate caramel hazelnut " +
    "almond peanut pistachio honey mint peppermint spearmint chamomile hibiscus rooibos",
  scent:
    "lavender vanilla sandalwood jasmine rose cedar cedarwood eucalyptus bergamot patchouli amber ambre musk oud vetiver fig figue neroli sage cinnamon " +
    "pine cotton linen gardenia peony lilac tuberose ylang",
  motif:
    "star stars cloud moon sun rainbow heart flower floral leaf leaves daisy rose tulip sunflower cactus mushroom palm robot rocket car truck tractor " +
    "train plane boat anchor checkerboard checker marble leopard zebra camo plaid gingham stripe striped polka dot triangle geometric galaxy planet " +
    "ocean wave mountain forest",
  part: "plate pcb case bottom top weight foam knob stabilizer stabiliser hardware feet bumper gasket cable switch keycap",
})) {
  const name = cls === "scent" ? "flavour" : cls === "motif" ? "print" : cls;
  for (const w of words.split(" ")) CLASSES[w] ??= `${name}:${SAME_AS[w] ?? w}`;
}

const UNIT_WORDS = new Set(
  "ml l ltr liter litre oz g kg mm cm m inch inches in w mah v x pcs pc pack packs piece pieces count ct pk percent gb tb hz mm2 ft".split(" "),
);
const PACK_WORDS = new Set(["set", "pack", "box", "bundle", "lot", "case", "bag", "pair", "pairs", "kit"]);
const COUNT_WORDS = new Set(["piece", "pieces", "pc", "pcs", "pack", "packs", "count", "ct", "pk"]);
const NUMBERED_BY: Record<string, string> = {
  no: "no", nr: "no", number: "no", version: "version", ver: "version", v: "version", series: "series", gen: "gen", generation: "gen",
  vol: "vol", volume: "vol", mk: "mark", mark: "mark", tier: "tier", level: "level", size: "size", stage: "stage", step: "stage", grade: "grade",
};
const FILLER = new Set("a an and the for with of to in on by or new hot sale best premium".split(" "));

function singularWord(w: string): string {
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith("ies") && w.length > 4) return `${w.slice(0, -3)}y`;
  if (/(ss|us|is)$/.test(w)) return w;
  if (w.endsWith("s")) return w.slice(0, -1);
  return w;
}

/** Numbers the title states for a thing (not quantities with a unit, not years). */
export function titleNumbers(title: string): Map<string, string> {
  const tokens = fold(title.slice(0, LOOK_ALIKE.maxTitle)).match(/[\p{L}\p{N}]+/gu) ?? [];
  const out = new Map<string, string[]>();
  const put = (key: string, value: string) => out.set(key, [...(out.get(key) ?? []), value]);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (!/^\d{1,4}$/.test(t)) continue;
    const n = String(Number(t));
    if (t.length === 4 && Number(t) >= 1900 && Number(t) <= 2099) continue; // a year: marketing
    const prev = tokens[i - 1] ?? "";
    const prev2 = tokens[i - 2] ?? "";
    const next = tokens[i + 1] ?? "";
    if (next === "in" && /^\d+$/.test(tokens[i + 2] ?? "")) {
      put("in-one", `${n}in${Number(tokens[i + 2])}`);
      i += 2;
      continue;
    }
    if (prev === "of" && PACK_WORDS.has(prev2)) put("pcs", n);
    else if (COUNT_WORDS.has(next)) put("pcs", n);
    else if (NUMBERED_BY[prev]) put(NUMBERED_BY[prev], n);
    else if (UNIT_WORDS.has(next) || prev === "x" || next === "x") continue;
    else if (/^\p{L}{2,}$/u.test(next) && !FILLER.has(next)) put(singularWord(next), n);
    else if (/^\p{L}{2,}$/u.test(prev) && !FILLER.has(prev)) put(singularWord(prev), n);
  }
  return new Map([...out].map(([k, v]) => [k, [...new Set(v)].sort().join("+")]));
}

/** The distinguishing nouns a title names, by class (read from the raw title: "rainbow" is a colour to catalogue-title). */
export function titleNouns(rawTitle: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const token of fold(rawTitle.slice(0, LOOK_ALIKE.maxTitle)).match(/\p{L}+/gu) ?? []) {
    const cls = CLASSES[token] ?? CLASSES[singularWord(token)];
    if (!cls) continue;
    const [name, canonical] = cls.split(":");
    if (!out.has(name)) out.set(name, new Set());
    out.get(name)!.add(canonical);
  }
  return out;
}

/** The traits of one listing. `siblings` is siblingWords over the run's listings (one map for all). */
export function listingTraits(rawTitle: string, title: NormalisedTitle, facts: ListingFacts = {}, siblings: SiblingWords = NO_SIBLINGS): ListingTraits {
  const variants = (facts.variants ?? []).slice(0, LOOK_ALIKE.maxVariants);
  const barcodes = [...new Set(variants.map((v) => validGtin(v.barcode)).filter((b): b is string => b !== null))].sort();
  const skus = [...new Set(variants.map((v) => (typeof v.sku === "string" ? fold(v.sku) : "")).filter(Boolean))].sort();
  const vendor = fold(facts.vendor ?? "");
  const options = new Map<string, Set<string>>();
  for (const o of (facts.options ?? []).slice(0, 3)) {
    const name = fold(o.name);
    const values = o.values.slice(0, LOOK_ALIKE.maxVariants).map(fold).filter((v) => v && v !== "default title");
    if (!name || name === "title" || values.length === 0) continue;
    options.set(OPTION_NAMES[name] ?? name, new Set(values));
  }
  const numbers = titleNumbers(rawTitle);
  const nouns = titleNouns(rawTitle);
  return {
    storeId: facts.storeId ?? null,
    vendor: PLACEHOLDER_VENDORS.has(vendor) ? "" : vendor,
    barcodes: barcodes.length ? barcodes : NONE,
    skus: skus.length ? skus : NONE,
    options: options.size ? options : NO_OPTIONS,
    numbers: numbers.size ? numbers : NO_NUMBERS,
    nouns: nouns.size ? nouns : NO_NOUNS,
    siblings,
  };
}

function sharesAny(a: readonly string[], b: readonly string[]): string | null {
  const inB = new Set(b);
  return a.find((x) => inB.has(x)) ?? null;
}

/** What the identifiers say, when both listings have them: one product, two, or nothing (null). */
export function identityVerdict(a: ListingTraits, b: ListingTraits): { same: boolean; reason: string } | null {
  if (a.barcodes.length > 0 && b.barcodes.length > 0) {
    const shared = sharesAny(a.barcodes, b.barcodes);
    return shared ? { same: true, reason: `same barcode ${shared}` } : { same: false, reason: `different barcodes (${a.barcodes[0]} against ${b.barcodes[0]})` };
  }
  if (a.vendor && a.vendor === b.vendor && a.skus.length > 0 && b.skus.length > 0) {
    const shared = sharesAny(a.skus, b.skus);
    return shared ? { same: true, reason: `same vendor and SKU ${shared}` } : { same: false, reason: `same vendor, different SKUs (${a.skus[0]} against ${b.skus[0]})` };
  }
  return null;
}

function disjoint(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  for (const x of a) if (b.has(x)) return false;
  return true;
}

/** Which of the rules above keeps two listings apart (2 to 6). */
export type LookAlikeRule = "one-store" | "number" | "noun" | "sibling" | "option";

/**
 * Which rule keeps two listings apart as versions of one line rather than one product, with its phrase, or null.
 * Identifiers are not asked here (identityVerdict decides first); a listing without traits is never kept apart.
 */
export function lookAlikeRule(
  a: ListingTraits | undefined,
  b: ListingTraits | undefined,
  aTitle: NormalisedTitle,
  bTitle: NormalisedTitle,
): { rule: LookAlikeRule; reason: string } | null {
  if (!a || !b) return null;
  if (a.storeId !== null && a.storeId === b.storeId) return { rule: "one-store", reason: "one store's two listings" };
  for (const [key, value] of a.numbers) {
    const other = b.numbers.get(key);
    if (other !== undefined && other !== value) return { rule: "number", reason: `${key === "pcs" ? "sets of" : key} ${value} against ${other}` };
  }
  for (const [cls, words] of a.nouns) {
    const other = b.nouns.get(cls);
    if (other && disjoint(words, other)) return { rule: "noun", reason: `${[...words].join(", ")} against ${[...other].join(", ")}` };
  }
  const siblingClash = siblingReason(a.siblings, aTitle, bTitle);
  if (siblingClash) return { rule: "sibling", reason: siblingClash };
  for (const [name, values] of a.options) {
    const other = b.options.get(name);
    if (other && disjoint(values, other)) return { rule: "option", reason: `${name} ${[...values].slice(0, 3).join(", ")} against ${[...other].slice(0, 3).join(", ")}` };
  }
  return null;
}

/** Why two listings are versions of one line rather than one product, as a phrase, or null (lookAlikeRule's). */
export function lookAlikeReason(a: ListingTraits | undefined, b: ListingTraits | undefined, aTitle: NormalisedTitle, bTitle: NormalisedTitle): string | null {
  return lookAlikeRule(a, b, aTitle, bTitle)?.reason ?? null;
}

function siblingReason(siblings: SiblingWords, a: NormalisedTitle, b: NormalisedTitle): string | null {
  if (siblings.size === 0) return null;
  for (const x of a.words) {
    const known = siblings.get(x);
    if (!known || b.words.includes(x)) continue;
    for (const y of b.words) if (known.has(y) && !a.words.includes(y)) return `${x} against ${y} (a store sells both)`;
  }
  return null;
}

/** What else a title states (quantities, models, numbers): two titles are siblings only when this is alike. */
export function titleMarks(rawTitle: string, title: NormalisedTitle): string {
  return [...title.quantities, ...title.models, ...[...titleNumbers(rawTitle)].map(([k, v]) => `${k}=${v}`)].sort().join(" ");
}

/**
 * Words stores use to tell their own listings apart: within one store, two titles whose words are the same but for
 * one slot of at most LOOK_ALIKE.maxSlotWords words, whose marks (titleMarks) are the same and whose pictures (when
 * given) are near, in at least LOOK_ALIKE.siblingMinStores stores, ("collection snowboard helium" / "collection snowboard neon")
 * make the slots' words siblings. Found by blocking on each title with one slot left out (linear per listing, never
 * all pairs).
 */
export function siblingWords(listings: Iterable<{ storeId: number; words: readonly string[]; marks?: string; picture?: Hash64 | null }>): SiblingWords {
  // One store at a time, so only one store's blocks are held at once.
  const byStore = new Map<number, Array<{ words: readonly string[]; marks: string; picture: Hash64 | null }>>();
  for (const l of listings) {
    if (l.words.length < 2 || l.words.length > 16) continue;
    const titles = byStore.get(l.storeId);
    const entry = { words: l.words, marks: l.marks ?? "", picture: l.picture ?? null };
    if (titles) titles.push(entry);
    else byStore.set(l.storeId, [entry]);
  }
  const stores = new Map<string, number>();
  for (const titles of byStore.values()) {
    if (titles.length < 2) continue;
    const seen = new Set<string>();
    const blocks = new Map<string, Map<string, { slot: readonly string[]; picture: Hash64 | null }>>();
    for (const { words: w, marks, picture } of titles)
      for (let size = 1; size <= LOOK_ALIKE.maxSlotWords && w.length - size >= 2; size++)
        for (let i = 0; i + size <= w.length; i++) {
          const key = `${marks}|${i}|${w.slice(0, i).join(" ")}|${w.slice(i + size).join(" ")}`;
          let slots = blocks.get(key);
          if (!slots) blocks.set(key, (slots = new Map()));
          slots.set(w.slice(i, i + size).join(" "), { slot: w.slice(i, i + size), picture });
        }
    for (const slots of blocks.values()) {
      if (slots.size < 2) continue;
      const all = [...slots.values()];
      for (const { slot: x, picture: px } of all)
        for (const { slot: y, picture: py } of all) {
          if (x === y) continue;
          // Versions of a line share its packshot; two products that merely read alike do not teach anything.
          if (px && py && hammingDistance(px, py) > LOOK_ALIKE.siblingPictureBits) continue;
          for (const wx of x)
            for (const wy of y) {
              if (x.includes(wy) || y.includes(wx)) continue;
              seen.add(`${wx}\u0000${wy}`);
            }
        }
    }
    for (const pair of seen) stores.set(pair, (stores.get(pair) ?? 0) + 1);
  }
  const out = new Map<string, Set<string>>();
  for (const [pair, count] of stores) {
    if (count < LOOK_ALIKE.siblingMinStores) continue;
    const [wx, wy] = pair.split("\u0000");
    if (!out.has(wx)) out.set(wx, new Set());
    out.get(wx)!.add(wy);
  }
  // Words named together in titles are one name's parts, not alternatives: counted over every title read (linear:
  // each title's words against their few candidate siblings).
  const together = new Map<string, number>();
  for (const titles of byStore.values())
    for (const { words } of titles)
      for (const wx of words) {
        const known = out.get(wx);
        if (!known) continue;
        for (const wy of words) if (wy !== wx && known.has(wy)) together.set(`${wx}\u0000${wy}`, (together.get(`${wx}\u0000${wy}`) ?? 0) + 1);
      }
  for (const [pair, count] of together) {
    if (count < LOOK_ALIKE.siblingMaxTogether) continue;
    const [wx, wy] = pair.split("\u0000");
    out.get(wx)?.delete(wy);
    if (out.get(wx)?.size === 0) out.delete(wx);
  }
  return out;
}
