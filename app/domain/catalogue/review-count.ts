// A listing's review count as its product page publishes it (issue 37 item 6, docs/decisions/094): schema.org
// `Product` structured data in `<script type="application/ld+json">` blocks, written by the theme and the common
// review apps (Judge.me, Yotpo, Loox, Okendo, Stamped), with `aggregateRating.reviewCount` (or `ratingCount` when
// no reviewCount is given). Real pages publish it as a number, as a string ("1,234", "1 234", "1.234"), inside
// `@graph`, in arrays, under a page's `mainEntity`, and sometimes as JSON a strict parser refuses (a trailing comma,
// a raw line break in a description). What is not a count is refused with a reason, never guessed at: a negative,
// a fraction, an abbreviation ("1.2k"), text, or a figure past REVIEW_COUNT_RULES.maxCount (no product has ten
// million reviews; a page saying so is broken). A page naming several products with different counts (a
// "you may also like" section) is read for the one whose URL names the listing's handle, else not at all.
// Pure: no I/O; the reader (app/integrations/storefront-reviews.server.ts) hands it the page's text.

export const REVIEW_COUNT_RULES = {
  /** A count above this is not believed (10^7). */
  maxCount: 10_000_000,
  /** JSON-LD blocks read per page, and characters read per block: a page cannot make the parser work without end. */
  maxBlocks: 50,
  maxBlockChars: 1_000_000,
  /** Nodes visited per block (nested @graph, arrays, mainEntity). */
  maxNodes: 5_000,
} as const;

export type ReviewCountSource = "reviewCount" | "ratingCount";

export type ReviewReading =
  /** The page publishes this count. */
  | { kind: "count"; count: number; source: ReviewCountSource }
  /** The page publishes no count (no structured data, no Product, no aggregateRating): "no review data". */
  | { kind: "none"; reason: string }
  /** The page publishes something that is not a count: kept out, with why. */
  | { kind: "invalid"; reason: string };

/** One published count, read: a whole number from 0 to maxCount, or why it is not one. */
export function parseReviewCount(value: unknown): { ok: true; count: number } | { ok: false; reason: string } {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return { ok: false, reason: "it is not a finite number" };
    return checked(value, String(value));
  }
  if (typeof value !== "string") return { ok: false, reason: value === null ? "it is empty (null)" : `it is not a number (${Array.isArray(value) ? "a list" : typeof value})` };
  const shown = value.length > 24 ? `${value.slice(0, 24)}...` : value;
  // Spaces of every kind (a thin or no-break space groups thousands in French and Swiss pages).
  const text = value.replace(/[\s\u00a0\u202f\u2009]+/g, " ").trim();
  if (text === "") return { ok: false, reason: "it is empty" };
  if (/^-\s*\d/.test(text)) return { ok: false, reason: `"${shown}" is negative` };
  if (/^\d+(?:\.\d+)?\s*[kKmM]\+?$/.test(text)) return { ok: false, reason: `"${shown}" is rounded (an abbreviation is not an exact count)` };
  // Plain digits, or digits grouped by threes with one kind of separator: "1234", "1,234", "1.234", "1 234", "1'234".
  const plain = /^\+?(\d{1,15})$/.exec(text);
  if (plain) return checked(Number(plain[1]), shown);
  const grouped = /^\+?(\d{1,3})((?:([,. '’])\d{3})(?:\3\d{3})*)$/.exec(text);
  if (grouped) return checked(Number(grouped[1] + grouped[2].replace(/\D/g, "")), shown);
  if (/^\+?\d+(?:[.,]0+)$/.test(text)) return checked(Number(text.replace(/^\+/, "").split(/[.,]/)[0]), shown);
  if (/^\+?\d*[.,]\d+$/.test(text)) return { ok: false, reason: `"${shown}" is a fraction, not a count` };
  return { ok: false, reason: `"${shown}" is not a number` };
}

function checked(n: number, shown: string): { ok: true; count: number } | { ok: false; reason: string } {
  if (n < 0) return { ok: false, reason: `${shown} is negative` };
  if (!Number.isInteger(n)) return { ok: false, reason: `${shown} is a fraction, not a count` };
  if (n > REVIEW_COUNT_RULES.maxCount) return { ok: false, reason: `${shown} is more reviews than any product has (over ${REVIEW_COUNT_RULES.maxCount.toLocaleString("en-US")})` };
  return { ok: true, count: n };
}

/** The text of every `<script type="application/ld+json">` block, in order (at most maxBlocks). */
export function jsonLdBlocks(html: string): string[] {
  const out: string[] = [];
  const lower = html.toLowerCase();
  let at = 0;
  while (out.length < REVIEW_COUNT_RULES.maxBlocks) {
    const open = lower.indexOf("<script", at);
    if (open < 0) break;
    const tagEnd = lower.indexOf(">", open);
    if (tagEnd < 0) break;
    const close = lower.indexOf("</script", tagEnd);
    const end = close < 0 ? html.length : close;
    const attributes = lower.slice(open + 7, tagEnd);
    if (/\btype\s*=\s*["']?\s*application\/ld\+json/.test(attributes) && close >= 0) {
      out.push(html.slice(tagEnd + 1, Math.min(end, tagEnd + 1 + REVIEW_COUNT_RULES.maxBlockChars)));
    }
    if (close < 0) break;
    at = close + 8;
  }
  return out;
}

/** JSON.parse, then once more after the usual slips of hand-written JSON-LD are mended; undefined when neither reads. */
export function parseJsonLd(text: string): unknown {
  const trimmed = text.trim().replace(/^<!--/, "").replace(/-->$/, "").replace(/^\/\/\s*<!\[CDATA\[/, "").replace(/\/\/\s*\]\]>$/, "").trim();
  try {
    return JSON.parse(trimmed);
  } catch {
    // Raw line breaks and tabs inside strings (a description pasted as is), and trailing commas.
    const mended = mendStrings(trimmed).replace(/,\s*([}\]])/g, "$1");
    try {
      return JSON.parse(mended);
    } catch {
      return undefined;
    }
  }
}

/** Control characters inside JSON strings become spaces (JSON forbids them raw; browsers' script parsers do not care). */
function mendStrings(text: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") {
        out += c + (text[i + 1] ?? "");
        i++;
        continue;
      }
      if (c === '"') inString = false;
      out += c.charCodeAt(0) < 0x20 ? " " : c;
      continue;
    }
    if (c === '"') inString = true;
    out += c;
  }
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function hasType(node: Record<string, unknown>, type: string): boolean {
  const t = node["@type"];
  const named = (x: unknown) => typeof x === "string" && x.replace(/^(?:https?:\/\/)?schema\.org\//i, "").toLowerCase() === type.toLowerCase();
  return Array.isArray(t) ? t.some(named) : named(t);
}

/** Every Product node of a parsed block: at the top, in arrays, in @graph, and under mainEntity / itemListElement. */
function productNodes(root: unknown): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const stack: unknown[] = [root];
  let visited = 0;
  while (stack.length > 0 && visited < REVIEW_COUNT_RULES.maxNodes) {
    const node = stack.pop();
    visited++;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push(node[i]);
      continue;
    }
    if (!isObject(node)) continue;
    if (hasType(node, "Product") || hasType(node, "ProductGroup")) out.push(node);
    for (const key of ["@graph", "mainEntity", "mainEntityOfPage", "itemListElement", "item"]) if (key in node) stack.push(node[key]);
  }
  return out;
}

