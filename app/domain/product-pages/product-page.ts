// Product pages (seed product_pages): the pure rules. What a page may hold (lengths, prices in whole
// cents above the landed cost), how a price is suggested from cost, how copy becomes safe HTML, and
// which images Shopify can fetch. No I/O; shared by the service, the routes and the browser preview.
// Descriptions are written in Markdown (docs/decisions/029): description-markdown.ts renders them.
import { escapeHtml } from "~/domain/html-escape";
import {
  DESCRIPTION_MARKDOWN_MAX,
  escapeLineStart,
  escapeMarkdownText,
  normaliseMarkdown,
  renderDescriptionMarkdown,
} from "~/domain/product-pages/description-markdown";

export const PRODUCT_PAGE_STATUSES = ["draft", "pushing", "pushed", "failed"] as const;
export type ProductPageStatus = (typeof PRODUCT_PAGE_STATUSES)[number];

/** The writer label of the embedded default (shown in the UI when no AI endpoint is configured). */
export const BUILT_IN_WRITER = "built-in writer";

export const PAGE_LIMITS = {
  /** Shopify's product title limit is 255; shorter titles read better, the writer aims for <= 80. */
  titleMax: 255,
  titleTarget: 80,
  /** Search engines show about 70 characters of a title and 160 of a description. */
  seoTitleMax: 70,
  seoDescriptionMax: 160,
  bulletsMin: 1,
  bulletsMax: 8,
  bulletMax: 200,
  /** The description as HTML, after sanitising. */
  descriptionHtmlMax: 20_000,
  /** Prices a person can type; above this is a typo, not a product. */
  priceMaxCents: 10_000_000,
} as const;

/** The margin the suggested price aims for: 60% of the price is left after cost, shipping, duty and fees. */
export const DEFAULT_TARGET_MARGIN_BPS = 6000;

// ---- Prices -----------------------------------------------------------------------------------------

/** The smallest price ending in .99 that is >= cents (1234 -> 1299, 1299 -> 1299, 1300 -> 1399). */
export function roundUpToNinetyNine(cents: number): number {
  if (!Number.isFinite(cents) || cents <= 99) return 99;
  return Math.ceil((cents + 1) / 100) * 100 - 1;
}

export interface PriceSuggestion {
  priceCents: number;
  /** What one sale costs: product cost, shipping, duty and the payment fees at this price. */
  landedCostCents: number;
  /** The margin the rounded price really gives, in basis points of the price. */
  marginBps: number;
  targetMarginBps: number;
}

/**
 * A selling price from the landed cost and a target margin, rounded up to .99, so the margin left after cost,
 * shipping, duty and the payment fees (a percentage of the price plus a fixed part; issue 24) is never below the
 * target: price x (1 - margin - fee rate) >= cost + shipping + duty + fixed fee. Always above the landed cost.
 */
export function suggestPrice(input: {
  costCents: number;
  shippingCents: number;
  /** Duty on one order (app/domain/landed-cost/landed-cost.ts); none when not given. */
  dutyCents?: number;
  /** The payment fees on the price; none when not given. */
  fees?: { rateBp: number; fixedCents: number };
  targetMarginBps?: number;
}): PriceSuggestion {
  const { costCents, shippingCents } = input;
  const dutyCents = input.dutyCents ?? 0;
  const fees = input.fees ?? { rateBp: 0, fixedCents: 0 };
  const target = input.targetMarginBps ?? DEFAULT_TARGET_MARGIN_BPS;
  for (const [name, v] of [
    ["costCents", costCents],
    ["shippingCents", shippingCents],
    ["dutyCents", dutyCents],
    ["fees.fixedCents", fees.fixedCents],
  ] as const) {
    if (!Number.isSafeInteger(v) || v < 0)
      throw new RangeError(`${name} must be a whole number of cents >= 0, got ${v}`);
  }
  if (!Number.isInteger(fees.rateBp) || fees.rateBp < 0 || fees.rateBp > 2000) {
    throw new RangeError(`fees.rateBp must be a whole number from 0 to 2000, got ${fees.rateBp}`);
  }
  if (!Number.isInteger(target) || target < 0 || target > 9500 - fees.rateBp) {
    throw new RangeError(`targetMarginBps must be a whole number from 0 to ${9500 - fees.rateBp}, got ${target}`);
  }
  // Each fee's percentage rounded half up to the cent, as app/domain/landed-cost/landed-cost.ts rounds it.
  const landedAt = (price: number) => costCents + shippingCents + dutyCents + Math.floor((price * fees.rateBp + 5000) / 10_000) + fees.fixedCents;
  const fixed = costCents + shippingCents + dutyCents + fees.fixedCents;
  // Integer arithmetic: ceil(fixed * 10000 / (10000 - target - fee rate)).
  const raw = Math.ceil((fixed * 10_000) / (10_000 - target - fees.rateBp));
  let price = roundUpToNinetyNine(Math.max(raw, fixed + 1));
  // The fee's rounding to the cent can leave the margin a hair short: the next .99 then.
  while (price <= landedAt(price) || (price - landedAt(price)) * 10_000 < target * price) price = roundUpToNinetyNine(price + 1);
  const landed = landedAt(price);
  return {
    priceCents: price,
    landedCostCents: landed,
    marginBps: Math.round(((price - landed) * 10_000) / price),
    targetMarginBps: target,
  };
}

