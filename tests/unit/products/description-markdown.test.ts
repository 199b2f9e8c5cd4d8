// The product description's Markdown renderer (docs/decisions/029): what a seller types becomes the HTML
// Shopify receives, with every character of text escaped, only p, h2, h3, ul, ol, li, strong, em, br and
// http(s) links, always balanced; older HTML descriptions convert to Markdown that renders back to the
// same text; the editor's toolbar writes the Markdown.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { renderDescriptionMarkdown as render, safeLinkHref } from "~/domain/product-pages/description-markdown";
import {
  composeDescriptionHtml,
  composeProductBodyHtml,
  descriptionHtmlToMarkdown,
  htmlToText,
  sanitizeHtml,
  validatePage,
} from "~/domain/product-pages/product-page";
import { applyMarkdownFormat } from "~/ui/shared/markdown-editor";

/** Every tag of the output is allowed, and they nest properly. */
function assertSafeAndBalanced(html: string) {
  const stack: string[] = [];
  for (const m of html.matchAll(/<[^>]*>/g)) {
    const tag = m[0];
    const allowed = /^<(\/?)(p|h2|h3|ul|ol|li|strong|em|a)>$|^<br>$|^<a href="https?:\/\/[^"<>\s]+">$/.exec(tag);
    expect(allowed, `unexpected tag ${tag} in ${html}`).not.toBeNull();
    if (tag === "<br>") continue;
    const name = /^<\/?([a-z0-9]+)/.exec(tag)![1];
    if (tag.startsWith("</")) expect(stack.pop(), `unbalanced ${tag} in ${html}`).toBe(name);
    else stack.push(name);
  }
  expect(stack).toEqual([]);
  // No "<" outside a tag, so nothing the browser could read as markup.
  expect(html.replace(/<[^>]*>/g, "")).not.toMatch(/[<>]/);
}

