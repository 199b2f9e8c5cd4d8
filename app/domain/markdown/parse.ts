// The one Markdown parser (decision 099). Both writers walk what it returns: the HTML writer for product
// descriptions pushed to Shopify (domain/product-pages/description-markdown.ts) and the React renderer of
// lesson bodies (ui/shared/markdown.tsx). Like markdown-it, it reads in two passes: parseMarkdown splits
// the text into blocks whose `text` is the block's inline source, and parseInline (./inline) turns that
// source into a tree of text, emphasis, code, links and line breaks.
// What it reads, in both writers alike (CommonMark's rules, a small subset):
//   ATX headings "#" to "######" (closing "#"s dropped; an empty heading is dropped), paragraphs,
//   "- ", "* ", "+ " lists and "1. " / "1) " lists (a line indented two spaces or a tab continues an item),
//   and, where the dialect takes them, "> " block quotes.
// A dialect says what a writer accepts beyond that: block quotes and `code` spans, and whether a line break
// inside a paragraph is kept (descriptions: a <br>) or read as a space (CommonMark's soft break).
// Pure: shared by the server and the browser.

export type MarkdownDialect = {
  /** "> " lines are a quote block; without it they are text. */
  quotes: boolean;
  /** `code` spans; without it backticks are text. */
  code: boolean;
  /** A line break inside a paragraph is kept as a break (true) or read as a space (false). */
  hardBreaks: boolean;
};

/** Lesson bodies and anything written for the product's own pages: every construct, soft line breaks. */
export const FULL_MARKDOWN: MarkdownDialect = { quotes: true, code: true, hardBreaks: false };

export type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6;

/** A block; `text` (and each list item) is inline Markdown for parseInline. */
export type MarkdownBlock =
  | { type: "heading"; level: HeadingLevel; text: string }
  | { type: "paragraph"; text: string }
  | { type: "list"; ordered: boolean; items: string[] }
  | { type: "quote"; text: string };

/** Line endings unified, trailing spaces of each line and blank lines at both ends removed. */
export function normaliseMarkdown(source: string): string {
  return source
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.replace(/[ \t]+$/, ""))
    .join("\n")
    .replace(/^\n+|\n+$/g, "");
}

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const BULLET = /^ {0,3}[-*+][ \t]+(.*)$/;
const NUMBERED = /^ {0,3}\d{1,9}[.)][ \t]+(.*)$/;
const CONTINUATION = /^(?: {2,}|\t)\S/;
const QUOTE = /^ {0,3}>[ \t]?(.*)$/;

/** Splits Markdown into blocks (see the header for what is read). */
export function parseMarkdown(source: string, dialect: MarkdownDialect = FULL_MARKDOWN): MarkdownBlock[] {
  const lines = normaliseMarkdown(source).split("\n");
  const isQuote = (line: string) => dialect.quotes && QUOTE.test(line);
  const startsBlock = (line: string) => HEADING.test(line) || BULLET.test(line) || NUMBERED.test(line) || isQuote(line);
  const blocks: MarkdownBlock[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.trim() === "") {
      i++;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const text = (heading[2] ?? "").trim();
      if (text !== "") blocks.push({ type: "heading", level: heading[1].length as HeadingLevel, text });
      i++;
      continue;
    }
    const pattern = BULLET.test(line) ? BULLET : NUMBERED.test(line) ? NUMBERED : null;
    if (pattern) {
      const items: string[] = [];
      while (i < lines.length) {
        const item = pattern.exec(lines[i]);
        if (item) items.push(item[1].trim());
        else if (items.length > 0 && CONTINUATION.test(lines[i])) items[items.length - 1] += ` ${lines[i].trim()}`;
        else break;
        i++;
      }
      blocks.push({ type: "list", ordered: pattern === NUMBERED, items });
      continue;
    }
    if (isQuote(line)) {
      const parts: string[] = [];
      while (i < lines.length && isQuote(lines[i])) {
        parts.push(QUOTE.exec(lines[i])![1].trim());
        i++;
      }
      blocks.push({ type: "quote", text: parts.join(dialect.hardBreaks ? "\n" : " ") });
      continue;
    }
    const parts: string[] = [];
    while (i < lines.length && lines[i].trim() !== "" && (parts.length === 0 || !startsBlock(lines[i]))) {
      parts.push(lines[i].trim());
      i++;
    }
    // Emphasis may span the lines of a paragraph, so they are one inline text.
    blocks.push({ type: "paragraph", text: parts.join(dialect.hardBreaks ? "\n" : " ") });
  }
  return blocks;
}

/** Headings in both writers: the page's title is its only h1, so "#" and "##" are h2, deeper ones h3. */
export function headingTag(level: HeadingLevel): "h2" | "h3" {
  return level <= 2 ? "h2" : "h3";
}
