// The labelled set of real-catalogue patterns (docs/decisions/087): the lines of ./lines.ts listed by stores the
// way real stores list them, and the pairs a matcher must get right.
// - Each item (a version of a line) is listed by two or three stores, each in its own voice: words reordered, a
//   separator, marketing words and emoji, capitals, a descriptor added or left out, the version written another
//   way ("8-Layer", "8 Layers"), its own price and currency, its own subset of the options, its own SKUs unless a
//   brand's, barcodes on some listings and a broken one on a few. Those listings pairwise are TRUE pairs.
// - Store k of a line lists every item of it (as a store lists a whole line), so versions of one line meet in one
//   store and across stores. Those pairs are HARD NEGATIVES: one packshot reused across the versions ("shared"),
//   or each version's own picture in one brand's style ("own", drawn as a look-alike of the line's picture).
// - Pictures are drawn with sharp from a design per line or item and altered per listing as stores alter supplier
//   photos (re-encoded, resized, cropped, a badge, a watermark, a colour shift, another background).
// Deterministic: the same set on every run. Nothing here is read from a stored catalogue.
import { LINES, type LineSpec, type OptionSpec } from "./lines";
import { drawPicture, lookAlikeDesign, randomDesign, variantPicture, VARIANT_KINDS, type PictureDesign, type VariantKind } from "../../scripts/lib/market-pictures";
import { mulberry32 } from "../../scripts/lib/product-generator";

export interface SetVariant {
  title: string;
  sku: string | null;
  barcode: string | null;
  priceCents: number;
}

export interface SetListing {
  id: number;
  storeId: number;
  vendor: string;
  title: string;
  priceCents: number;
  currency: string;
  options: OptionSpec[];
  variants: SetVariant[];
  /** The truth: "{line}#{item}". */
  item: string;
  line: LineSpec;
  picture: { design: PictureDesign; alteration: VariantKind | "supplier"; seed: number };
}

export interface SetPair {
  a: number;
  b: number;
  same: boolean;
  /** What the pair is: "same item" or what tells the two apart ("number", "noun", ...), and whether in one store. */
  kind: string;
}

export interface LabelledSet {
  listings: SetListing[];
  pairs: SetPair[];
}

const MARKETING = ["HOT SALE", "NEW", "Best Seller", "Premium", "2026 NEW", "Limited Offer"];
const EMOJI = ["🔥", "✨", "💯", "🎁"];
const ALTERATIONS: VariantKind[] = [...VARIANT_KINDS];

function pick<T>(r: () => number, list: readonly T[]): T {
  return list[Math.floor(r() * list.length)];
}

const titleCase = (s: string) => s.replace(/(^|\s)(\p{Ll})/gu, (_, sp: string, c: string) => sp + c.toUpperCase());

/** One store's title for an item: its voice (0..6), the version as it writes it, its descriptor (or none). */
function storeTitle(r: () => number, line: LineSpec, form: string, voice: number, desc: string): string {
  const base = line.line;
  const join = (...parts: string[]) => parts.filter(Boolean).join(" ").replace(/\s+/g, " ").trim();
  switch (voice) {
    case 0:
      return join(base, form, desc ? `- ${desc}` : "");
    case 1:
      return form ? join(desc, base, "|", form) : join(base, desc ? `| ${desc}` : "");
    case 2:
      return join(form, base.toLowerCase(), desc ? `with ${desc.toLowerCase()}` : "").replace(/^./, (c) => c.toUpperCase());
    case 3:
      return join(pick(r, EMOJI), pick(r, MARKETING), base, form ? `– ${form}` : "", desc ? `(${desc})` : "");
    case 4:
      return join(base, form ? `(${form})` : "", desc).toUpperCase();
    case 5:
      return join(desc ? `${titleCase(desc)}` : "", `${base}${form ? `, ${form}` : ""}`, pick(r, EMOJI));
    default:
      return join(base, form, pick(r, EMOJI), desc, pick(r, EMOJI));
  }
}

/** A GTIN-13 with its check digit (GS1: weights 1 and 3 from the left for 13 digits). */
export function gtin13(body12: string): string {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(body12[i]) * (i % 2 === 0 ? 1 : 3);
  return body12 + String((10 - (sum % 10)) % 10);
}

/** A barcode that is not a GTIN: a wrong check digit, a placeholder, a SKU pasted into the field. */
function brokenBarcode(r: () => number, valid: string | null, sku: string | null): string {
  const kind = Math.floor(r() * 3);
  if (kind === 0 && valid) return valid.slice(0, -1) + String((Number(valid.at(-1)) + 1) % 10);
  if (kind === 1) return pick(r, ["0", "N/A", "000000000000", "1234"]);
  return sku ?? "TBC";
}

function optionFor(r: () => number, option: OptionSpec | undefined): OptionSpec[] {
  if (!option) return [];
  // A store stocks each value with a chance of 4 in 5 (at least one).
  const kept = option.values.filter(() => r() < 0.8);
  return [{ name: r() < 0.2 ? option.name.toLowerCase() : option.name, values: kept.length ? kept : [option.values[0]] }];
}

