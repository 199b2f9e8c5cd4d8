// Inline Markdown as a tree (decision 099): text, **strong** / __strong__, *em* / _em_ (paired and nested
// by CommonMark's delimiter rules), `code` (where the dialect takes it), [label](target) links (a label
// holds no other link; the target is kept as written, each writer decides which targets it links) and
// line breaks. A backslash escapes ASCII punctuation. Nothing here is HTML: the writers escape text.
import type { MarkdownDialect } from "~/domain/markdown/parse";

export type MarkdownInline =
  | { type: "text"; text: string }
  | { type: "break" }
  | { type: "code"; text: string }
  | { type: "strong" | "em"; children: MarkdownInline[] }
  | { type: "link"; href: string; children: MarkdownInline[] };

type Delimiter = {
  type: "delim";
  char: "*" | "_";
  /** Characters of the run not (yet) used as emphasis. */
  count: number;
  /** The run's length as written (CommonMark's "rule of 3" reads it). */
  length: number;
  canOpen: boolean;
  canClose: boolean;
  active: boolean;
  /** Tags this run opens (outermost first) and closes (innermost first). */
  opens: Array<"strong" | "em">;
  closes: Array<"strong" | "em">;
};

type Token = MarkdownInline | Delimiter;

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
const PUNCTUATION = /[\p{P}\p{S}]/u;

function isSpace(c: string | undefined): boolean {
  return c === undefined || /\s/u.test(c);
}

function isPunctuation(c: string | undefined): boolean {
  return c !== undefined && PUNCTUATION.test(c);
}

function unescapeBackslashes(text: string): string {
  return text.replace(/\\([!-/:-@[-`{-~])/g, "$1");
}

/** "[label](target)" at `start`: its end and node, or null when the text there is not a link. */
function matchLink(src: string, start: number, dialect: MarkdownDialect): { end: number; node: MarkdownInline } | null {
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
  const target = /^\(\s*((?:[^\s()\\]|\\[!-/:-@[-`{-~]|\([^\s()]*\))*)\s*\)/.exec(src.slice(i + 1));
  if (!target) return null;
  return {
    end: i + 1 + target[0].length,
    node: { type: "link", href: unescapeBackslashes(target[1]), children: parseInlineAt(src.slice(start + 1, i), dialect, 1) },
  };
}

/** A code span at `start` (a run of backticks closed by a run of the same length), or null. */
function matchCode(src: string, start: number): { end: number; node: MarkdownInline } | null {
  let open = start;
  while (src[open] === "`") open++;
  const ticks = open - start;
  for (let i = open; i < src.length; ) {
    if (src[i] !== "`") {
      i++;
      continue;
    }
    let close = i;
    while (src[close] === "`") close++;
    if (close - i === ticks) return { end: close, node: { type: "code", text: src.slice(open, i).replace(/\n/g, " ") } };
    i = close;
  }
  return null;
}

/** A run of "*" or "_" at `i`, with CommonMark's flanking rules deciding whether it can open or close. */
function delimiterRun(src: string, i: number): Delimiter {
  const c = src[i] as "*" | "_";
  let end = i;
  while (end < src.length && src[end] === c) end++;
  const before = i > 0 ? src[i - 1] : undefined;
  const after = src[end];
  const leftFlanking = !isSpace(after) && (!isPunctuation(after) || isSpace(before) || isPunctuation(before));
  const rightFlanking = !isSpace(before) && (!isPunctuation(before) || isSpace(after) || isPunctuation(after));
  const canOpen = c === "*" ? leftFlanking : leftFlanking && (!rightFlanking || isPunctuation(before));
  const canClose = c === "*" ? rightFlanking : rightFlanking && (!leftFlanking || isPunctuation(after));
  const count = end - i;
  return { type: "delim", char: c, count, length: count, canOpen, canClose, active: true, opens: [], closes: [] };
}

function tokenize(src: string, dialect: MarkdownDialect, depth: number): Token[] {
  const tokens: Token[] = [];
  let text = "";
  const flush = () => {
    if (text !== "") tokens.push({ type: "text", text });
    text = "";
  };
  const push = (token: Token) => {
    flush();
    tokens.push(token);
  };
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === "\\" && i + 1 < src.length && ASCII_PUNCTUATION.test(src[i + 1])) {
      text += src[i + 1];
      i += 2;
      continue;
    }
    const span = c === "`" && dialect.code ? matchCode(src, i) : c === "[" && depth === 0 ? matchLink(src, i, dialect) : null;
    if (span) {
      push(span.node);
      i = span.end;
      continue;
    }
    if (c === "`" && dialect.code) {
      // An unclosed run of backticks is text, all of it.
      let end = i;
      while (src[end] === "`") end++;
      text += src.slice(i, end);
      i = end;
      continue;
    }
    if (c === "*" || c === "_") {
      const run = delimiterRun(src, i);
      push(run);
      i += run.length;
      continue;
    }
    if (c === "\n") {
      push({ type: "break" });
      i++;
      continue;
    }
    text += c;
    i++;
  }
  flush();
  return tokens;
}