/** The product's own count: aggregateRating (an object, or the first of a list) reviewCount, else ratingCount. */
function countOf(product: Record<string, unknown>): { found: false } | { found: true; parsed: ReturnType<typeof parseReviewCount>; source: ReviewCountSource } {
  const raw = product.aggregateRating;
  const ratings = (Array.isArray(raw) ? raw : [raw]).filter(isObject);
  for (const rating of ratings) {
    for (const source of ["reviewCount", "ratingCount"] as const) {
      const value = rating[source];
      if (value === undefined || value === "" || value === null) continue;
      return { found: true, parsed: parseReviewCount(Array.isArray(value) ? value[0] : value), source };
    }
  }
  return { found: false };
}

/** Whether a product node's url / @id / offers' url names this handle's page. */
function namesHandle(product: Record<string, unknown>, handle: string): boolean {
  const wanted = `/products/${handle.toLowerCase()}`;
  const urls: unknown[] = [product.url, product["@id"]];
  const offers = product.offers;
  for (const o of Array.isArray(offers) ? offers : [offers]) if (isObject(o)) urls.push(o.url);
  return urls.some((u) => {
    if (typeof u !== "string") return false;
    let path = u.toLowerCase().split(/[?#]/)[0];
    try {
      path = decodeURIComponent(path);
    } catch {
      // a malformed escape: compared as written
    }
    return path.endsWith(wanted) || path.includes(`${wanted}/`);
  });
}

/**
 * The review count a product page publishes for the listing `handle`. Every JSON-LD block is read; the Product nodes
 * with a count are gathered; the one naming the handle wins, else the only count there is (several products with
 * one count between them agree). A count that is not a count is "invalid" with its reason.
 */
export function readReviewCount(html: string, handle: string): ReviewReading {
  const blocks = jsonLdBlocks(html);
  if (blocks.length === 0) return { kind: "none", reason: "its page publishes no structured data (schema.org JSON-LD)" };
  let unreadable = 0;
  let products = 0;
  const counted: Array<{ named: boolean; parsed: ReturnType<typeof parseReviewCount>; source: ReviewCountSource }> = [];
  for (const block of blocks) {
    const parsed = parseJsonLd(block);
    if (parsed === undefined) {
      unreadable++;
      continue;
    }
    for (const product of productNodes(parsed)) {
      products++;
      const c = countOf(product);
      if (c.found) counted.push({ named: namesHandle(product, handle), parsed: c.parsed, source: c.source });
    }
  }
  if (counted.length === 0) {
    if (products > 0) return { kind: "none", reason: "its page's Product data has no review count (no aggregateRating)" };
    if (unreadable === blocks.length) return { kind: "none", reason: "its page's structured data could not be read as JSON" };
    return { kind: "none", reason: "its page's structured data names no Product" };
  }
  const named = counted.filter((c) => c.named);
  const pool = named.length > 0 ? named : counted;
  const valid = pool.filter((c): c is { named: boolean; parsed: { ok: true; count: number }; source: ReviewCountSource } => c.parsed.ok);
  const distinct = new Set(valid.map((c) => c.parsed.count));
  if (distinct.size > 1) {
    return {
      kind: "invalid",
      reason: named.length > 0 ? `its page gives this listing ${distinct.size} different review counts` : `its page names ${distinct.size} products with different review counts and none of them is this listing's page`,
    };
  }
  if (valid.length > 0) return { kind: "count", count: valid[0].parsed.count, source: valid[0].source };
  const first = pool[0].parsed as { ok: false; reason: string };
  return { kind: "invalid", reason: `its page's ${pool[0].source} is not a review count: ${first.reason}` };
}