/** "24.99" from 2499: Shopify's Money scalar is a decimal string. */
export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** "24.99", "24.9", "24", "$1,024.50" -> cents; null when it is not an amount with at most 2 decimals. */
export function parseDollarsToCents(text: string): number | null {
  const cleaned = text.trim().replace(/^\$/, "").replace(/,/g, "");
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(cleaned);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? "0").padEnd(2, "0"));
}

// ---- Text ------------------------------------------------------------------------------------------

export { escapeHtml };

/** Collapses whitespace (including newlines) to single spaces and trims. */
export function squish(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * Cuts text to at most max characters at a word boundary, with "…" when something was cut. Never
 * longer than max, and never cuts inside a word unless the first word alone is too long.
 */
export function truncateAtWord(text: string, max: number): string {
  const t = squish(text);
  if (t.length <= max) return t;
  const room = max - 1; // for the ellipsis
  let cut = t.slice(0, room + 1);
  const lastSpace = cut.lastIndexOf(" ");
  cut = lastSpace > room / 2 ? cut.slice(0, lastSpace) : t.slice(0, room);
  return `${cut.replace(/[\s,;:.\-–—|/]+$/, "")}…`;
}

/** Marketplace noise sellers strip from supplier titles. */
const TITLE_NOISE = [
  /\b(?:19|20)\d{2}\s+(?:new|newest|upgraded?)\b/gi,
  /\b(?:hot\s+sale|best\s+seller|free\s+shipping|dropshipping|wholesale|high\s+quality|brand\s+new|new\s+arrival)\b/gi,
  /[【[(](?:new|hot|sale|free shipping|\d+\s*pcs?)[】\])]/gi,
  /[!]{1,}/g,
];

const SMALL_WORDS = new Set([
  "a",
  "an",
  "and",
  "as",
  "at",
  "but",
  "by",
  "for",
  "in",
  "of",
  "on",
  "or",
  "the",
  "to",
  "with",
]);

/**
 * A clean product title: marketplace noise removed, whitespace and stray punctuation tidied, shouting
 * turned into title case, cut at a word to the target length.
 */
export function cleanTitle(title: string, max: number = PAGE_LIMITS.titleTarget): string {
  let t = title;
  for (const pattern of TITLE_NOISE) t = t.replace(pattern, " ");
  t = squish(t)
    .replace(/\s+([,.;:])/g, "$1")
    .replace(/([,;:])(?=\S)/g, "$1 ")
    .replace(/^[\s,;:.\-–—|/]+|[\s,;:\-–—|/]+$/g, "");
  const letters = t.replace(/[^A-Za-z]/g, "");
  if (letters.length > 3 && letters === letters.toUpperCase()) {
    t = t
      .toLowerCase()
      .split(" ")
      .map((w, i) => (i > 0 && SMALL_WORDS.has(w) ? w : w.charAt(0).toUpperCase() + w.slice(1)))
      .join(" ");
  } else if (t.length > 0) {
    t = t.charAt(0).toUpperCase() + t.slice(1);
  }
  return truncateAtWord(t || "Untitled product", max);
}

/** The first sentence(s) of a text that fit in max characters, or the text cut at a word. */
export function summarize(text: string, max: number): string {
  const t = squish(text);
  if (t.length <= max) return t;
  const sentences = t.match(/[^.!?]+[.!?]+(?:\s|$)/g) ?? [];
  let out = "";
  for (const s of sentences) {
    const next = squish(out + " " + s);
    if (next.length > max) break;
    out = next;
  }
  return out || truncateAtWord(t, max);
}

// ---- HTML ------------------------------------------------------------------------------------------

/** The only tags a description may contain, all without attributes. */
export const ALLOWED_TAGS = ["p", "ul", "li", "strong", "em", "br", "h2", "h3"] as const;
const ALLOWED = new Set<string>(ALLOWED_TAGS);
/** b and i are read as strong and em. */
const ALIASES: Record<string, string> = { b: "strong", i: "em" };
/** Tags whose content is dropped with them (code, not text). */
const DROP_CONTENT = new Set([
  "script",
  "style",
  "iframe",
  "object",
  "embed",
  "template",
  "noscript",
  "textarea",
  "select",
  "svg",
  "math",
  "head",
  "title",
]);
const BLOCK_TAGS = new Set(["p", "ul", "h2", "h3"]);

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  rsquo: "’",
  lsquo: "‘",
  rdquo: "”",
  ldquo: "“",
  copy: "©",
  reg: "®",
  trade: "™",
};