describe("renderDescriptionMarkdown", () => {
  it("escapes script tags and raw HTML: shown as typed, never markup", () => {
    expect(render("<script>alert(1)</script>")).toBe("<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>");
    expect(render('<img src=x onerror="alert(1)"> & "quotes"')).toBe(
      "<p>&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &quot;quotes&quot;</p>",
    );
    expect(render("**<b>bold</b>**")).toBe("<p><strong>&lt;b&gt;bold&lt;/b&gt;</strong></p>");
  });

  it("links only to http(s): javascript:, data:, relative and odd targets keep their text only", () => {
    expect(render("[our guide](https://example.com/guide?a=1&b=2)")).toBe(
      '<p><a href="https://example.com/guide?a=1&amp;b=2">our guide</a></p>',
    );
    expect(render("[site](http://example.com)")).toBe('<p><a href="http://example.com">site</a></p>');
    for (const target of [
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      "java\\script:alert(1)",
      "data:text/html;base64,PHNjcmlwdD4=",
      "vbscript:msgbox(1)",
      "/admin",
      "//evil.example",
      "https://",
      'https://x.com/"onmouseover="alert(1)',
    ]) {
      const html = render(`[click](${target})`);
      expect(html, target).not.toContain("<a");
      expect(html, target).toContain("click");
      expect(html.toLowerCase(), target).not.toContain('href');
    }
    expect(safeLinkHref("https://example.com/a")).toBe("https://example.com/a");
    expect(safeLinkHref("javascript:alert(1)")).toBeNull();
  });

  it("nests emphasis as CommonMark does", () => {
    expect(render("**bold** and *italic* and _also_ and __strong__")).toBe(
      "<p><strong>bold</strong> and <em>italic</em> and <em>also</em> and <strong>strong</strong></p>",
    );
    expect(render("**bold *and italic***")).toBe("<p><strong>bold <em>and italic</em></strong></p>");
    expect(render("*italic **and bold** inside*")).toBe("<p><em>italic <strong>and bold</strong> inside</em></p>");
    expect(render("***both***")).toBe("<p><em><strong>both</strong></em></p>");
    expect(render("[**bold link**](https://e.com)")).toBe('<p><a href="https://e.com"><strong>bold link</strong></a></p>');
    // Not emphasis: unclosed markers, spaces inside, snake_case words, escaped stars.
    expect(render("**not closed")).toBe("<p>**not closed</p>");
    expect(render("a * b * c")).toBe("<p>a * b * c</p>");
    expect(render("snake_case_name")).toBe("<p>snake_case_name</p>");
    expect(render("\\*literal\\*")).toBe("<p>*literal*</p>");
  });

  it("renders lists, headings, paragraphs and line breaks", () => {
    expect(render("- one\n- **two**\n* three\n\n1. first\n2) second")).toBe(
      "<ul><li>one</li><li><strong>two</strong></li><li>three</li></ul><ol><li>first</li><li>second</li></ol>",
    );
    expect(render("- long item\n  continues here")).toBe("<ul><li>long item continues here</li></ul>");
    expect(render("# Big\n## Medium\n### Small\n#### Smaller")).toBe(
      "<h2>Big</h2><h2>Medium</h2><h3>Small</h3><h3>Smaller</h3>",
    );
    expect(render("Line one\nline two\n\nNew paragraph")).toBe("<p>Line one<br>line two</p><p>New paragraph</p>");
    expect(render("Intro\n- item")).toBe("<p>Intro</p><ul><li>item</li></ul>");
    expect(render("#hashtag is text")).toBe("<p>#hashtag is text</p>");
    expect(render("  \r\n\r\n")).toBe("");
  });

  it("always gives allowed, balanced tags, whatever is typed", () => {
    const pieces = fc.constantFrom(
      "*", "**", "***", "_", "__", "[", "]", "(", ")", "](", "](https://e.com)", "](javascript:x)", "\\", "#", "## ", "- ",
      "1. ", "\n", "\n\n", " ", "<", ">", "&", '"', "'", "<script>", "</p>", "word", "x", "é", "https://a.b",
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(pieces, fc.string({ maxLength: 4 })), { maxLength: 40 }), (parts) => {
        const html = render(parts.join(""));
        assertSafeAndBalanced(html);
        expect(html.toLowerCase()).not.toContain("<script");
        expect(html.toLowerCase()).not.toContain("javascript:x\"");
      }),
      { numRuns: 3000 },
    );
  });
});

describe("descriptionHtmlToMarkdown (older HTML descriptions)", () => {
  it("converts the sanitiser's tags and renders back to the same HTML", () => {
    for (const html of [
      "<p>Brush less, <strong>cuddle</strong> more.</p>",
      "<p>Easy to clean &amp; built to last.</p>",
      "<h2>Why</h2><h3>Short</h3><ul><li>a *star*</li><li>c_d</li></ul><p>x<br>y</p>",
      "<p>1. not a list</p><p># not a heading</p><p>- not an item</p>",
      "<p>Use <em>[brackets]</em> and \\ backslashes</p>",
    ]) {
      const markdown = descriptionHtmlToMarkdown(html);
      expect(render(markdown), markdown).toBe(composeDescriptionHtml(html, []));
    }
    expect(descriptionHtmlToMarkdown("<p>Brush <strong>less</strong></p><ul><li>Soft</li></ul>")).toBe(
      "Brush **less**\n\n- Soft",
    );
    expect(descriptionHtmlToMarkdown('<p onclick="x()">Hi</p><script>alert(1)</script>')).toBe("Hi");
  });

  it("keeps the text of any sanitised description", () => {
    const word = fc.stringMatching(/^[A-Za-z0-9]{1,8}$/);
    const special = fc.constantFrom("*", "_", "[", "]", "#", "-", "1.", "&", "<", "\\", "`", ">");
    const text = fc.array(fc.oneof(word, special), { minLength: 1, maxLength: 6 }).map((w) => w.join(" "));
    const inline = fc.oneof(
      text,
      text.map((t) => `<strong>${t}</strong>`),
      text.map((t) => `<em>${t}</em>`),
      text.map((t) => `<strong>${t} <em>${t}</em></strong>`),
    );
    const line = fc.array(inline, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(" "));
    const block = fc.oneof(
      line.map((l) => `<p>${l}</p>`),
      fc.tuple(line, line).map(([a, b]) => `<p>${a}<br>${b}</p>`),
      line.map((l) => `<h2>${l}</h2>`),
      line.map((l) => `<h3>${l}</h3>`),
      fc.array(line, { minLength: 1, maxLength: 3 }).map((items) => `<ul>${items.map((i) => `<li>${i}</li>`).join("")}</ul>`),
    );
    fc.assert(
      fc.property(fc.array(block, { minLength: 1, maxLength: 5 }), (blocks) => {
        const html = sanitizeHtml(blocks.join(""));
        const back = render(descriptionHtmlToMarkdown(html));
        expect(htmlToText(back)).toBe(htmlToText(html));
      }),
      { numRuns: 1000 },
    );
  });
});