/** The labelled set. */
export function buildLabelledSet(seed = 87): LabelledSet {
  const r = mulberry32(seed);
  const listings: SetListing[] = [];
  const pairs: SetPair[] = [];
  let storeBase = 1;
  LINES.forEach((line, lineIndex) => {
    const stores = line.stores ?? 2;
    const lineDesign = randomDesign(5_000 + lineIndex * 37);
    const byItem: SetListing[][] = [];
    // A store writes a whole line in one voice (its template), with the same descriptor or, now and then, another.
    const voices = [0, 1, 2, 3, 4, 5, 6].sort(() => r() - 0.5);
    const storeDesc = Array.from({ length: stores }, () => (r() < 0.6 ? pick(r, line.descriptors) : ""));
    line.items.forEach((item, itemIndex) => {
      const design = line.picture === "shared" || itemIndex === 0 ? lineDesign : lookAlikeDesign(lineDesign, 9_000 + lineIndex * 101 + itemIndex);
      const own: SetListing[] = [];
      for (let k = 0; k < stores; k++) {
        const storeId = storeBase + k;
        const currency = storeId % 5 === 0 ? "EUR" : "USD";
        const form = item.forms[k % item.forms.length];
        const options = optionFor(r, item.option ?? line.option);
        const values = options[0]?.values ?? ["Default Title"];
        const price = Math.round(line.priceCents * (1 + 0.25 * itemIndex) * (0.85 + r() * 0.6) * (currency === "EUR" ? 0.93 : 1));
        const publishes = r() < (line.by === "barcode" ? 0.9 : 0.5);
        const breaks = !publishes && r() < 0.3;
        const variants = values.map((value, v) => {
          const sku = line.brand
            ? `${line.brand.slice(0, 3).toUpperCase()}-${lineIndex}${itemIndex}-${v}`
            : r() < 0.7
              ? `S${storeId}-${Math.floor(r() * 1e6)}`
              : null;
          const valid = line.gtin || line.by === "barcode" ? gtin13(`0${String(lineIndex).padStart(3, "0")}${String(itemIndex).padStart(3, "0")}${String(v).padStart(5, "0")}`) : null;
          const barcode = publishes ? valid : breaks ? brokenBarcode(r, valid, sku) : null;
          return { title: value, sku, barcode, priceCents: price + v * 100 };
        });
        const listing: SetListing = {
          id: listings.length + 1,
          storeId,
          vendor: line.brand ?? `Store ${storeId}`,
          title: storeTitle(r, line, form, voices[k % voices.length], r() < 0.8 ? storeDesc[k] : pick(r, ["", ...line.descriptors])),
          priceCents: price,
          currency,
          options,
          variants,
          item: `${line.id}#${itemIndex}`,
          line,
          picture: { design, alteration: k === 0 ? "supplier" : pick(r, ALTERATIONS), seed: 31 * (listings.length + 1) },
        };
        listings.push(listing);
        own.push(listing);
      }
      for (let i = 0; i < own.length; i++) for (let j = i + 1; j < own.length; j++) pairs.push({ a: own[i].id, b: own[j].id, same: true, kind: `same item (${line.by})` });
      byItem.push(own);
    });
    // Versions of one line: in one store (listing k of both) and across two stores (listing 0 against listing 1).
    for (let i = 0; i < byItem.length; i++)
      for (let j = i + 1; j < byItem.length; j++) {
        pairs.push({ a: byItem[i][0].id, b: byItem[j][0].id, same: false, kind: `${line.by}, one store` });
        pairs.push({ a: byItem[i][0].id, b: byItem[j][1].id, same: false, kind: `${line.by}, two stores` });
        if (stores > 2 || byItem.length <= 2) pairs.push({ a: byItem[i][1].id, b: byItem[j][0].id, same: false, kind: `${line.by}, two stores` });
      }
    storeBase += stores;
  });
  return { listings, pairs };
}

/** Each listing's picture as its store serves it. */
export async function drawListingPicture(listing: SetListing): Promise<Buffer> {
  const { design, alteration, seed } = listing.picture;
  return alteration === "supplier" ? drawPicture(design) : variantPicture(design, alteration, seed);
}

export interface SetQuality {
  precision: number;
  recall: number;
  truePairs: number;
  negatives: number;
  rightMatches: number;
  wrongMatches: number;
  missed: number;
  /** Per kind of pair: how many, and how many the matcher got wrong. */
  byKind: Map<string, { pairs: number; wrong: number; examples: string[] }>;
}

/** Pairwise precision and recall of a matcher's decisions on the set's pairs. */
export function scoreDecisions(set: LabelledSet, decide: (a: SetListing, b: SetListing) => { match: boolean; reason: string }): SetQuality {
  const byId = new Map(set.listings.map((l) => [l.id, l]));
  const byKind = new Map<string, { pairs: number; wrong: number; examples: string[] }>();
  let right = 0;
  let wrong = 0;
  let missed = 0;
  for (const pair of set.pairs) {
    const a = byId.get(pair.a)!;
    const b = byId.get(pair.b)!;
    const decision = decide(a, b);
    const entry = byKind.get(pair.kind) ?? { pairs: 0, wrong: 0, examples: [] };
    entry.pairs++;
    if (decision.match && pair.same) right++;
    else if (decision.match) wrong++;
    else if (pair.same) missed++;
    if (decision.match !== pair.same) {
      entry.wrong++;
      if (entry.examples.length < 3) entry.examples.push(`"${a.title}" / "${b.title}": ${decision.reason}`);
    }
    byKind.set(pair.kind, entry);
  }
  const truePairs = set.pairs.filter((p) => p.same).length;
  return {
    precision: right + wrong === 0 ? 1 : right / (right + wrong),
    recall: truePairs === 0 ? 1 : right / truePairs,
    truePairs,
    negatives: set.pairs.length - truePairs,
    rightMatches: right,
    wrongMatches: wrong,
    missed,
    byKind,
  };
}