/** Decodes character references, so text can be escaped exactly once on the way out. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z][a-z0-9]{1,31});/gi, (whole, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return "\ufffd";
      return String.fromCodePoint(code);
    }
    return NAMED_ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

/**
 * Makes any HTML (a model's answer, a merchant's edit) safe to store, show and send to Shopify: only
 * p, ul, li, strong, em, br, h2, h3 survive, with no attributes; scripts, styles and comments vanish
 * with their content; every other tag is removed and its text kept; text is escaped; the result is
 * always balanced (unclosed tags are closed, stray closing tags dropped).
 */
export function sanitizeHtml(html: string): string {
  const out: string[] = [];
  const stack: string[] = [];
  let i = 0;
  let dropUntil: string | null = null;
  const text = (s: string) => {
    if (dropUntil || s === "") return;
    out.push(escapeHtml(decodeEntities(s)));
  };
  const close = (name: string) => {
    const at = stack.lastIndexOf(name);
    if (at < 0) return;
    while (stack.length > at) out.push(`</${stack.pop()}>`);
  };
  while (i < html.length) {
    const lt = html.indexOf("<", i);
    if (lt < 0) {
      text(html.slice(i));
      break;
    }
    text(html.slice(i, lt));
    if (html.startsWith("<!--", lt)) {
      const end = html.indexOf("-->", lt + 4);
      i = end < 0 ? html.length : end + 3;
      continue;
    }
    const m = /^<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/.exec(html.slice(lt));
    if (!m) {
      if (/^<[!?]/.test(html.slice(lt))) {
        // <!DOCTYPE ...>, <?xml ...?>: markup declarations, never text.
        const end = html.indexOf(">", lt);
        i = end < 0 ? html.length : end + 1;
        continue;
      }
      // A lone "<" (e.g. "3 < 5") is text.
      text("<");
      i = lt + 1;
      continue;
    }
    i = lt + m[0].length;
    const closing = m[1] === "/";
    const raw = m[2].toLowerCase();
    if (dropUntil) {
      if (closing && raw === dropUntil) dropUntil = null;
      continue;
    }
    if (DROP_CONTENT.has(raw)) {
      if (!closing && !/\/\s*$/.test(m[3])) dropUntil = raw;
      continue;
    }
    const name = ALIASES[raw] ?? raw;
    if (!ALLOWED.has(name)) {
      // Block-level wrappers we drop still separate words.
      if (/^(div|section|article|header|footer|blockquote|tr|td|th|table|ol|h1|h4|h5|h6)$/.test(raw)) out.push(" ");
      continue;
    }
    if (name === "br") {
      if (!closing) out.push("<br>");
      continue;
    }
    if (closing) {
      close(name);
      continue;
    }
    if (name === "li") {
      // A list item belongs in a list: close an open item first, open a list when none is open.
      if (stack.includes("li") && stack.lastIndexOf("li") > stack.lastIndexOf("ul")) close("li");
      if (!stack.includes("ul")) {
        out.push("<ul>");
        stack.push("ul");
      }
    } else if (BLOCK_TAGS.has(name)) {
      // Blocks do not nest inside paragraphs or headings.
      for (const t of ["p", "h2", "h3"]) close(t);
    }
    out.push(`<${name}>`);
    stack.push(name);
  }
  while (stack.length > 0) out.push(`</${stack.pop()}>`);
  return out
    .join("")
    .replace(/<(p|h2|h3|li|strong|em|ul)>\s*<\/\1>/g, "")
    .replace(/ {2,}/g, " ")
    .trim();
}

