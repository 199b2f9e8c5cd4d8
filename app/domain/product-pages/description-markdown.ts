// A product page's description is written in Markdown (docs/decisions/029) and rendered here to the HTML
// Shopify receives as descriptionHtml and the editor's preview shows. A small, safe subset:
//   # / ## heading -> <h2>, ### (and deeper) -> <h3>; paragraphs (a line break inside one -> <br>);
//   "- ", "* ", "+ " lists -> <ul>, "1. " lists -> <ol>; **bold** / __bold__, *italic* / _italic_ (nested
//   as CommonMark nests them); [text](https://...) links, http(s) only; a backslash escapes punctuation.
// Everything else is text: every character of it is escaped, so raw HTML (<script>, <img onerror>) shows
// as the characters typed and never as markup; a link to javascript:, data:, a relative path or anything
// but http(s) keeps its text and loses the link. The output is always balanced and uses only the tags
// p, h2, h3, ul, ol, li, strong, em, br and a (with an href attribute and nothing else).
// Pure: shared by the service (what is stored and pushed) and the browser (the live preview).
import { escapeHtml } from "~/domain/html-escape";

/** The longest description a seller may write, in characters of Markdown. */
export const DESCRIPTION_MARKDOWN_MAX = 10_000;

/** Line endings unified, trailing spaces of each line and blank lines at both ends removed. */
export function normaliseMarkdown(source: string): string {
  return source
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.replace(/[ \t]+$/, ""))
    .join("\n")
    .replace(/^\n+|\n+$/g, "");
}

// ---- Blocks ----------------------------------------------------------------------------------------

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const BULLET = /^ {0,3}[-*+][ \t]+(.*)$/;
const NUMBERED = /^ {0,3}\d{1,9}[.)][ \t]+(.*)$/;
const CONTINUATION = /^(?: {2,}|\t)\S/;

function startsBlock(line: string): boolean {
  return HEADING.test(line) || BULLET.test(line) || NUMBERED.test(line);
}

/** Renders description Markdown to safe HTML (see the header for what is understood). */
export function renderDescriptionMarkdown(source: string): string {
  const lines = normaliseMarkdown(source).split("\n");
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.trim() === "") {
      i++;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const text = renderInline((heading[2] ?? "").trim());
      const tag = heading[1].length <= 2 ? "h2" : "h3";
      if (text !== "") out.push(`<${tag}>${text}</${tag}>`);
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
      const tag = pattern === BULLET ? "ul" : "ol";
      out.push(`<${tag}>${items.map((item) => `<li>${renderInline(item)}</li>`).join("")}</${tag}>`);
      continue;
    }
    const parts: string[] = [];
    while (i < lines.length && lines[i].trim() !== "" && (parts.length === 0 || !startsBlock(lines[i]))) {
      parts.push(lines[i].trim());
      i++;
    }
    // Emphasis may span the lines of a paragraph, so the lines are read as one text with "\n" kept.
    out.push(`<p>${renderInline(parts.join("\n")).replace(/\n/g, "<br>")}</p>`);
  }
  return out.join("");
}

// ---- Inline: text, escapes, links, emphasis -------------------------------------------------------

type Delimiter = {
  kind: "delim";
  char: "*" | "_";
  /** Characters of the run not (yet) used as emphasis. */
  count: number;
  /** The run's length as written (CommonMark's "rule of 3" reads it). */
  length: number;
  canOpen: boolean;
  canClose: boolean;
  active: boolean;
  /** Tags this run opens (outermost first) and closes (innermost first). */
  opens: string[];
  closes: string[];
};

type Inline = { kind: "text"; text: string } | { kind: "html"; html: string } | Delimiter;

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
const PUNCTUATION = /[\p{P}\p{S}]/u;

function isSpace(c: string | undefined): boolean {
  return c === undefined || /\s/u.test(c);
}

function isPunctuation(c: string | undefined): boolean {
  return c !== undefined && PUNCTUATION.test(c);
}

