// What an uploaded SVG logo may contain before anything draws it (issue 21, docs/decisions/040 and 033).
// resvg's cost grows with what a small file can ask for: filter effects (turbulence, blurs) are whole-canvas
// pixel work per element, and every <use>, clip path, mask or pattern reference is a full copy of its target
// in resvg's tree, so copies of copies multiply (10^5 nodes from 1.4 KB). So the limits below are judged on
// the parsed document, counting the nodes resvg would build once every reference is expanded. The safety
// allow-list of decision 033 (no DOCTYPE, script, foreignObject, event handlers, outside references) is
// judged here too, on the parsed elements and attributes rather than the raw text. Pure: the caller parses
// (app/integrations/svg-parse.server.ts) and passes the tree; nothing here does I/O.

export const SVG_LOGO_LIMITS = {
  /** Elements in the file. */
  elements: 2000,
  /** Nodes resvg builds once each <use>, clip path, mask and pattern reference is expanded. */
  expandedElements: 2000,
  /** Elements inside elements (resvg walks the tree recursively). */
  depth: 32,
  /** <use> elements in the file. */
  uses: 200,
  /** Characters of text (shaped glyph by glyph). */
  textChars: 1000,
  /** Inline PNG/JPEG images drawn, copies counted (each is decoded when drawn). */
  images: 4,
  /** The largest width, height or viewBox number. */
  size: 100_000,
} as const;

/** One parsed element: its local name (prefix dropped) and attributes by local name. */
export interface SvgElement {
  name: string;
  attrs: Record<string, string>;
  children: SvgElement[];
  /** Text and CDATA directly inside (for <style>). */
  text: string;
}

const n = (v: number) => v.toLocaleString("en-US");

/** Elements that are never drawn: dangerous or unbounded in cost. Lower-case local names. */
const REFUSED: Record<string, string> = {
  script: "it contains a script",
  foreignobject: "it contains a foreignObject (HTML inside the SVG)",
  iframe: "it embeds other documents",
  embed: "it embeds other documents",
  object: "it embeds other documents",
  filter: "it uses filter effects (<filter>), which can take minutes to draw",
  marker: "it uses markers (shapes repeated at every point of a line), which multiply what is drawn",
};

/** Elements only drawn through a reference: counted once where they stand, in full where referenced. */
const NOT_DRAWN = new Set([
  "defs",
  "symbol",
  "clippath",
  "mask",
  "pattern",
  "lineargradient",
  "radialgradient",
  "style",
  "title",
  "desc",
  "metadata",
]);
/** Targets a url(#id) copies into the referring element's drawing (gradients are a shader: not copied). */
const COPIED_BY_URL = new Set(["clippath", "mask", "pattern"]);