/** Plain text of sanitized HTML (for lengths and search snippets). */
export function htmlToText(html: string): string {
  return squish(
    decodeEntities(
      html
        .replace(/<br>/g, " ")
        .replace(/<\/(p|li|h2|h3)>/g, " ")
        .replace(/<[^>]*>/g, ""),
    ),
  );
}

/** Paragraphs of plain text as safe HTML. */
export function paragraphsToHtml(paragraphs: string[]): string {
  return paragraphs
    .map(squish)
    .filter(Boolean)
    .map((p) => `<p>${escapeHtml(p)}</p>`)
    .join("");
}

/** The bullet benefits as an escaped list ("" without any). */
function bulletListHtml(bullets: string[]): string {
  const list = bullets.map(squish).filter(Boolean);
  return list.length > 0 ? `<ul>${list.map((b) => `<li>${escapeHtml(b)}</li>`).join("")}</ul>` : "";
}

/** An HTML description (sanitised first), then the bullet benefits as a list. */
export function composeDescriptionHtml(descriptionHtml: string, bullets: string[]): string {
  return sanitizeHtml(descriptionHtml) + bulletListHtml(bullets);
}

/**
 * What Shopify receives as descriptionHtml (and the editor's preview shows): the Markdown description
 * rendered by the safe renderer, then the bullet benefits as a list.
 */
export function composeProductBodyHtml(descriptionMarkdown: string, bullets: string[]): string {
  return renderDescriptionMarkdown(descriptionMarkdown) + bulletListHtml(bullets);
}

type HtmlNode = string | { tag: string; children: HtmlNode[] };

/** Sanitised HTML as a tree (sanitizeHtml's output is balanced and has no attributes). */
function parseSanitized(html: string): HtmlNode[] {
  const root: HtmlNode[] = [];
  const stack: { tag: string; children: HtmlNode[] }[] = [];
  const here = () => (stack.length > 0 ? stack[stack.length - 1].children : root);
  for (const part of html.split(/(<\/?(?:p|ul|li|strong|em|br|h2|h3)>)/)) {
    const tag = /^<(\/?)([a-z0-9]+)>$/.exec(part);
    if (!tag) {
      if (part !== "") here().push(decodeEntities(part));
    } else if (tag[2] === "br") {
      here().push({ tag: "br", children: [] });
    } else if (tag[1] === "/") {
      stack.pop();
    } else {
      const node = { tag: tag[2], children: [] };
      here().push(node);
      stack.push(node);
    }
  }
  return root;
}

/** Inline HTML nodes as Markdown; `lineBreak` is what a <br> becomes. */
function inlineMarkdown(nodes: HtmlNode[], lineBreak: string): string {
  // <em>a</em><em>b</em> is one emphasis: written as two, "*a**b*" would not read back.
  const merged: HtmlNode[] = [];
  for (const node of nodes) {
    const last = merged[merged.length - 1];
    if (typeof node !== "string" && typeof last !== "string" && last && last.tag === node.tag && node.tag !== "br") {
      merged[merged.length - 1] = { tag: node.tag, children: [...last.children, ...node.children] };
    } else merged.push(node);
  }
  return merged
    .map((node) => {
      if (typeof node === "string") return escapeMarkdownText(node.replace(/\s+/g, " "));
      if (node.tag === "br") return lineBreak;
      const inner = inlineMarkdown(node.children, lineBreak);
      if (node.tag !== "strong" && node.tag !== "em") return inner;
      const core = inner.trim();
      if (core === "") return inner;
      // Markers hug the words: "** x**" would not be emphasis.
      const marker = node.tag === "strong" ? "**" : "*";
      const lead = /^\s*/.exec(inner)![0];
      const trail = /\s*$/.exec(inner)![0];
      return `${lead}${marker}${core}${marker}${trail}`;
    })
    .join("");
}

/**
 * An HTML description (pages written before descriptions were Markdown, the AI writer's answer, the JSON
 * API's descriptionHtml) as Markdown that renders back to the same text: sanitised first, then p -> a
 * paragraph, h2/h3 -> ## / ###, ul/li -> "- " items, strong/em -> ** / *, br -> a line break, text escaped.
 */