/** Links go only to http(s) addresses a browser can parse; anything else is refused. */
export function safeLinkHref(url: string): string | null {
  if (!/^https?:\/\/[^\s<>"'`\\]+$/i.test(url) || !URL.canParse(url)) return null;
  const parsed = new URL(url);
  if ((parsed.protocol !== "http:" && parsed.protocol !== "https:") || parsed.hostname === "") return null;
  return url;
}

function unescapeBackslashes(text: string): string {
  return text.replace(/\\([!-/:-@[-`{-~])/g, "$1");
}

/** "[label](url)" at `start`: its end and HTML, or null when the text there is not a link. */
function matchLink(src: string, start: number, depth: number): { end: number; html: string } | null {
  let level = 0;
  let i = start;
  for (; i < src.length; i++) {
    const c = src[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === "[") level++;
    else if (c === "]" && --level === 0) break;
  }
  if (i >= src.length || src[i + 1] !== "(") return null;
  const label = src.slice(start + 1, i);
  const target = /^\(\s*((?:[^\s()\\]|\\[!-/:-@[-`{-~]|\([^\s()]*\))*)\s*\)/.exec(src.slice(i + 1));
  if (!target) return null;
  const inner = renderInline(label, depth + 1);
  const href = safeLinkHref(unescapeBackslashes(target[1]));
  return {
    end: i + 1 + target[0].length,
    html: href ? `<a href="${escapeHtml(href)}">${inner}</a>` : inner,
  };
}

function tokenize(src: string, depth: number): Inline[] {
  const nodes: Inline[] = [];
  let text = "";
  const flush = () => {
    if (text !== "") nodes.push({ kind: "text", text });
    text = "";
  };
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === "\\" && i + 1 < src.length && ASCII_PUNCTUATION.test(src[i + 1])) {
      text += src[i + 1];
      i += 2;
      continue;
    }
    // A link's label holds no other link.
    if (c === "[" && depth === 0) {
      const link = matchLink(src, i, depth);
      if (link) {
        flush();
        nodes.push({ kind: "html", html: link.html });
        i = link.end;
        continue;
      }
    }
    if (c === "*" || c === "_") {
      let end = i;
      while (end < src.length && src[end] === c) end++;
      const before = i > 0 ? src[i - 1] : undefined;
      const after = src[end];
      // CommonMark's flanking rules decide whether a run can open or close emphasis.
      const leftFlanking = !isSpace(after) && (!isPunctuation(after) || isSpace(before) || isPunctuation(before));
      const rightFlanking = !isSpace(before) && (!isPunctuation(before) || isSpace(after) || isPunctuation(after));
      const canOpen = c === "*" ? leftFlanking : leftFlanking && (!rightFlanking || isPunctuation(before));
      const canClose = c === "*" ? rightFlanking : rightFlanking && (!leftFlanking || isPunctuation(after));
      flush();
      nodes.push({
        kind: "delim",
        char: c,
        count: end - i,
        length: end - i,
        canOpen,
        canClose,
        active: true,
        opens: [],
        closes: [],
      });
      i = end;
      continue;
    }
    text += c;
    i++;
  }
  flush();
  return nodes;
}

/** Pairs delimiter runs into <strong>/<em> the way CommonMark does (closers from left to right). */
function pairEmphasis(nodes: Inline[]): void {
  // Where the search for an opener may stop, per kind of closer (CommonMark's openers_bottom).
  const bottom = new Map<string, number>();
  for (let c = 0; c < nodes.length; c++) {
    const closer = nodes[c];
    if (closer.kind !== "delim" || !closer.canClose) continue;
    const kindKey = `${closer.char}${closer.canOpen ? 1 : 0}${closer.length % 3}`;
    while (closer.active && closer.count > 0) {
      let found = -1;
      for (let o = c - 1; o > (bottom.get(kindKey) ?? -1); o--) {
        const opener = nodes[o];
        if (opener.kind !== "delim" || !opener.active || !opener.canOpen || opener.count === 0) continue;
        if (opener.char !== closer.char) continue;
        const oddMatch =
          (opener.canClose || closer.canOpen) &&
          (opener.length + closer.length) % 3 === 0 &&
          !(opener.length % 3 === 0 && closer.length % 3 === 0);
        if (oddMatch) continue;
        found = o;
        break;
      }
      if (found < 0) {
        bottom.set(kindKey, c - 1);
        break;
      }
      const opener = nodes[found] as Delimiter;
      const use = opener.count >= 2 && closer.count >= 2 ? 2 : 1;
      const tag = use === 2 ? "strong" : "em";
      opener.count -= use;
      closer.count -= use;
      opener.opens.unshift(tag);
      closer.closes.push(tag);
      for (let k = found + 1; k < c; k++) {
        const between = nodes[k];
        if (between.kind === "delim") between.active = false;
      }
    }
  }
}

/** Inline Markdown to safe HTML; `depth` > 0 inside a link's label. */
export function renderInline(src: string, depth = 0): string {
  const nodes = tokenize(src, depth);
  pairEmphasis(nodes);
  return nodes
    .map((node) => {
      if (node.kind === "text") return escapeHtml(node.text);
      if (node.kind === "html") return node.html;
      return (
        node.closes.map((t) => `</${t}>`).join("") +
        escapeHtml(node.char.repeat(node.count)) +
        node.opens.map((t) => `<${t}>`).join("")
      );
    })
    .join("");
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
