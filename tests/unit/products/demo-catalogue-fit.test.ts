// Issue 25, item 9: the sample catalogue stops saying what gives it away. Over the first-start catalogue
// (3,000 products, seed 42): a description claims only what its own type of product does ("A leash that
// calms anxious pets during storms" was a calming bed's benefit), a pets product is tagged "cats" only when
// it is for cats (every one was, so all of them matched "cat toy"), and the caption on a product's picture
// never ends mid-phrase ("Reflective Leash for").
import { describe, expect, it } from "vitest";
import { captionLines, renderProductSvg } from "~/services/products/images.server";
import { generateProducts, NICHES, titleVocabulary } from "../../../scripts/lib/product-generator";

const OPTIONS = { seed: 42, endDay: "2026-11-25" };
const products = [...generateProducts(3000, OPTIONS)];

/** The noun a title is built on: the longest of its niche's nouns that the title contains as whole words. */
function nounOf(title: string, nicheSlug: string) {
  const niche = NICHES.find((n) => n.slug === nicheSlug)!;
  const head = ` ${title.split(" for ")[0].replace(/ (Set|\(Set of [2-6]\))$/, "")}`;
  const found = titleVocabulary(niche)
    .filter((n) => head.endsWith(` ${n.noun}`))
    .sort((a, b) => b.noun.length - a.noun.length)[0];
  if (!found) throw new Error(`"${title}" has no noun of ${nicheSlug}`);
  return found;
}

/** What the first sentence claims: "A padded leash that <benefit>." */
function claimedBenefit(description: string): string {
  const m = /^An? .+? that (.+?)\.(?: |$)/.exec(description);
  if (!m) throw new Error(`no benefit in "${description}"`);
  return m[1];
}

/** The caption's lines as the picture shows them (the text in its bottom band, a line per tspan). */
function shownCaption(svg: string): string[] {
  const text = /<text [^>]*class="caption"[^>]*>(.*?)<\/text>|<text [^>]*y="368"[^>]*>(.*?)<\/text>/.exec(svg);
  if (!text) throw new Error("no caption in the picture");
  const inner = text[1] ?? text[2];
  const spans = [...inner.matchAll(/<tspan[^>]*>([^<]*)<\/tspan>/g)].map((m) => m[1]);
  return (spans.length > 0 ? spans : [inner]).map((l) => l.replace(/&amp;/g, "&").replace(/&apos;/g, "'"));
}

const FUNCTION_WORDS = new Set(["a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "of", "on", "or", "the", "to", "with", "&"]);

describe("the first-start catalogue says only what fits its products", () => {
  it("claims in each description a benefit of the product's own type, never another type's", () => {
    const wrong: string[] = [];
    for (const p of products) {
      const noun = nounOf(p.title, p.niches[0]);
      const benefit = claimedBenefit(p.description);
      if (!(noun.benefits ?? []).includes(benefit)) wrong.push(`${p.title}: "${benefit}"`);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  it("gives every description a singular subject, so the benefit's verb agrees ('A pack of gel pens that ...', not 'A gel pens that')", () => {
    const plural = products
      .map((p) => /^An? (?!pack of |pair of )(.+?) that /.exec(p.description)?.[1])
      .filter((subject): subject is string => subject !== undefined && /[^s]s$/.test(subject));
    expect([...new Set(plural)].slice(0, 5)).toEqual([]);
  });

  it("never says a leash or a harness calms pets in storms, or a brush stands up to chewers", () => {
    const odd = products.filter(
      (p) =>
        (/\b(Leash|Harness)\b/.test(p.title) && /storms|shedding|chewers|mealtime/.test(p.description)) ||
        (/\bBrush\b/.test(p.title) && p.niches[0] === "pets" && /chewers|storms|mealtime/.test(p.description)),
    );
    expect(odd.slice(0, 3).map((p) => `${p.title}: ${p.description}`)).toEqual([]);
  });

  it("tags a pets product 'cats' only when it is for cats, 'dogs' only when for dogs, 'pet toys' only when a toy", () => {
    const pets = products.filter((p) => p.niches[0] === "pets");
    expect(pets.length).toBeGreaterThan(40);
    /** A noun every audience of which is cats (a litter mat) is a cat product whatever its title says. */
    const onlyFor = (p: (typeof pets)[number], animal: RegExp) => {
      const audiences = nounOf(p.title, "pets").audiences.map((a) => a.text);
      return audiences.length > 0 && audiences.every((a) => animal.test(a));
    };
    const CAT = /\b(Cats?|Kittens?)\b/;
    const DOG = /\b(Dogs?|Puppies|Puppy)\b/;
    const wrongCats = pets.filter((p) => p.tags.includes("cats") && !CAT.test(p.title) && !onlyFor(p, CAT));
    const wrongDogs = pets.filter((p) => p.tags.includes("dogs") && !DOG.test(p.title) && !onlyFor(p, DOG));
    const wrongToys = pets.filter((p) => p.tags.includes("pet toys") && !/\bToy\b/.test(p.title));
    expect(wrongCats.slice(0, 3).map((p) => `${p.title}: ${p.tags.join(", ")}`)).toEqual([]);
    expect(wrongDogs.slice(0, 3).map((p) => `${p.title}: ${p.tags.join(", ")}`)).toEqual([]);
    expect(wrongToys.slice(0, 3).map((p) => `${p.title}: ${p.tags.join(", ")}`)).toEqual([]);
    // And the tags still say what the product is: a leash is tagged for dog walking, a litter mat for cats.
    const leash = pets.find((p) => /\bLeash\b/.test(p.title));
    expect(leash?.tags).toEqual(expect.arrayContaining(["dogs", "dog walking"]));
    const litter = pets.find((p) => /\bLitter Mat\b/.test(p.title));
    expect(litter?.tags).toContain("cats");
    // "cat toy" has cat toys to find: tagged for cats and as pet toys.
    const catToy = pets.find((p) => /\bCat Toy\b/.test(p.title));
    expect(catToy?.tags).toEqual(expect.arrayContaining(["cats", "pet toys"]));
  });

  it("captions every picture with whole words that do not end on 'for', 'with', 'and' …", () => {
    const bad: string[] = [];
    for (const p of products) {
      const lines = shownCaption(renderProductSvg({ objectID: p.objectID, n: 1, title: p.title, niche: p.niches[0] }));
      const words = lines.join(" ").split(" ");
      const titleWords = p.title.split(" ");
      const last = words[words.length - 1].toLowerCase();
      // Whole words of the title, from its start, on at most two lines.
      const prefix = words.every((w, i) => w === titleWords[i]);
      if (!prefix || lines.length > 2 || FUNCTION_WORDS.has(last) || /^\(/.test(last)) bad.push(`${p.title} -> ${lines.join(" / ")}`);
    }
    expect(bad.slice(0, 5)).toEqual([]);
    const svg = renderProductSvg({ objectID: "x", n: 1, title: "Reflective Leash for Small Dogs", niche: "pets" });
    expect(shownCaption(svg).join(" ")).toBe("Reflective Leash for Small Dogs");
  });

  it("keeps the caption of a long title to its first whole phrase", () => {
    expect(captionLines("Portable Self-Cleaning Slicker Brush (Set of 4) for Dogs and Cats")).toEqual(["Portable Self-Cleaning", "Slicker Brush (Set of 4)"]);
    expect(captionLines("Leash")).toEqual(["Leash"]);
    expect(captionLines("Reflective Leash for Small Dogs").join(" ")).toBe("Reflective Leash for Small Dogs");
  });
});
