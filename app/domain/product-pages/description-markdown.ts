// A product page's description is written in Markdown (docs/decisions/029) and rendered here to the HTML
// Shopify receives as descriptionHtml and the editor's preview shows. A small, safe subset:
//   # / ## heading -> <h2>, ### (and deeper) -> <h3>; paragraphs (a line break inside one -> <br>);
//   "- ", "* ", "+ " lists -> <ul>, "1. " lists -> <ol>; **bold** / __bold__, *italic* / _italic_ (nested
//   as CommonMark nests them); [text](https://...) links, http(s) only; a backslash escapes punctuation.
// Everything else is text: every character of it is escaped, so raw HTML (<script>, <img onerror>) shows
// as the characters typed and never as markup; a link to javascript:, data:, a relative path or anything
// but http(s) keeps its text and loses the link. The output is always balanced and uses only the tags
// p, h2, h3, ul, ol, li, strong, em, br and a (with an href attribute and nothing else).
// It parses with the one Markdown parser (domain/markdown, decision 099), which the lesson renderer
// (ui/shared/markdown.tsx) walks too, and writes that tree as HTML.
// Pure: shared by the service (what is stored and pushed) and the browser (the live preview).
import { escapeHtml } from "~/domain/html-escape";
import { parseInline, type MarkdownInline } from "~/domain/markdown/inline";
import { headingTag, parseMarkdown, type MarkdownDialect } from "~/domain/markdown/parse";

export { normaliseMarkdown } from "~/domain/markdown/parse";

/** The longest description a seller may write, in characters of Markdown. */
export const DESCRIPTION_MARKDOWN_MAX = 10_000;

// ---- Writing HTML from the one parser's tree (domain/markdown, decision 099) ------------------------

/** What descriptions accept: no quotes or code (Shopify gets only the tags above), line breaks kept. */
export const DESCRIPTION_MARKDOWN: MarkdownDialect = { quotes: false, code: false, hardBreaks: true };

/** Renders description Markdown to safe HTML (see the header for what is understood). */
export function renderDescriptionMarkdown(source: string): string {
  return parseMarkdown(source, DESCRIPTION_MARKDOWN)
    .map((block) => {
      switch (block.type) {
        case "heading": {
          const tag = headingTag(block.level);
          return `<${tag}>${renderInline(block.text)}</${tag}>`;
        }
        case "list": {
          const tag = block.ordered ? "ol" : "ul";
          return `<${tag}>${block.items.map((item) => `<li>${renderInline(item)}</li>`).join("")}</${tag}>`;
        }
        default:
          // Quotes are not read in this dialect; were one given, it is a paragraph.
          return `<p>${renderInline(block.text)}</p>`;
      }
    })
    .join("");
}

/** Links go only to http(s) addresses a browser can parse; anything else is refused. */
export function safeLinkHref(url: string): string | null {
  if (!/^https?:\/\/[^\s<>"'`\\]+$/i.test(url) || !URL.canParse(url)) return null;
  const parsed = new URL(url);
  if ((parsed.protocol !== "http:" && parsed.protocol !== "https:") || parsed.hostname === "") return null;
  return url;
}

function inlineHtml(nodes: MarkdownInline[]): string {
  return nodes
    .map((node) => {
      switch (node.type) {
        case "text":
          return escapeHtml(node.text);
        case "break":
          return "<br>";
        case "code":
          return escapeHtml(node.text);
        case "link": {
          const href = safeLinkHref(node.href);
          const inner = inlineHtml(node.children);
          return href ? `<a href="${escapeHtml(href)}">${inner}</a>` : inner;
        }
        default:
          return `<${node.type}>${inlineHtml(node.children)}</${node.type}>`;
      }
    })
    .join("");
}

/** Inline Markdown to safe HTML. */
export function renderInline(src: string): string {
  return inlineHtml(parseInline(src, DESCRIPTION_MARKDOWN));
}

// ---- Writing Markdown ------------------------------------------------------------------------------

/**
 * Text made safe to place in Markdown: the characters Markdown reads as formatting are escaped with a
 * backslash, so the text renders back exactly as it was. Used to convert older HTML descriptions.
 */
export function escapeMarkdownText(text: string): string {
  return text.replace(/[\\*_[\]`]/g, (c) => `\\${c}`);
}

/** Escapes what would start a heading or a list at the beginning of a line. */
export function escapeLineStart(line: string): string {
  return line.replace(/^(\s*)([#+-])(?=\s|$)/, "$1\\$2").replace(/^(\s*)(\d{1,9})([.)])(?=\s|$)/, "$1$2\\$3");
}
