// Reads an uploaded SVG into the small element tree the logo limits judge (app/domain/ai-ads/svg-logo-limits.ts,
// docs/decisions/040), with saxes: a strict, namespace-aware XML parser that never expands DTD entities.
// Names are local names (a prefix bound to the SVG or XLink namespace cannot hide a <use> or an href), and
// reading stops at once on a DOCTYPE, past the element limit or past the nesting limit, so a hostile file
// never becomes a large tree here either.
import { SaxesParser } from "saxes";
import { SVG_LOGO_LIMITS, type SvgElement } from "~/domain/ai-ads/svg-logo-limits";

class Refused extends Error {}

/** The parsed document, or the reason it is refused (completing "This SVG cannot be used as a logo: …"). */
export function parseSvgLogo(text: string): { root: SvgElement } | { problem: string } {
  const L = SVG_LOGO_LIMITS;
  const parser = new SaxesParser({ xmlns: true, position: true });
  const stack: SvgElement[] = [];
  let root: SvgElement | null = null;
  let elements = 0;
  parser.on("doctype", () => {
    throw new Refused("it declares a DOCTYPE or entities");
  });
  parser.on("opentag", (tag) => {
    elements++;
    if (elements > L.elements) throw new Refused(`it has more than ${L.elements.toLocaleString("en-US")} elements, the most a logo may have`);
    if (stack.length >= L.depth) throw new Refused(`its elements are nested more than ${L.depth} deep, the most a logo may have`);
    const attrs: Record<string, string> = {};
    for (const a of Object.values(tag.attributes)) {
      if (a.prefix === "xmlns" || a.name === "xmlns") continue;
      if (a.local in attrs && attrs[a.local] !== a.value) throw new Refused(`it gives one element two different ${a.local} attributes`);
      attrs[a.local] = a.value;
    }
    const el: SvgElement = { name: tag.local, attrs, children: [], text: "" };
    if (stack.length) stack[stack.length - 1].children.push(el);
    else root = el;
    stack.push(el);
  });
  parser.on("closetag", () => {
    stack.pop();
  });
  const addText = (t: string) => {
    if (stack.length) stack[stack.length - 1].text += t;
  };
  parser.on("text", addText);
  parser.on("cdata", addText);
  try {
    parser.write(text).close();
  } catch (error) {
    if (error instanceof Refused) return { problem: error.message };
    // saxes' own message ("file:1:2: disallowed character."), cut to its first line.
    return { problem: `it is not well-formed XML (${(error as Error).message.split("\n")[0].slice(0, 120)})` };
  }
  if (!root) return { problem: "it has no elements" };
  return { root };
}
