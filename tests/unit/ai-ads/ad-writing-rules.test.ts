// The built-in ad writer's wording rules (issue 35, item 18; decision 085): a product's name in an ad is never
// clipped mid-phrase ("Harness for Small"), an indefinite article follows the next word's sound ("an Adjustable",
// "a USB"), and free shipping is promised only when the seller said their store ships it free (the ad form's
// setting, off by default), never from a supplier's tag or a model's habit.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { adCtaLine, adShortName, fixArticles, indefiniteArticle, withoutShippingClaim } from "~/domain/ai-ads/ad-writing";
import { writeBuiltInAdScript, type AdFacts } from "~/integrations/ai-text.server";

const CONNECTORS = new Set(["for", "with", "and", "or", "in", "on", "to", "of", "from", "by", "at", "&", "+", "the", "a", "an"]);

describe("the short name an ad uses", () => {
  it("cuts a long name before its 'for'/'with' phrase, never inside it", () => {
    expect(adShortName("Adjustable No Pull Dog Harness for Small Medium Large Dogs, Reflective")).toBe("Adjustable No Pull Dog Harness");
    expect(adShortName("Harness for Small Medium Large Dogs with Handle")).toBe("Harness");
    expect(adShortName("Dog Harness for Small Dogs")).toBe("Dog Harness for Small Dogs");
    expect(adShortName("Bladeless Neck Fan, Portable USB Rechargeable")).toBe("Bladeless Neck Fan");
  });

  it("keeps the thing itself (the last words) when the words before any 'for' are too many", () => {
    expect(adShortName("Supercalifragilistic Expialidocious Magnetic Levitating Globe Lamp")).toBe("Magnetic Levitating Globe Lamp");
  });

  it("is at most 32 characters, whole words of the title, and never ends on a connecting word", () => {
    const noun = fc.constantFrom("Dog", "Harness", "Adjustable", "Reflective", "Breathable", "Lamp", "Magnetic", "Globe", "Portable", "Bottle", "Small", "Medium", "Dogs", "Kitchen", "Organizer", "Stainless", "Supercalifragilisticexpialidocious");
    const word = fc.oneof(noun, fc.constantFrom("for", "with", "and", "of", "to", "in", "&"));
    fc.assert(
      fc.property(noun, fc.array(word, { maxLength: 15 }), (head, rest) => {
        const words = [head, ...rest];
        const title = words.join(" ");
        const name = adShortName(title);
        const parts = name.split(" ");
        expect(title.split(" ").join(" ")).toContain(name);
        if (parts.length > 1 || parts[0].length <= 32) expect(name.length).toBeLessThanOrEqual(32);
        if (name !== title) expect(CONNECTORS.has(parts.at(-1)!.toLowerCase()) && parts.length > 1).toBe(false);
      }),
      { numRuns: 400 },
    );
  });
});

describe("a or an", () => {
  it("follows the sound of the next word", () => {
    const cases: [string, "a" | "an"][] = [
      ["Adjustable", "an"], ["ergonomic", "an"], ["Umbrella", "an"], ["hour", "an"], ["honest", "an"], ["LED", "an"], ["SUV", "an"],
      ["HDMI", "an"], ["8-inch", "an"], ["11-piece", "an"], ["18", "an"], ["USB", "a"], ["unicorn", "a"], ["useful", "a"],
      ["European", "a"], ["one-piece", "a"], ["Dog", "a"], ["UV", "a"], ["7-day", "a"], ["100%", "a"], ["house", "a"],
    ];
    for (const [word, article] of cases) expect(indefiniteArticle(word), word).toBe(article);
  });

  it("mends a writer's wrong article and leaves a letter like 'Vitamin A' alone", () => {
    expect(fixArticles("Nobody told me I needed a Adjustable Harness")).toBe("Nobody told me I needed an Adjustable Harness");
    expect(fixArticles("A orange a day. An USB cable")).toBe("An orange a day. A USB cable");
    expect(fixArticles("Vitamin A Essence for an hour")).toBe("Vitamin A Essence for an hour");
  });

  it("is right in every line the built-in writer writes", () => {
    for (const title of ["Adjustable Dog Harness", "Ergonomic Office Chair", "LED Strip Light", "USB Desk Fan", "Hourglass Timer"]) {
      const script = writeBuiltInAdScript({ ...base, title, voice: { tone: "playful", brandName: "B", tagline: "" } });
      for (const line of [...script.scenes.map((s) => s.text), ...(script.hooks ?? [])]) expect(fixArticles(line)).toBe(line);
    }
    const playful = writeBuiltInAdScript({ ...base, title: "Adjustable Dog Harness", voice: { tone: "playful", brandName: "B", tagline: "" } });
    expect(playful.hooks?.join(" | ")).not.toMatch(/\ba Adjustable/);
  });
});

const base: AdFacts = {
  title: "Bladeless Neck Fan, Portable USB Rechargeable Hands-Free Wearable Cooling Fan",
  description: "A bladeless neck fan that keeps you cool on the go.",
  niches: ["gadgets"],
  tags: ["free shipping"],
  reasons: [],
  orders: 120,
  storesSelling: 3,
  priceCents: 2499,
};

describe("free shipping", () => {
  it("is promised only when the seller says their store ships free, whatever the product's tags", () => {
    expect(adCtaLine({ ...base })).toBe("Get yours today for $24.99");
    expect(adCtaLine({ ...base, freeShipping: false })).toBe("Get yours today for $24.99");
    expect(adCtaLine({ ...base, tags: [], freeShipping: true })).toBe("Get yours today for $24.99 with free shipping");
    fc.assert(
      fc.property(fc.boolean(), fc.constantFrom<string[]>([], ["free shipping"], ["Free Shipping", "gift"]), (free, tags) => {
        const script = writeBuiltInAdScript({ ...base, tags, freeShipping: free });
        const text = script.scenes.map((s) => s.text).join(" ");
        expect(/free shipping/i.test(text)).toBe(free);
      }),
    );
  });

  it("is taken out of a model's lines when the seller did not say so, by its clause or sentence", () => {
    expect(withoutShippingClaim("Get yours today for $24.99 with free shipping")).toBe("Get yours today for $24.99");
    expect(withoutShippingClaim("Order now. Free shipping worldwide!")).toBe("Order now.");
    expect(withoutShippingClaim("Free delivery + 30-day returns")).toBe("30-day returns");
    expect(withoutShippingClaim("Ships free to your door")).toBe("");
    expect(withoutShippingClaim("Stays cool for hours")).toBe("Stays cool for hours");
  });
});