export function descriptionHtmlToMarkdown(html: string): string {
  const blocks: string[] = [];
  let loose: HtmlNode[] = [];
  const paragraph = (nodes: HtmlNode[]) => {
    const text = inlineMarkdown(nodes, "\n")
      .split("\n")
      .map((line) => escapeLineStart(line.trim()))
      .join("\n")
      .trim();
    if (text !== "") blocks.push(text);
  };
  const endLoose = () => {
    if (loose.length > 0) paragraph(loose);
    loose = [];
  };
  for (const node of parseSanitized(sanitizeHtml(html))) {
    if (typeof node === "string" || !["p", "h2", "h3", "ul"].includes(node.tag)) {
      loose.push(node);
      continue;
    }
    endLoose();
    if (node.tag === "p") paragraph(node.children);
    else if (node.tag === "ul") {
      const items = node.children
        .map((li) => (typeof li === "string" ? escapeMarkdownText(li) : inlineMarkdown(li.children, " ")).trim())
        .filter((item) => item !== "")
        .map((item) => `- ${item}`);
      if (items.length > 0) blocks.push(items.join("\n"));
    } else {
      // A heading's trailing " #" would read as its closing sequence: escaped.
      const text = inlineMarkdown(node.children, " ").trim().replace(/(^|\s)(#+)$/, "$1\\$2");
      if (text !== "") blocks.push(`${node.tag === "h2" ? "##" : "###"} ${text}`);
    }
  }
  endLoose();
  return normaliseMarkdown(blocks.join("\n\n"));
}

// ---- Validation of a page (as generated or edited) ------------------------------------------------

export interface PageContent {
  title: string;
  /** With descriptionMarkdown: derived from it (rendered). Without: HTML, sanitised. */
  descriptionHtml: string;
  /** The description as the seller writes it (docs/decisions/029); validated and rendered when given. */
  descriptionMarkdown?: string;
  bullets: string[];
  seoTitle: string;
  seoDescription: string;
  priceCents: number;
  compareAtPriceCents: number | null;
}

export type PageField = keyof PageContent;
export type PageErrors = Partial<Record<PageField, string>>;

function dollars(cents: number): string {
  return `$${centsToDecimal(cents)}`;
}

/**
 * Normalises (trims, sanitises HTML, drops empty bullets) and checks a page. Prices are whole cents;
 * the price must be above the landed cost (product cost + shipping); a compare-at price, when set,
 * must be above the price.
 */
export function validatePage(
  input: PageContent,
  landedCostCents: number,
): { ok: true; page: PageContent } | { ok: false; errors: PageErrors } {
  const L = PAGE_LIMITS;
  const errors: PageErrors = {};
  const title = squish(input.title);
  const seoTitle = squish(input.seoTitle);
  const seoDescription = squish(input.seoDescription);
  const descriptionMarkdown =
    input.descriptionMarkdown === undefined ? undefined : normaliseMarkdown(input.descriptionMarkdown);
  const descriptionHtml =
    descriptionMarkdown === undefined
      ? sanitizeHtml(input.descriptionHtml)
      : renderDescriptionMarkdown(descriptionMarkdown);
  const bullets = input.bullets.map(squish).filter(Boolean);

  if (title.length === 0) errors.title = "Enter a title.";
  else if (title.length > L.titleMax)
    errors.title = `Keep the title to ${L.titleMax} characters (it has ${title.length}).`;
  if (descriptionMarkdown !== undefined) {
    if (htmlToText(descriptionHtml).length === 0) errors.descriptionMarkdown = "Write a description.";
    else if (descriptionMarkdown.length > DESCRIPTION_MARKDOWN_MAX) {
      errors.descriptionMarkdown = `Keep the description to ${DESCRIPTION_MARKDOWN_MAX.toLocaleString("en-US")} characters (it has ${descriptionMarkdown.length.toLocaleString("en-US")}).`;
    }
  } else if (htmlToText(descriptionHtml).length === 0) errors.descriptionHtml = "Write a description.";
  else if (descriptionHtml.length > L.descriptionHtmlMax) {
    errors.descriptionHtml = `Keep the description under ${L.descriptionHtmlMax.toLocaleString("en-US")} characters of HTML.`;
  }
  if (bullets.length < L.bulletsMin) errors.bullets = "Add at least one benefit.";
  else if (bullets.length > L.bulletsMax)
    errors.bullets = `Use at most ${L.bulletsMax} benefits (there are ${bullets.length}).`;
  else {
    const long = bullets.findIndex((b) => b.length > L.bulletMax);
    if (long >= 0) errors.bullets = `Benefit ${long + 1} is longer than ${L.bulletMax} characters.`;
  }
  if (seoTitle.length === 0) errors.seoTitle = "Enter an SEO title.";
  else if (seoTitle.length > L.seoTitleMax)
    errors.seoTitle = `Keep the SEO title to ${L.seoTitleMax} characters (it has ${seoTitle.length}).`;
  if (seoDescription.length === 0) errors.seoDescription = "Enter an SEO description.";
  else if (seoDescription.length > L.seoDescriptionMax) {
    errors.seoDescription = `Keep the SEO description to ${L.seoDescriptionMax} characters (it has ${seoDescription.length}).`;
  }
  const price = input.priceCents;
  if (!Number.isSafeInteger(price) || price <= 0)
    errors.priceCents = "The price must be a whole number of cents above 0.";
  else if (price > L.priceMaxCents) errors.priceCents = `The price must be at most ${dollars(L.priceMaxCents)}.`;
  else if (price <= landedCostCents) {
    errors.priceCents = `The price must be more than the product's cost plus shipping (${dollars(landedCostCents)}).`;
  }
  const compareAt = input.compareAtPriceCents;
  if (compareAt !== null) {
    if (!Number.isSafeInteger(compareAt) || compareAt <= 0)
      errors.compareAtPriceCents = "The compare-at price must be a whole number of cents above 0.";
    else if (compareAt > L.priceMaxCents)
      errors.compareAtPriceCents = `The compare-at price must be at most ${dollars(L.priceMaxCents)}.`;
    else if (Number.isSafeInteger(price) && compareAt <= price) {
      errors.compareAtPriceCents = "The compare-at price must be higher than the price (or leave it empty).";
    }
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    page: {
      title,
      descriptionHtml,
      ...(descriptionMarkdown === undefined ? {} : { descriptionMarkdown }),
      bullets,
      seoTitle,
      seoDescription,
      priceCents: price,
      compareAtPriceCents: compareAt,
    },
  };
}

// ---- Images Shopify can fetch -----------------------------------------------------------------------

export interface MediaPlan {
  /** Absolute URLs Shopify will download. */
  send: string[];
  skipped: { image: string; reason: string }[];
}

const PRIVATE_HOST =
  /^(localhost|.*\.localhost|.*\.local|.*\.test|.*\.internal|.*\.invalid|.*\.example|0\.0\.0\.0|127\.\d+\.\d+\.\d+|10\.\d+\.\d+\.\d+|192\.168\.\d+\.\d+|172\.(1[6-9]|2\d|3[01])\.\d+\.\d+|169\.254\.\d+\.\d+|\[.*\])$/i;

/**
 * Which of a product's images can go to Shopify as media: Shopify downloads each file from its URL,
 * so it must be absolute, https, on a public host, and a format Shopify accepts (not SVG). Local
 * paths (/product-images/...) are made absolute with the app's public URL.
 */
export function planMedia(images: string[], publicUrl: string | null, max = 10): MediaPlan {
  const plan: MediaPlan = { send: [], skipped: [] };
  for (const image of images) {
    let url: URL;
    try {
      url =
        image.startsWith("/") && !image.startsWith("//")
          ? new URL(image, publicUrl ?? "http://invalid.invalid")
          : new URL(image);
    } catch {
      plan.skipped.push({ image, reason: "not a valid URL" });
      continue;
    }
    if (image.startsWith("/") && !publicUrl) {
      // Seller-readable: the missing setting is named in the log (createProductPages), not here.
      plan.skipped.push({ image, reason: "this site has no public URL yet, so Shopify cannot download images kept here" });
    } else if (url.protocol !== "https:") {
      plan.skipped.push({ image, reason: "Shopify only downloads images over https" });
    } else if (PRIVATE_HOST.test(url.hostname)) {
      plan.skipped.push({ image, reason: `${url.hostname} is not reachable from the internet` });
    } else if (/\.svg$/i.test(url.pathname)) {
      plan.skipped.push({ image, reason: "Shopify does not accept SVG product images" });
    } else if (plan.send.length >= max) {
      plan.skipped.push({ image, reason: `only the first ${max} images are sent` });
    } else {
      plan.send.push(url.toString());
    }
  }
  return plan;
}

/** The Shopify admin page of a product: gid://shopify/Product/123 -> https://admin.shopify.com/store/x/products/123. */
export function shopifyAdminProductUrl(shop: string, productGid: string): string | null {
  const id = /^gid:\/\/shopify\/Product\/(\d+)$/.exec(productGid)?.[1];
  if (!id) return null;
  const store = shop.replace(/\.myshopify\.com$/i, "");
  return `https://admin.shopify.com/store/${encodeURIComponent(store)}/products/${id}`;
}