/** Pairs delimiter runs into strong/em the way CommonMark does (closers from left to right). */
function pairEmphasis(tokens: Token[]): void {
  // Where the search for an opener may stop, per kind of closer (CommonMark's openers_bottom).
  const bottom = new Map<string, number>();
  for (let c = 0; c < tokens.length; c++) {
    const closer = tokens[c];
    if (closer.type !== "delim" || !closer.canClose) continue;
    const kindKey = `${closer.char}${closer.canOpen ? 1 : 0}${closer.length % 3}`;
    while (closer.active && closer.count > 0) {
      let found = -1;
      for (let o = c - 1; o > (bottom.get(kindKey) ?? -1); o--) {
        const opener = tokens[o];
        if (opener.type !== "delim" || !opener.active || !opener.canOpen || opener.count === 0) continue;
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
      const opener = tokens[found] as Delimiter;
      const use = opener.count >= 2 && closer.count >= 2 ? 2 : 1;
      const tag = use === 2 ? "strong" : "em";
      opener.count -= use;
      closer.count -= use;
      opener.opens.unshift(tag);
      closer.closes.push(tag);
      for (let k = found + 1; k < c; k++) {
        const between = tokens[k];
        if (between.type === "delim") between.active = false;
      }
    }
  }
}

/** The paired tokens as a tree: a delimiter closes its tags, leaves its unused characters as text, opens. */
function buildTree(tokens: Token[]): MarkdownInline[] {
  const root: MarkdownInline[] = [];
  const stack: MarkdownInline[][] = [root];
  const top = () => stack[stack.length - 1];
  const addText = (text: string) => {
    const siblings = top();
    const last = siblings[siblings.length - 1];
    if (last?.type === "text") last.text += text;
    else siblings.push({ type: "text", text });
  };
  for (const token of tokens) {
    if (token.type === "text") addText(token.text);
    else if (token.type !== "delim") top().push(token);
    else {
      for (let k = 0; k < token.closes.length; k++) stack.pop();
      if (token.count > 0) addText(token.char.repeat(token.count));
      for (const tag of token.opens) {
        const node: MarkdownInline = { type: tag, children: [] };
        top().push(node);
        stack.push(node.children);
      }
    }
  }
  return root;
}

function parseInlineAt(src: string, dialect: MarkdownDialect, depth: number): MarkdownInline[] {
  const tokens = tokenize(src, dialect, depth);
  pairEmphasis(tokens);
  return buildTree(tokens);
}

/** Inline Markdown (a block's text) as a tree. */
export function parseInline(src: string, dialect: MarkdownDialect): MarkdownInline[] {
  return parseInlineAt(src, dialect, 0);
}
