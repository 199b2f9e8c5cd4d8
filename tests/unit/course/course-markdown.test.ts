// The lesson Markdown renderer: what it understands, and that nothing in the text becomes HTML.
import { AppProvider } from "@shopify/polaris";
import enTranslations from "@shopify/polaris/locales/en.json";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { embeddedTwin } from "~/domain/shopify/embedded-paths";
import { parseMarkdown } from "~/domain/markdown/parse";
import { Markdown, safeHref, type PathFor } from "~/ui/shared/markdown";

const render = (source: string, pathFor?: PathFor) =>
  renderToString(createElement(AppProvider, { i18n: enTranslations }, createElement(Markdown, { source, pathFor })));

describe("parseMarkdown", () => {
  it("splits headings, paragraphs, lists and quotes", () => {
    const blocks = parseMarkdown(
      "# Title\n\nFirst line\nsecond line.\n\n## Steps\n\n1. One\n2. Two\n   continued\n\n- a\n* b\n\n> quoted\n> more\n",
    );
    expect(blocks).toEqual([
      { type: "heading", level: 1, text: "Title" },
      { type: "paragraph", text: "First line second line." },
      { type: "heading", level: 2, text: "Steps" },
      { type: "list", ordered: true, items: ["One", "Two continued"] },
      { type: "list", ordered: false, items: ["a", "b"] },
      { type: "quote", text: "quoted more" },
    ]);
  });

  it("handles Windows line endings and a list straight after a paragraph", () => {
    expect(parseMarkdown("Intro:\r\n- one\r\n- two")).toEqual([
      { type: "paragraph", text: "Intro:" },
      { type: "list", ordered: false, items: ["one", "two"] },
    ]);
  });
});

describe("Markdown", () => {
  it("renders headings below the page's h1, lists, bold, italic, code and links", () => {
    const html = render("# Big\n\n## Section\n\n### Smaller\n\nSome **bold** and *italic* and `code` and [a link](https://example.com/x).\n\n1. first\n2. second");
    expect(html).not.toMatch(/<h1/);
    expect(html).toMatch(/<h2[^>]*>Big<\/h2>/);
    expect(html).toMatch(/<h2[^>]*>Section<\/h2>/);
    expect(html).toMatch(/<h3[^>]*>Smaller<\/h3>/);
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain("<em>italic</em>");
    expect(html).toContain("<code>code</code>");
    expect(html).toMatch(/<a[^>]*href="https:\/\/example.com\/x"[^>]*>a link<\/a>/);
    expect(html).toMatch(/<ol[^>]*>.*first.*second.*<\/ol>/);
  });

  it("escapes HTML in the text: a script tag is shown, never run", () => {
    const html = render('Hello <script>alert("x")</script> and <img src=x onerror=alert(1)>');
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
  });

  it("drops dangerous link targets and keeps their text", () => {
    const html = render("[click](javascript:alert(1)) [data](data:text/html,hi) [proto](//evil.example)");
    expect(html).not.toMatch(/href="(javascript|data|\/\/)/);
    expect(html).toContain("click");
    expect(html).toContain("proto");
  });

  it("keeps links inside the product", () => {
    expect(render("[grid](/dashboard/products?sort=margin)")).toContain('href="/dashboard/products?sort=margin"');
  });

  it("points the product's links at the surface's pages, even nested in bold, and shows text where it has none", () => {
    const html = render(
      "**See [the grid](/dashboard/products?sort=margin)**, [feedback](/dashboard/feedback) and [Shopify](https://shopify.com).",
      embeddedTwin,
    );
    expect(html).toContain('href="/app/products?sort=margin"');
    expect(html).not.toContain("/dashboard");
    expect(html).toContain("feedback");
    expect(html).toContain('href="https://shopify.com"');
  });
});

describe("safeHref", () => {
  it.each([
    ["https://example.com", "https://example.com"],
    ["http://example.com/a?b=c", "http://example.com/a?b=c"],
    ["mailto:help@example.com", "mailto:help@example.com"],
    ["/dashboard", "/dashboard"],
    ["#steps", "#steps"],
    ["javascript:alert(1)", null],
    ["JaVaScRiPt:alert(1)", null],
    ["//evil.example", null],
    ["data:text/html,x", null],
    ["vbscript:x", null],
  ])("%s -> %s", (url, expected) => expect(safeHref(url)).toBe(expected));
});
