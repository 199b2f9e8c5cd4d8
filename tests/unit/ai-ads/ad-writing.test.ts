// The built-in ad writer (app/domain/ai-ads/ad-writing.ts, decision 062): every line it writes fits the frame's limit by
// choosing shorter words, never by cutting with "..."; each product gets three hooks to pick from, varied by
// product and by the brand kit's tone; a script a model wrote too long is shortened by sentence or clause only.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { adHookOptions, adShortName, adTone, type AdWordsFacts } from "~/domain/ai-ads/ad-writing";
import { AD_LIMITS, captionProblem, fitAdScript, fitCaption, placeVoice, shortenToFit } from "~/domain/ai-ads/ai-ads";
import { writeBuiltInAdScript, type AdFacts } from "~/integrations/ai-text.server";

const base: AdFacts = {
  title: "Bladeless Neck Fan, Portable USB Rechargeable Hands-Free Wearable Cooling Fan for Travel and Sports",
  description:
    "A bladeless neck fan that keeps you cool on the go with three speeds, a 4000 mAh battery that lasts up to sixteen hours and a soft silicone band that never tangles hair. Charges by USB-C.",
  niches: ["gadgets"],
  tags: ["free shipping"],
  reasons: [],
  orders: 0,
  storesSelling: 0,
  priceCents: 2499,
};

const words = fc.stringMatching(/^[A-Za-z][a-z]{0,13}$/);
const facts: fc.Arbitrary<AdFacts> = fc.record({
  title: fc.array(words, { minLength: 1, maxLength: 24 }).map((w) => w.join(" ")),
  description: fc.array(fc.array(words, { minLength: 1, maxLength: 30 }).map((w) => `${w.join(" ")}.`), { maxLength: 4 }).map((s) => s.join(" ")),
  niches: fc.array(fc.constantFrom("pets", "home-decor", "baby", "fitness", "kitchen", "outdoor_gear"), { maxLength: 2 }),
  tags: fc.array(fc.constantFrom("gift", "free shipping", "new"), { maxLength: 2 }),
  reasons: fc.constant([]),
  orders: fc.nat({ max: 200_000 }),
  storesSelling: fc.nat({ max: 400 }),
  priceCents: fc.nat({ max: 1_000_000 }),
  voice: fc.option(
    fc.record({ tone: fc.constantFrom("", "Playful and cheeky", "Premium, understated", "calm", "BOLD!", "friendly", "expert", "sarcastic"), brandName: fc.constant("Brand"), tagline: fc.constant("") }),
    { nil: null },
  ),
});

describe("the built-in ad writer", () => {
  it("never cuts a line: no ellipsis, every scene and hook within the limit, three distinct hooks, the first in use", () => {
    fc.assert(
      fc.property(facts, (f) => {
        const script = writeBuiltInAdScript(f);
        const lines = [...script.scenes.map((s) => s.text), ...(script.hooks ?? [])];
        for (const line of lines) {
          expect(line).not.toMatch(/…|\.\.\./);
          expect(line.length).toBeLessThanOrEqual(AD_LIMITS.textMax);
          expect(line.length).toBeGreaterThanOrEqual(AD_LIMITS.textMin);
        }
        expect(new Set(script.hooks?.map((h) => h.toLowerCase())).size).toBe(3);
        expect(script.hooks?.[0]).toBe(script.scenes[0].text);
      }),
      { numRuns: 300 },
    );
  });

  it("says the long product's name and benefit in whole words (today: 'Meet the Bladeless Neck Fan: A bladeless neck fan that keeps…')", () => {
    const script = writeBuiltInAdScript(base);
    const product = script.scenes.find((s) => s.kind === "product")!.text;
    expect(product).toBe("Meet the Bladeless Neck Fan: A bladeless neck fan that keeps you cool on the go");
    // A supplier's "free shipping" tag is not the seller's promise (decision 085): only the seller's own setting is.
    expect(script.scenes.at(-1)!.text).toBe("Get yours today for $24.99");
    expect(writeBuiltInAdScript({ ...base, freeShipping: true }).scenes.at(-1)!.text).toBe("Get yours today for $24.99 with free shipping");
    expect(adShortName("Supercalifragilistic Expialidocious Magnetic Levitating Globe Lamp")).toBe("Magnetic Levitating Globe Lamp");
  });

  it("opens products in one niche differently (today every one opened 'Stop scrolling: new in pets')", () => {
    const titles = ["Dog Harness", "Cat Tree Tower", "Slow Feeder Bowl", "Pet Hair Remover", "Dog Raincoat", "Cat Water Fountain", "Chew Toy Set", "Pet Camera"];
    const openings = titles.map((title) => writeBuiltInAdScript({ ...base, title, niches: ["pets"] }).scenes[0].text);
    expect(new Set(openings.map((o) => o.replace(/the .*$/, "the"))).size).toBeGreaterThanOrEqual(3);
  });

  it("writes in the kit's tone: playful and premium kits get different hooks, problem and call to action", () => {
    const playful = writeBuiltInAdScript({ ...base, voice: { tone: "Playful and a little cheeky", brandName: "B", tagline: "" } });
    const premium = writeBuiltInAdScript({ ...base, voice: { tone: "Premium, understated", brandName: "B", tagline: "" } });
    const plain = writeBuiltInAdScript(base);
    expect(playful.hooks).not.toEqual(premium.hooks);
    expect(playful.scenes.at(-1)!.text).toMatch(/^Treat yourself/);
    expect(premium.scenes.at(-1)!.text).toMatch(/^Discover it today/);
    expect(plain.scenes.at(-1)!.text).toMatch(/^Get yours today/);
    expect(playful.scenes[1].text).not.toBe(premium.scenes[1].text);
  });

  it("reads the tone named first in the kit's words, and neutral for none it knows", () => {
    expect(adTone("Playful, a bit cheeky")).toBe("playful");
    expect(adTone("Warm but playful")).toBe("calm");
    expect(adTone("We are EXPERTS? no: professional")).toBe("expert");
    expect(adTone("sarcastic")).toBe("neutral");
    expect(adTone(null)).toBe("neutral");
  });

  it("puts a saved TikTok hook first when it fits, by its first sentence when it is long, and skips one that cannot be shortened", () => {
    const f: AdWordsFacts = { ...base, savedHooks: ["POV: summer on the subway. This fan saved my commute and I will never go back to sweating through my shirt again"] };
    expect(adHookOptions(f)[0]).toBe("POV: summer on the subway.");
    const long = "x".repeat(120);
    expect(adHookOptions({ ...base, savedHooks: [long] })).not.toContain(long);
  });
});

