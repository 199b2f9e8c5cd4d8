// Guessing the HTS code from a product's title and type (app/domain/landed-cost/hts-match.ts, issue 35 item 15, decision 081),
// against the HTS lines the shipped tariff table carries: realistic titles, the confidence and its reason, the
// alternatives, and the stemmer.
import { describe, expect, it } from "vitest";
import { guessHtsFromWords, indexHtsLines, stem, words } from "~/domain/landed-cost/hts-match";
import { LayersFileSchema } from "~/domain/landed-cost/tariff-file";
import starter from "../../../content/tariffs/us-starter-2026-12-07.json";

const index = indexHtsLines(LayersFileSchema.parse(starter).htsLines);
const guess = (title: string, type: string[] = []) => guessHtsFromWords(index, { title, type });

describe("guessing the code from the title and type", () => {
  it("a cat grooming brush is a brush of heading 9603 (not the leash line the pets niche gave: 37.4% with Section 122)", () => {
    const g = guess("Cat Grooming Brush Self-Cleaning", ["pets"]);
    expect(g.best?.htsCode).toBe("9603.90.80");
    expect(g.confidence).toBe("high");
    expect(g.reason).toMatch(/^"brush", "cat", "clean", "groom", "pet" match 9603\.90\.80/);
    // The seller picks from the nearest codes (four after the guess), each a different line, nearest first.
    expect(g.alternatives).toHaveLength(4);
    expect(new Set([g.best!.htsCode, ...g.alternatives.map((a) => a.htsCode)]).size).toBe(5);
    for (let i = 1; i < g.alternatives.length; i++) expect(g.alternatives[i].score).toBeLessThanOrEqual(g.alternatives[i - 1].score);
  });

  it.each([
    ["Silicone Spatula Set Heat Resistant Kitchen Utensils", ["kitchen"], "3924.10.40"],
    ["Wireless Bluetooth Earbuds with Charging Case", ["phone-accessories"], "8518.30.20"],
    ["Insulated Stainless Steel Tumbler 20oz with Lid", ["drinkware"], "9617.00.10"],
    ["Non-Slip Yoga Mat 6mm", ["fitness"], "9506.91.00"],
    ["Reflective Dog Leash with Padded Handle", ["pets"], "4201.00.30"],
    ["Portable Power Bank 10000mAh Fast Charging", ["phone-accessories"], "8507.60.00"],
    ["Professional Makeup Brush Set 12 Pieces", ["beauty"], "9603.30.60"],
    ["Detangling Hairbrush for Curly Hair", ["hair-care"], "9603.29.80"],
    ["Handheld Massage Gun Deep Tissue", ["massage"], "9019.10.20"],
    ["Polarized Sunglasses for Driving", ["fashion"], "9004.10.00"],
  ])("%s -> %s", (title, type, code) => {
    const g = guess(title, type);
    expect(g.best?.htsCode).toBe(code);
    expect(g.confidence).not.toBe("low");
  });

  it("a title that matches nothing is a low-confidence non-answer with a reason", () => {
    const g = guess("Xyzzy Qwerty 3000");
    expect(g).toMatchObject({ best: null, alternatives: [], confidence: "low" });
    expect(g.reason).toBe("No word of the title or type matches an HTS description we carry.");
    expect(guess("Best New Hot Sale 2 pcs")).toMatchObject({ best: null, confidence: "low", reason: "The title has no word that says what the product is." });
  });

  it("a title whose words split between headings is medium, naming the rival", () => {
    const g = guess("Travel Organizer Bag");
    expect(g.best?.htsCode).toBe("4202.92.31");
    expect(g.confidence).toBe("medium");
    expect(g.reason).toBe('"bag", "travel" match 4202.92.31 (72%), but 6307.90.98 is close (64%): check which describes the product.');
  });

  it("the same words give the same answer, in any order and case", () => {
    expect(guess("self-cleaning BRUSH grooming cat", ["pets"])).toEqual(guess("Cat Grooming Brush Self-Cleaning", ["pets"]));
  });
});

describe("words", () => {
  it("stems plurals and -ing/-ed forms", () => {
    expect(["brushes", "toys", "leashes", "grooming", "cleaning", "shipping", "batteries", "glasses", "padded"].map(stem)).toEqual([
      "brush", "toy", "leash", "groom", "clean", "ship", "battery", "glass", "pad",
    ]);
  });

  it("drops filler words and numbers", () => {
    expect(words("Other articles of plastics, 2 pcs, for Women")).toEqual(["plastic"]);
  });
});