const INLINE_REFERENCE = /^(#[^\s"']*|data:image\/(png|jpeg);base64,[A-Za-z0-9+/=\s]*)$/i;
const URL_FUNCTION = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*))\s*\)/gi;
const FILTER_PROPERTY = /(^|[;{\s])filter\s*:/i;

function urlsIn(value: string): string[] {
  return [...value.matchAll(URL_FUNCTION)].map((m) => (m[1] ?? m[2] ?? m[3] ?? "").trim());
}

function hrefOf(el: SvgElement): string | undefined {
  return el.attrs.href;
}

function walk(el: SvgElement, visit: (el: SvgElement) => void) {
  const stack = [el];
  while (stack.length) {
    const next = stack.pop()!;
    visit(next);
    for (let i = next.children.length - 1; i >= 0; i--) stack.push(next.children[i]);
  }
}

/** Why the outside references, styles and attributes are refused, or null. */
function safetyProblem(root: SvgElement): string | null {
  let problem: string | null = null;
  walk(root, (el) => {
    if (problem) return;
    const refused = REFUSED[el.name.toLowerCase()];
    if (refused) return void (problem = refused);
    if (el.name.toLowerCase().startsWith("fe")) return void (problem = `it uses filter effects (<${el.name}>), which can take minutes to draw`);
    for (const [name, value] of Object.entries(el.attrs)) {
      if (/^on/i.test(name)) return void (problem = "it has event handler attributes (onload, onclick, …)");
      if (name.toLowerCase() === "filter" || (name.toLowerCase() === "style" && FILTER_PROPERTY.test(value)))
        return void (problem = "it uses filter effects (a filter property), which can take minutes to draw");
      if (name === "href" && !INLINE_REFERENCE.test(value.trim()))
        return void (problem = `it refers to something outside the file (${value.trim().slice(0, 60) || "an empty link"})`);
      for (const url of urlsIn(value))
        if (!INLINE_REFERENCE.test(url)) return void (problem = `it refers to something outside the file (url(${url.slice(0, 60)}))`);
    }
    if (el.name.toLowerCase() === "style") {
      if (/@import/i.test(el.text)) return void (problem = "its style imports another file");
      if (FILTER_PROPERTY.test(el.text)) return void (problem = "it uses filter effects (a filter property), which can take minutes to draw");
      for (const url of urlsIn(el.text))
        if (!INLINE_REFERENCE.test(url)) return void (problem = `it refers to something outside the file (url(${url.slice(0, 60)}))`);
    }
  });
  return problem;
}

function sizeProblem(root: SvgElement): string | null {
  const numbers = [root.attrs.width, root.attrs.height, ...(root.attrs.viewBox ?? "").split(/[\s,]+/)]
    .filter((v): v is string => v !== undefined && v.trim() !== "")
    .map((v) => Number.parseFloat(v));
  if (numbers.some((v) => !Number.isFinite(v) || Math.abs(v) > SVG_LOGO_LIMITS.size))
    return `its width, height or viewBox is larger than ${n(SVG_LOGO_LIMITS.size)}`;
  return null;
}

interface Drawn {
  nodes: number;
  images: number;
  /** Whether a <use> is among the nodes (itself or inside, references followed). */
  hasUse: boolean;
}

/**
 * Counts what resvg would build: every drawn element, plus for each <use> and each url(#id) naming a clip path,
 * mask or pattern, a full copy of its target (whose own references count again). Refuses a reference cycle and a
 * <use> whose target holds a <use> (copies of copies), and stops counting past the limit.
 */
function expansionProblem(root: SvgElement): string | null {
  const ids = new Map<string, SvgElement>();
  let elements = 0;
  let uses = 0;
  let textChars = 0;
  walk(root, (el) => {
    elements++;
    if (el.attrs.id !== undefined && !ids.has(el.attrs.id)) ids.set(el.attrs.id, el);
    if (el.name === "use") uses++;
    if (["text", "tspan", "textPath"].includes(el.name)) textChars += el.text.trim().length;
  });
  const L = SVG_LOGO_LIMITS;
  if (elements > L.elements) return `it has ${n(elements)} elements; a logo may have at most ${n(L.elements)}`;
  if (uses > L.uses) return `it has ${n(uses)} <use> copies; a logo may have at most ${n(L.uses)}`;
  if (textChars > L.textChars) return `it has ${n(textChars)} characters of text; a logo may have at most ${n(L.textChars)}`;

  // A rule in a <style> element may apply to every element: its url(#id) copies count once per element.
  const styleUrls: string[] = [];
  walk(root, (el) => {
    if (el.name === "style") styleUrls.push(...urlsIn(el.text).filter((u) => u.startsWith("#")));
  });

  const memo = new Map<SvgElement, Drawn>();
  const inProgress = new Set<SvgElement>();
  let problem: string | null = null;

  const target = (ref: string) => ids.get(ref.slice(1));

  /** What drawing `el` builds; `referenced` when reached through a reference (then its content is drawn). */
  function drawn(el: SvgElement, referenced: boolean): Drawn {
    const name = el.name.toLowerCase();
    if (!referenced && NOT_DRAWN.has(name)) return { nodes: 1, images: 0, hasUse: false };
    const cached = referenced ? memo.get(el) : undefined;
    if (cached) return cached;
    if (inProgress.has(el)) {
      problem ??= "an element refers to itself (through <use> or url(#…)), directly or through others";
      return { nodes: Infinity, images: 0, hasUse: true };
    }
    inProgress.add(el);
    const out: Drawn = { nodes: 1, images: name === "image" ? 1 : 0, hasUse: name === "use" };
    const add = (d: Drawn) => {
      out.nodes += d.nodes;
      out.images += d.images;
      out.hasUse ||= d.hasUse;
    };
    for (const child of el.children) {
      add(drawn(child, false));
      if (problem || out.nodes > L.expandedElements) break;
    }
    if (name === "use") {
      const href = hrefOf(el);
      const t = href?.startsWith("#") ? target(href) : undefined;
      if (t) {
        const copy = drawn(t, true);
        if (copy.hasUse) problem ??= "a <use> copies something that itself contains a <use> (copies of copies multiply)";
        add(copy);
      }
    }
    for (const [attr, value] of Object.entries(el.attrs)) {
      if (attr === "href" || attr === "id") continue;
      for (const url of urlsIn(value)) {
        const t = url.startsWith("#") ? target(url) : undefined;
        if (t && COPIED_BY_URL.has(t.name.toLowerCase())) add(drawn(t, true));
      }
    }
    inProgress.delete(el);
    if (referenced) memo.set(el, out);
    return out;
  }

  const total = drawn(root, false);
  for (const url of styleUrls) {
    const t = target(url);
    if (t && COPIED_BY_URL.has(t.name.toLowerCase())) {
      const copy = drawn(t, true);
      total.nodes += copy.nodes * elements;
      total.images += copy.images * elements;
    }
  }
  if (problem) return problem;
  if (total.nodes > L.expandedElements)
    return `once its copies (<use>, clip paths, masks, patterns) are counted it draws more than ${n(L.expandedElements)} elements, the most a logo may draw`;
  if (total.images > L.images) return `it draws ${n(total.images)} embedded images, copies counted; a logo may draw at most ${L.images}`;
  return null;
}

/**
 * Why this parsed SVG is refused as a logo, or null. The sentence completes "This SVG cannot be used as a
 * logo: …". The parser refuses DOCTYPEs, entities, too many elements and deep nesting while it reads.
 */
export function svgLogoProblem(root: SvgElement): string | null {
  if (root.name !== "svg") return "its outermost element is not <svg>";
  return safetyProblem(root) ?? sizeProblem(root) ?? expansionProblem(root);
}

/** The inline images (data: URIs) an SVG draws, for the caller to check their pixel size. */
export function inlineImages(root: SvgElement): string[] {
  const out: string[] = [];
  walk(root, (el) => {
    const href = el.name === "image" ? hrefOf(el)?.trim() : undefined;
    if (href?.startsWith("data:")) out.push(href);
  });
  return out;
}
