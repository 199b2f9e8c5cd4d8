// The built-in writer (no AI endpoint configured) and the reading of a model's answer: lengths within
// the limits, text escaped, seller figures kept away from shoppers, markup from a model sanitised.
import { describe, expect, it } from "vitest";
import { BUILT_IN_WRITER, PAGE_LIMITS, validatePage } from "~/domain/product-pages/product-page";
import {
  AiTextError,
  builtInWriter,
  createAiText,
  parseModelCopy,
  writeBuiltInCopy,
  type ProductFacts,
} from "~/integrations/ai-text.server";

const brush: ProductFacts = {
  title: "Self-Cleaning Slicker Brush for Dogs and Cats",
  description:
    "A self-cleaning slicker brush that keeps shedding off your sofa. Made for dogs and cats. Easy to clean and built to last.",
  niches: ["pets"],
  tags: ["grooming", "free shipping", "gift idea"],
  reasons: ["orders +35% in 7 days", "margin 62%", "sold by only 4 stores"],
};

describe("the built-in writer", () => {
  it("is what runs without base URL and model, and says so", () => {
    expect(createAiText({}).writer).toBe(BUILT_IN_WRITER);
    expect(createAiText({ baseUrl: "http://127.0.0.1:1/v1" }).writer).toBe(BUILT_IN_WRITER);
    expect(createAiText({ baseUrl: "http://127.0.0.1:1/v1", model: "gpt-x" }).writer).toBe("gpt-x");
    expect(builtInWriter.writer).toBe("built-in writer");
  });

  it("composes a description of a few paragraphs, benefits and SEO from the product's own data", () => {
    const copy = writeBuiltInCopy(brush);
    expect(copy.title).toBe("Self-Cleaning Slicker Brush for Dogs and Cats");
    const paragraphs = copy.descriptionHtml.match(/<p>.*?<\/p>/g) ?? [];
    expect(paragraphs.length).toBeGreaterThanOrEqual(3);
    expect(copy.descriptionHtml).toContain("keeps shedding off your sofa");
    expect(copy.descriptionHtml).toContain("pets");
    expect(copy.descriptionHtml).toContain("trending right now");
    expect(copy.descriptionHtml).toContain("thoughtful gift");
    expect(copy.bullets).toContain("Free shipping");
    expect(copy.bullets.length).toBeGreaterThanOrEqual(3);
    expect(copy.seoTitle).toBe("Self-Cleaning Slicker Brush for Dogs and Cats | Pets");
    expect(copy.seoDescription.startsWith("Self-Cleaning Slicker Brush for Dogs and Cats:")).toBe(true);
  });

  it("never shows shoppers the seller's figures", () => {
    const copy = writeBuiltInCopy(brush);
    const all = [copy.title, copy.descriptionHtml, ...copy.bullets, copy.seoTitle, copy.seoDescription].join(" ");
    for (const secret of ["62%", "margin", "35%", "4 stores", "stores"]) expect(all).not.toContain(secret);
  });

  it("keeps every field within its limit, whatever the product looks like", () => {
    const long: ProductFacts = {
      title: "ULTRA ".repeat(80),
      description: "This sentence is long and keeps going without an end ".repeat(40),
      niches: ["home-decor", "kitchen", "pets", "fitness"],
      tags: Array.from({ length: 30 }, (_, i) => `tag ${i}`),
      reasons: ["1.2K orders in 30 days", "3.4M views in 30 days", "orders flat week on week (12 in 7 days)"],
    };
    for (const facts of [brush, long, { title: "", description: "", niches: [], tags: [], reasons: [] }]) {
      const copy = writeBuiltInCopy(facts);
      expect(copy.title.length).toBeGreaterThan(0);
      expect(copy.title.length).toBeLessThanOrEqual(PAGE_LIMITS.titleTarget);
      expect(copy.seoTitle.length).toBeLessThanOrEqual(70);
      expect(copy.seoDescription.length).toBeLessThanOrEqual(160);
      expect(copy.seoDescription.length).toBeGreaterThan(0);
      expect(copy.bullets.length).toBeGreaterThanOrEqual(1);
      expect(copy.bullets.length).toBeLessThanOrEqual(PAGE_LIMITS.bulletsMax);
      for (const b of copy.bullets) expect(b.length).toBeLessThanOrEqual(PAGE_LIMITS.bulletMax);
      // What it writes passes the same checks as a merchant's edit.
      expect(validatePage({ ...copy, priceCents: 2999, compareAtPriceCents: null }, 1000).ok).toBe(true);
    }
  });

  it("escapes whatever the product data holds", () => {
    const evil: ProductFacts = {
      title: 'Brush <script>alert("t")</script>',
      description: 'Soft & gentle <img src=x onerror=alert(1)>. Works "great".',
      niches: ["<b>pets</b>"],
      tags: [],
      reasons: [],
    };
    const copy = writeBuiltInCopy(evil);
    expect(copy.descriptionHtml).not.toMatch(/<(?!\/?p>)/);
    expect(copy.descriptionHtml).toContain("&lt;script&gt;");
    expect(copy.descriptionHtml).toContain("Soft &amp; gentle &lt;img src=x onerror=alert(1)&gt;");
    expect(copy.descriptionHtml).toContain("&quot;great&quot;");
  });

  it("is deterministic", () => {
    expect(writeBuiltInCopy(brush)).toEqual(writeBuiltInCopy(brush));
  });
});

describe("parseModelCopy", () => {
  const answer = {
    title: "Slicker Brush",
    paragraphs: ["First <b>paragraph</b> & more.", "Second."],
    bullets: ["- Fast", "<i>Gentle</i>"],
    seoTitle: "Slicker Brush for pets",
    seoDescription: "The brush.",
  };

  it("turns paragraphs into escaped HTML; bullets stay plain text", () => {
    const copy = parseModelCopy(JSON.stringify(answer));
    expect(copy.descriptionHtml).toBe("<p>First &lt;b&gt;paragraph&lt;/b&gt; &amp; more.</p><p>Second.</p>");
    expect(copy.bullets).toEqual(["Fast", "<i>Gentle</i>"]);
  });

  it("reads an answer wrapped in a code fence", () => {
    expect(parseModelCopy("```json\n" + JSON.stringify(answer) + "\n```").title).toBe("Slicker Brush");
  });

  it("sanitises HTML a model sends instead of paragraphs", () => {
    const { paragraphs: _p, ...rest } = answer;
    const copy = parseModelCopy(
      JSON.stringify({ ...rest, descriptionHtml: '<p onclick="x">Hi</p><script>evil()</script>' }),
    );
    expect(copy.descriptionHtml).toBe("<p>Hi</p>");
  });

  it("cuts over-long SEO fields to their limits", () => {
    const copy = parseModelCopy(
      JSON.stringify({ ...answer, seoTitle: "word ".repeat(30), seoDescription: "word ".repeat(60) }),
    );
    expect(copy.seoTitle.length).toBeLessThanOrEqual(70);
    expect(copy.seoDescription.length).toBeLessThanOrEqual(160);
  });

  it("refuses what is not the JSON we asked for, naming what is missing", () => {
    expect(() => parseModelCopy("Sure! Here is your page: ...")).toThrow(AiTextError);
    expect(() => parseModelCopy("")).toThrow("no text");
    expect(() => parseModelCopy(JSON.stringify({ title: "x" }))).toThrow("missing paragraphs, bullets, seoDescription");
    try {
      parseModelCopy("{not json");
    } catch (e) {
      expect((e as AiTextError).code).toBe("malformed");
    }
  });
});