describe("fitting a writer's script", () => {
  it("shortens a long scene by whole sentences or its first clause, and keeps one it cannot shorten for the editor to flag", () => {
    expect(shortenToFit("Short and sweet.", 90)).toBe("Short and sweet.");
    expect(shortenToFit("One sentence here. Another sentence that is far too long to also fit in the limit.", 30)).toBe("One sentence here.");
    expect(shortenToFit("Keeps you cool for hours, charges by USB-C and folds into a pocket", 30)).toBe("Keeps you cool for hours");
    expect(shortenToFit("a".repeat(100), 90)).toBeNull();
    const scenes = [
      { kind: "hook" as const, text: "Stop scrolling", durationMs: 3000 },
      { kind: "problem" as const, text: `Too long ${"word ".repeat(30)}`, durationMs: 3000 },
      { kind: "product" as const, text: "Meet it", durationMs: 3000 },
      { kind: "cta" as const, text: "Get yours", durationMs: 3000 },
    ];
    const fitted = fitAdScript({ title: "t", scenes });
    expect(fitted.scenes[1].text).not.toMatch(/…/);
    expect(fitted.scenes[1].text.length).toBeGreaterThan(AD_LIMITS.textMax);
  });

  it("says which caption cannot be shown whole: a word wider than a line, or too many lines at the smallest size", () => {
    const measure = (line: string, size: number) => line.length * size * 0.6;
    const box = { maxWidth: 400, maxHeight: 150, sizes: [40, 30, 24], lineHeight: 1.25 };
    expect(captionProblem(fitCaption("Stop scrolling: meet the fan", box, measure))).toBeNull();
    const wide = fitCaption("Meet the Supercalifragilisticexpialidocious lamp", box, measure);
    expect(captionProblem(wide)).toMatch(/"Supercalifragilisticexpialidocious" is too wide for one line/);
    const tall = fitCaption("word ".repeat(60), box, measure);
    expect(captionProblem(tall)).toMatch(/^Too long to show whole on the video, even at the smallest text size \(\d+ lines\)/);
  });
});

describe("placing the voice-over", () => {
  it("starts each clip 150 ms into its scene, speeds a slightly long one up, and names a scene whose clip is far too long", () => {
    const scenes = [{ durationMs: 3000 }, { durationMs: 2000 }, { durationMs: 3000 }];
    expect(placeVoice(scenes, [1000, 2040, 2700])).toEqual({
      ok: true,
      clips: [
        { atMs: 150, tempo: 1 },
        { atMs: 3150, tempo: 1.2 },
        { atMs: 5150, tempo: 1 },
      ],
    });
    expect(placeVoice(scenes, [1000, 3000, 1000])).toEqual({
      ok: false,
      scene: 1,
      problem: "scene 2's voice-over lasts 3 s, longer than its 2 s allow: lengthen the scene or shorten its text.",
    });
  });
});
