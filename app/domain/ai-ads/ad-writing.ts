// The built-in ad writer's words (seed ai-ads; docs/decisions/062-ads-worth-posting.md): the tone a brand
// kit asks for, read from its free text; three hooks per product to pick from, varied by product and tone; the
// problem and call-to-action lines in that tone; and phrases that fit the frame by choosing shorter wording,
// never by cutting a sentence with "...". Pure: no I/O, deterministic for the same product.
import { AD_LIMITS, shortenToFit } from "~/domain/ai-ads/ai-ads";
import { formatCount } from "~/domain/products/insights";
import { centsToDecimal, cleanTitle, squish } from "~/domain/product-pages/product-page";

/** The tones the built-in writer knows; a kit's tone text naming none of them reads as "neutral". */
export const AD_TONES = ["neutral", "playful", "premium", "calm", "bold", "friendly", "expert"] as const;
export type AdTone = (typeof AD_TONES)[number];

const TONE_WORDS: [Exclude<AdTone, "neutral">, RegExp][] = [
  ["playful", /\b(?:playful|fun|funny|cheeky|witty|quirky|silly|light-?hearted|humou?r\w*|jokey)\b/i],
  ["premium", /\b(?:premium|luxur\w*|elegant|refined|sophisticated|high-end|classy|upscale|exclusive)\b/i],
  ["calm", /\b(?:calm|gentle|soft|soothing|warm|cosy|cozy|relaxed|mindful|peaceful|quiet)\b/i],
  ["bold", /\b(?:bold|direct|energetic|urgent|punchy|loud|confident|hype|edgy)\b/i],
  ["friendly", /\b(?:friendly|casual|approachable|conversational|chatty|down-to-earth|welcoming)\b/i],
  ["expert", /\b(?:expert|professional|informative|technical|authoritative|clinical|scientific|factual|educational)\b/i],
];

/** The words the built-in writer understands in a kit's tone of voice, for the page to say so. */
export const AD_TONE_HINT = "playful, premium, calm, bold, friendly or expert";

/** The tone a kit's tone-of-voice text asks for: the known tone named first in it, else "neutral". */
export function adTone(text: string | null | undefined): AdTone {
  const t = (text ?? "").replace(/\s+/g, " ");
  let best: { tone: AdTone; at: number } = { tone: "neutral", at: Infinity };
  for (const [tone, re] of TONE_WORDS) {
    const at = t.search(re);
    if (at >= 0 && at < best.at) best = { tone, at };
  }
  return best.tone;
}

/** The first words of `text` whose length is at most `max` (whole words only, no ellipsis); "" if the first word is longer. */
export function wholeWordsWithin(text: string, max: number): string {
  let out = "";
  for (const word of squish(text).split(" ")) {
    const next = out ? `${out} ${word}` : word;
    if (next.length > max) break;
    out = next;
  }
  return out.replace(/[\s,;:.\-–—|/&]+$/, "");
}

/** Words that join a name's thing to what it is for or comes with: a short name never ends on one. */
const CONNECTOR = /^(?:for|with|without|and|or|in|on|to|of|from|by|at|into|plus|featuring|incl\.?|including|w\/|&|\+|the|a|an)$/i;
const SHORT_NAME_MAX = 32;

/**
 * The short name an ad uses on screen, at most 32 characters of the title's own words (decision 085): the title
 * before any comma, bracket or dash; when that is longer, the words before its "for"/"with" phrase (never a cut
 * inside it: not "Harness for Small"); when those are still longer, the last words of them, which name the thing
 * itself ("Magnetic Levitating Globe Lamp"). A single word longer than that is the name, for the frame to fit.
 */
