// The one Markdown parser (decision 099) feeds both writers: the product description's HTML (what Shopify
// receives) and the lessons' React renderer. On the Markdown both accept (no quotes or code spans, which
// only lessons read; http(s) links, which both link) they give the same structure: the same headings, at
// the same levels, paragraphs, lists, emphasis and links, around the same text. A line break inside a
// paragraph is the one intended difference: a <br> in a description, a space in a lesson.
import { AppProvider } from "@shopify/polaris";
import enTranslations from "@shopify/polaris/locales/en.json";
import fc from "fast-check";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { renderDescriptionMarkdown } from "~/domain/product-pages/description-markdown";
import { Markdown } from "~/ui/shared/markdown";

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&#x27;": "'" };

/** The structure of some HTML: only the tags both writers mean (no attributes but a link's href), text decoded. */
function structure(html: string): string {
  return html
    .replace(/<br\s*\/?>/g, " ")
    .replace(/<(\/?)([a-z0-9]+)([^>]*)>/g, (_, slash: string, tag: string, attributes: string) => {
      if (!/^(h[1-6]|p|ul|ol|li|strong|em|a|code|blockquote)$/.test(tag)) return "";
      const href = tag === "a" && !slash ? / href="([^"]*)"/.exec(attributes) : null;
      return `<${slash}${tag}${href ? ` href="${href[1]}"` : ""}>`;
    })
    .replace(/&(?:amp|lt|gt|quot|#39|#x27);/g, (e) => ENTITIES[e]);
}

const description = (source: string) => structure(renderDescriptionMarkdown(source));
const lesson = (source: string) =>
  structure(renderToStaticMarkup(createElement(AppProvider, { i18n: enTranslations }, createElement(Markdown, { source }))));

describe("the description's HTML and the lesson renderer read Markdown alike", () => {
  it("headings: # to ###### are headings in both, # and ## an h2, deeper an h3; ####### is text", () => {
    const source = "# One\n## Two\n### Three\n#### Four\n##### Five ##\n###### Six\n####### Seven\n#hashtag";
    const expected =
      "<h2>One</h2><h2>Two</h2><h3>Three</h3><h3>Four</h3><h3>Five</h3><h3>Six</h3><p>####### Seven #hashtag</p>";
    expect(description(source)).toBe(expected);
    expect(lesson(source)).toBe(expected);
  });

  it("a document with every construct both read gives the same structure", () => {
    const source = [
      "## Why dogs love it",
      "",
      "Brush **less**, cuddle *more* and _often_. See the [care guide](https://example.com/care?a=1&b=2).",
      "Escaped \\*stars\\* & <b>tags</b> stay text; snake_case_name too.",
      "",
      "- Soft **pins**",
      "+ Cleans in *one* click",
      "  and more",
      "",
      "1. Open",
      "2) Brush ***hard***",
      "",
      "[not a link](javascript:alert(1))",
    ].join("\n");
    const html = description(source);
    expect(html).toBe(
      "<h2>Why dogs love it</h2>" +
        '<p>Brush <strong>less</strong>, cuddle <em>more</em> and <em>often</em>. See the <a href="https://example.com/care?a=1&b=2">care guide</a>. ' +
        "Escaped *stars* & <b>tags</b> stay text; snake_case_name too.</p>" +
        "<ul><li>Soft <strong>pins</strong></li><li>Cleans in <em>one</em> click and more</li></ul>" +
        "<ol><li>Open</li><li>Brush <em><strong>hard</strong></em></li></ol>" +
        "<p>not a link</p>",
    );
    expect(lesson(source)).toBe(html);
  });

  it("agree on whatever is typed from Markdown's pieces", () => {
    const pieces = fc.constantFrom(
      "*", "**", "***", "_", "__", "[", "]", "(", ")", "](", "](https://e.com)", "](javascript:x)", "\\", "#", "## ",
      "#### ", "###### ", "- ", "+ ", "* ", "1. ", "2) ", "\n", "\n\n", "\n  ", " ", "<", "&", '"', "'", "word", "x", "é",
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 40 }), (parts) => {
        const source = parts.join("");
        expect(lesson(source), JSON.stringify(source)).toBe(description(source));
      }),
      { numRuns: 1500 },
    );
  });
});