describe("validatePage with a Markdown description", () => {
  const page = {
    title: "Slicker Brush",
    descriptionHtml: "",
    descriptionMarkdown: "Great **brush**.\r\n\r\n- Soft  ",
    bullets: ["Removes fur"],
    seoTitle: "Slicker Brush",
    seoDescription: "A brush.",
    priceCents: 2499,
    compareAtPriceCents: null,
  };

  it("normalises the Markdown and renders the HTML from it", () => {
    const r = validatePage(page, 1000);
    expect(r.ok && r.page).toMatchObject({
      descriptionMarkdown: "Great **brush**.\n\n- Soft",
      descriptionHtml: "<p>Great <strong>brush</strong>.</p><ul><li>Soft</li></ul>",
    });
    expect(composeProductBodyHtml("Great **brush**.", ["Fast <b>"])).toBe(
      "<p>Great <strong>brush</strong>.</p><ul><li>Fast &lt;b&gt;</li></ul>",
    );
  });

  it("refuses an empty or too long description with a sentence", () => {
    const empty = validatePage({ ...page, descriptionMarkdown: "  \n \t \r\n" }, 1000);
    expect(empty.ok || empty.errors.descriptionMarkdown).toBe("Write a description.");
    const long = validatePage({ ...page, descriptionMarkdown: "a".repeat(10_001) }, 1000);
    expect(long.ok || long.errors.descriptionMarkdown).toBe("Keep the description to 10,000 characters (it has 10,001).");
  });
});

describe("the editor's toolbar", () => {
  it("wraps the selection, or a placeholder, in bold, italic or a link", () => {
    expect(applyMarkdownFormat("make this loud", 10, 14, "bold")).toEqual({
      value: "make this **loud**",
      selectionStart: 12,
      selectionEnd: 16,
    });
    expect(applyMarkdownFormat("say  hi ", 4, 8, "italic").value).toBe("say  *hi* ");
    expect(applyMarkdownFormat("", 0, 0, "bold").value).toBe("**bold text**");
    const link = applyMarkdownFormat("see guide", 4, 9, "link");
    expect(link.value).toBe("see [guide](https://)");
    // The cursor sits where the address goes.
    expect(link.value.slice(link.selectionStart, link.selectionEnd)).toBe("https://");
  });

  it("turns the selected lines into a list or a heading", () => {
    expect(applyMarkdownFormat("Intro\none\ntwo", 6, 13, "bullets").value).toBe("Intro\n- one\n- two");
    expect(applyMarkdownFormat("- one\n- two", 0, 11, "numbers").value).toBe("1. one\n2. two");
    expect(applyMarkdownFormat("Title\nbody", 2, 2, "heading").value).toBe("## Title\nbody");
    expect(render(applyMarkdownFormat("a\nb", 0, 3, "bullets").value)).toBe("<ul><li>a</li><li>b</li></ul>");
  });
});