export function adShortName(title: string): string {
  const clean = cleanTitle(title, 1000);
  const lead = squish(clean.replace(/\s*(?:[,(|]|\s[–-]\s).*$/, "")) || clean;
  if (lead.length <= SHORT_NAME_MAX) return lead;
  const words = lead.split(" ");
  const firstJoin = words.findIndex((w, i) => i > 0 && CONNECTOR.test(w));
  // The longest run of words before a connecting word that fits and does not itself end on one.
  for (let end = words.length - 1; end > 0; end--) {
    if (!CONNECTOR.test(words[end]) || CONNECTOR.test(words[end - 1])) continue;
    const head = words.slice(0, end).join(" ");
    if (head.length <= SHORT_NAME_MAX) return head;
  }
  // The thing itself: the last words of the phrase before any connecting word.
  const phrase = firstJoin > 0 ? words.slice(0, firstJoin) : words;
  let out = phrase.at(-1)!;
  for (let i = phrase.length - 2; i >= 0; i--) {
    const next = `${phrase[i]} ${out}`;
    if (next.length > SHORT_NAME_MAX || CONNECTOR.test(phrase[i])) break;
    out = next;
  }
  return out;
}

// ---- a or an ------------------------------------------------------------------------------------------

/** Letters whose spoken name starts with a vowel sound ("an LED", "an SUV"; but "a USB", "a UV"). */
const VOWEL_SOUND_LETTERS = new Set([..."AEFHILMNORSX"]);

/**
 * "a" or "an" before `word`, by how it sounds (decision 085): "an Adjustable", "an hour", "an LED", "an 8-inch",
 * "an 11-piece"; "a USB", "a unicorn", "a European", "a one-piece".
 */
export function indefiniteArticle(word: string): "a" | "an" {
  const w = word.replace(/^[^A-Za-z0-9]+/, "");
  if (!w) return "a";
  const digits = /^\d[\d,]*/.exec(w)?.[0].replace(/,/g, "");
  if (digits) {
    // Said "eight...", "eleven", "eighteen", "eighty...", "eight hundred": only these open with a vowel.
    if (digits.startsWith("8")) return "an";
    const groups = digits.length % 3 || 3;
    const lead = digits.slice(0, groups);
    return lead === "11" || lead === "18" ? "an" : "a";
  }
  const letters = /^[A-Za-z]+/.exec(w)![0];
  // An initialism said letter by letter: all capitals, up to 5 letters, or one capital letter ("an X-ray").
  if ((letters.length <= 5 && letters.length > 1 && letters === letters.toUpperCase() && !/^(?:NASA|UNESCO|NATO)$/.test(letters)) || (letters.length === 1 && /[A-Z]/.test(letters)))
    return VOWEL_SOUND_LETTERS.has(letters[0].toUpperCase()) ? "an" : "a";
  const lower = w.toLowerCase();
  if (/^(?:hour|honest|honou?r|heir)/.test(lower)) return "an";
  if (/^(?:uni(?!n[aeiou]|mp|nte|ntel|nh|ndent)|use|usu|uten|uti|ura|uri|uro|eu|ewe|one(?![a-z])|once|ouija|uk)/.test(lower)) return "a";
  return /^[aeiou]/.test(lower) ? "an" : "a";
}

/** `name` with the article its sound asks for: "an Adjustable Harness". */
export function withArticle(name: string): string {
  return `${indefiniteArticle(name)} ${name}`;
}

/**
 * A line with every "a"/"an" matching the word after it ("needed a Adjustable" -> "needed an Adjustable"). A
 * capital "A" counts as the article only at the start of a sentence, so "Vitamin A Serum" stays as it is.
 */
export function fixArticles(text: string): string {
  return text.replace(/(^|[.!?:]\s+|\s)(a|an|A|An|AN)(\s+)([A-Za-z0-9][\w-]*)/g, (all, before: string, article: string, gap: string, next: string, at: number) => {
    const sentenceStart = at === 0 || /[.!?:]\s+$/.test(before);
    if (/^A/.test(article) && !sentenceStart) return all;
    const right = indefiniteArticle(next);
    const shown = article === "AN" ? right.toUpperCase() : /^A/.test(article) ? right[0].toUpperCase() + right.slice(1) : right;
    return `${before}${shown}${gap}${next}`;
  });
}

// ---- Free shipping ------------------------------------------------------------------------------------

const SHIPPING_CLAIM =
  /(?:\s*(?:,|\bwith\b|\band\b|\bplus\b|\+|&|\|)\s*)?\b(?:free\s+(?:shipping|delivery|postage)|ships?\s+(?:for\s+)?free|(?:shipping|delivery)\s+is\s+free)\b(?:\s+(?:worldwide|included|today|on\s+(?:all|every)\s+orders?|to\s+your\s+door))*(?:\s*(?:,|\+|&|\band\b|\bplus\b|\|)(?=\s))?/gi;

/** Whether a line promises free shipping or delivery. */
export function promisesFreeShipping(text: string): boolean {
  return new RegExp(SHIPPING_CLAIM.source, "i").test(text);
}

/**
 * A line without its promise of free shipping (decision 085: only the seller can say their store ships free):
 * the clause that makes it ("with free shipping", "Free delivery +") or, when that is all a sentence says, the
 * sentence. "" when nothing is left.
 */
export function withoutShippingClaim(text: string): string {
  const sentences = squish(text).match(/\S.*?(?:[.!?]+(?=\s|$)|$)/g) ?? [];
  const kept = sentences
    .map((sentence) => {
      if (!promisesFreeShipping(sentence)) return sentence.trim();
      const end = /[.!?]*$/.exec(sentence)![0];
      const body = squish(sentence.slice(0, sentence.length - end.length).replace(SHIPPING_CLAIM, " ")).replace(/^[\s,;:+&|-]+|[\s,;:+&|-]+$/g, "");
      return /[A-Za-z0-9]/.test(body) ? `${body}${end}` : "";
    })
    .filter(Boolean);
  return kept.join(" ");
}

/** What the built-in writer knows about the product, as its lines use it. */
export interface AdWordsFacts {
  title: string;
  description: string;
  niches: string[];
  tags: string[];
  orders: number;
  storesSelling: number;
  priceCents: number;
  /** The kit's tone-of-voice text (free text; see adTone). */
  tone?: string | null;
  /** Hooks of TikToks the seller saved for this product: the first that fits opens the list. */
  savedHooks?: string[];
  /** The seller says their store ships this product free (the ad form's setting, off by default): only then may an ad say so. */
  freeShipping?: boolean;
}

interface Ctx {
  name: string;
  niche: string | null;
  price: string | null;
  orders: number;
  stores: number;
  benefit: string | null;
  gift: boolean;
}

type Line = (c: Ctx) => string | null;

const HOOKS: Record<AdTone, Line[]> = {
  neutral: [
    (c) => `Stop scrolling: meet the ${c.name}`,
    (c) => (c.niche ? `New in ${c.niche}: the ${c.name}` : null),
    (c) => `POV: you just found the ${c.name}`,
    (c) => `Wait until you see what the ${c.name} does`,
    (c) => (c.price ? `All this for $${c.price}?` : null),
  ],
  playful: [
    (c) => `Okay, the ${c.name} is kind of genius`,
    (c) => `Nobody told me I needed ${withArticle(c.name)}`,
    (c) => `Plot twist: the ${c.name}`,
  ],
  premium: [
    (c) => `Made to last: the ${c.name}`,
    (c) => `Quietly brilliant: the ${c.name}`,
    (c) => `Discover the ${c.name}`,
  ],
  calm: [
    (c) => `Slow down and meet the ${c.name}`,
    (c) => `Small change, big difference: the ${c.name}`,
    (c) => `Made for easier days: the ${c.name}`,
  ],
  bold: [
    (c) => `Stop scrolling. You need the ${c.name}`,
    (c) => `Drop everything: the ${c.name} is here`,
    () => `Read this before you buy another one`,
  ],
  friendly: [
    (c) => `Meet your new favourite find: the ${c.name}`,
    (c) => `Have you seen the ${c.name} yet?`,
    (c) => (c.niche ? `Your new ${c.niche} favourite: the ${c.name}` : null),
  ],
  expert: [
    (c) => `Here is what the ${c.name} does`,
    (c) => `3 things to know about the ${c.name}`,
    (c) => `How the ${c.name} works, in 15 seconds`,
  ],
};

/** Hooks on real figures only (30-day orders, stores selling) and facts (a gift tag); any tone. */
const FACT_HOOKS: Line[] = [
  (c) => (c.orders > 0 ? `${formatCount(c.orders)} orders in 30 days: here is why` : null),
  (c) => (c.orders === 0 && c.stores > 1 ? `Sold by ${formatCount(c.stores)} stores: see why` : null),
  (c) => (c.gift ? `The gift they will actually use` : null),
];

const PROBLEMS: Record<AdTone, Line[]> = {
  neutral: [
    (c) => (c.niche ? `Most products in ${c.niche} promise a lot and deliver little` : null),
    () => "Most products promise a lot and deliver little",
    () => "It looked great online. Then it arrived.",
  ],
  playful: [() => "We have all bought the one that broke in a week"],
  premium: [(c) => (c.niche ? `Most ${c.niche} products are made to be replaced` : null), () => "Most things are made to be replaced"],
  calm: [() => "Everyday things should not be hard work"],
  bold: [() => "Tired of products that do not deliver?"],
  friendly: [() => "We have all been there: it looked great online"],
  expert: [(c) => (c.niche ? `Most ${c.niche} products skip the details that matter` : null), () => "Most products skip the details that matter"],
};

const CTAS: Record<AdTone, (price: string) => string> = {
  neutral: (p) => `Get yours today for $${p}`,
  playful: (p) => `Treat yourself: $${p} today`,
  premium: (p) => `Discover it today for $${p}`,
  calm: (p) => `Yours today for $${p}`,
  bold: (p) => `Get it now for $${p}`,
  friendly: (p) => `Grab yours today for $${p}`,
  expert: (p) => `Order today: $${p}`,
};

const CTAS_NO_PRICE: Record<AdTone, string> = {
  neutral: "Get yours today",
  playful: "Treat yourself today",
  premium: "Discover it today",
  calm: "Make it yours today",
  bold: "Get it now",
  friendly: "Grab yours today",
  expert: "Order yours today",
};

/** A small stable number from the product's title: which of the lines it gets first. */
function seedOf(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h;
}

function rotate<T>(list: T[], by: number): T[] {
  if (list.length === 0) return list;
  const k = by % list.length;
  return [...list.slice(k), ...list.slice(0, k)];
}

function contextOf(f: AdWordsFacts): Ctx {
  const sentences = (squish(f.description).match(/[^.!?]+[.!?]*/g) ?? []).map(squish).filter(Boolean);
  const first = sentences[0]?.replace(/[.!?]+$/, "") ?? "";
  return {
    name: adShortName(f.title),
    niche: f.niches.map((n) => n.replace(/[-_]+/g, " ").trim()).find(Boolean) ?? null,
    price: f.priceCents > 0 ? centsToDecimal(f.priceCents) : null,
    orders: f.orders,
    stores: f.storesSelling,
    benefit: (f.freeShipping ? first : withoutShippingClaim(first)) ? shortenToFit(f.freeShipping ? first : withoutShippingClaim(first), 60) : null,
    gift: f.tags.some((t) => /gift/i.test(t)),
  };
}

function fitting(lines: (string | null)[], max: number): string[] {
  const out: string[] = [];
  for (const l of lines) {
    const t = l === null ? null : fixArticles(squish(l));
    if (t && t.length >= AD_LIMITS.textMin && t.length <= max && !out.some((o) => o.toLowerCase() === t.toLowerCase())) out.push(t);
  }
  return out;
}

/**
 * Three hooks to pick from, the first being the one the script opens with: a saved TikTok hook that fits
 * comes first; then the tone's own hooks and a real-figure hook, then the neutral ones; which come first is
 * varied by product, so two products in one niche do not open alike.
 */
export function adHookOptions(f: AdWordsFacts): string[] {
  const c = contextOf(f);
  const tone = adTone(f.tone);
  const seed = seedOf(f.title.toLowerCase());
  const hooks = (f.savedHooks ?? []).map((h) => (f.freeShipping ? h : withoutShippingClaim(h)));
  const saved = fitting(hooks.map((h) => shortenToFit(h, AD_LIMITS.textMax)), AD_LIMITS.textMax).slice(0, 1);
  const own = rotate(HOOKS[tone].map((l) => l(c)), seed);
  const facts = FACT_HOOKS.map((l) => l(c));
  const neutral = tone === "neutral" ? [] : rotate(HOOKS.neutral.map((l) => l(c)), seed >>> 3);
  const ordered = tone === "neutral" ? [...saved, own[0], ...facts, ...own.slice(1)] : [...saved, ...own.slice(0, 2), ...facts, ...own.slice(2), ...neutral];
  const out = fitting(ordered, AD_LIMITS.textMax);
  // The short name can make every template too long only in theory (it is at most 32 characters).
  return out.length >= 3 ? out.slice(0, 3) : [...out, ...fitting([`Meet the ${c.name}`, "You need to see this", "Stop scrolling"], AD_LIMITS.textMax)].slice(0, 3);
}

/** The problem scene in the kit's tone, varied by product. */
export function adProblemLine(f: AdWordsFacts): string {
  const c = contextOf(f);
  const tone = adTone(f.tone);
  const lines = fitting(rotate(PROBLEMS[tone].map((l) => l(c)), seedOf(f.title) >>> 5), AD_LIMITS.textMax);
  return lines[0] ?? "Most products promise a lot and deliver little";
}

/** The product scene: its name and its first benefit when both fit, else its name alone. */
export function adProductLine(f: AdWordsFacts): string {
  const c = contextOf(f);
  return fitting([c.benefit ? `Meet the ${c.name}: ${c.benefit}` : null, `Meet the ${c.name}`], AD_LIMITS.textMax)[0];
}

/**
 * The call to action in the kit's tone, with the price, and free shipping only when the seller said their store
 * ships it free (`freeShipping`): a supplier's "free shipping" tag says nothing about the seller's store.
 */
export function adCtaLine(f: AdWordsFacts): string {
  const c = contextOf(f);
  const tone = adTone(f.tone);
  const base = c.price ? CTAS[tone](c.price) : CTAS_NO_PRICE[tone];
  return fitting([f.freeShipping ? `${base} with free shipping` : null, base], AD_LIMITS.textMax)[0];
}
