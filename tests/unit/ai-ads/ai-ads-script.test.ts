// The rules of an AI ad's script (app/domain/ai-ads/ai-ads.ts) and the built-in writer's scripts.
import { describe, expect, it } from "vitest";
import {
  AD_LIMITS,
  adFieldLabel,
  fitAdScript,
  renderIdempotencyKey,
  totalDurationMs,
  validateAdScript,
  wrapLines,
  type AdScene,
} from "~/domain/ai-ads/ai-ads";
import { parseModelAdScript, writeBuiltInAdScript, type AdFacts } from "~/integrations/ai-text.server";

const scenes = (durations: number[], text = "A scene that reads well"): AdScene[] =>
  durations.map((durationMs, i) => ({ kind: (["hook", "problem", "product", "proof", "cta", "cta"] as const)[i], text, durationMs }));

const facts: AdFacts = {
  title: "Self-Cleaning Slicker Brush for Dogs and Cats",
  description: "Lifts loose fur in a few strokes. One click retracts the bristles.",
  niches: ["pet-care"],
  tags: ["Free shipping"],
  reasons: [],
  orders: 12840,
  storesSelling: 40,
  priceCents: 2499,
};

describe("validateAdScript", () => {
  it("accepts 4-6 scenes of 1.5-6 s adding up to 12-20 s, with squished texts", () => {
    const r = validateAdScript({ title: "  My   ad ", scenes: scenes([3000, 3000, 3000, 3000]) });
    expect(r).toEqual({ ok: true, script: { title: "My ad", scenes: scenes([3000, 3000, 3000, 3000]) } });
    expect(validateAdScript({ title: "ad", scenes: scenes([4000, 4000, 4000, 4000, 4000]) }).ok).toBe(true);
  });

  it("names every field that is wrong", () => {
    const bad = scenes([3000, 1000, 3000, 7000]);
    bad[0] = { ...bad[0], text: "  " };
    bad[2] = { ...bad[2], text: "x".repeat(AD_LIMITS.textMax + 1) };
    const r = validateAdScript({ title: "", scenes: bad });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.errors).sort()).toEqual([
      "scenes.0.text",
      "scenes.1.durationMs",
      "scenes.2.text",
      "scenes.3.durationMs",
      "title",
    ]);
    expect(r.errors["scenes.2.text"]).toBe("Use at most 90 characters so it can be read in time (now 91).");
    expect(r.errors["scenes.1.durationMs"]).toBe("A scene lasts 1.5 s to 6 s.");
  });

  it("refuses too few or too many scenes, and a total outside 12-20 s", () => {
    const three = validateAdScript({ title: "ad", scenes: scenes([5000, 5000, 5000]) });
    expect(three).toEqual({ ok: false, errors: { scenes: "An ad has 4 to 6 scenes (this one has 3)." } });
    const short = validateAdScript({ title: "ad", scenes: scenes([2000, 2000, 2000, 2000]) });
    expect(short).toEqual({ ok: false, errors: { scenes: "The ad lasts 8 s; it must last 12 s to 20 s." } });
    const long = validateAdScript({ title: "ad", scenes: scenes([6000, 6000, 6000, 6000]) });
    expect(long.ok).toBe(false);
  });

  it("labels fields as the editor does", () => {
    expect(adFieldLabel("scenes.1.text")).toBe("Scene 2 text");
    expect(adFieldLabel("scenes.0.durationMs")).toBe("Scene 1 duration");
    expect(adFieldLabel("title")).toBe("Title");
  });
});

describe("fitAdScript", () => {
  it("scales durations into 12-20 s in 100 ms steps and keeps each scene in bounds", () => {
    const fitted = fitAdScript({ title: "ad", scenes: scenes([1000, 1000, 1000, 1000]) });
    expect(totalDurationMs(fitted.scenes)).toBe(12_000);
    expect(fitted.scenes.every((s) => s.durationMs % 100 === 0 && s.durationMs >= 1500 && s.durationMs <= 6000)).toBe(true);
    const long = fitAdScript({ title: "ad", scenes: scenes([9000, 9000, 9000, 9000, 9000]) });
    expect(totalDurationMs(long.scenes)).toBe(20_000);
    expect(validateAdScript(long).ok).toBe(true);
  });

  it("keeps the call to action last when a writer sends too many scenes", () => {
    const many = [...scenes([3000, 3000, 3000, 3000, 3000]), ...scenes([3000, 3000])].map((s, i) => ({ ...s, text: `scene ${i}` }));
    const fitted = fitAdScript({ title: "ad", scenes: many });
    expect(fitted.scenes).toHaveLength(6);
    expect(fitted.scenes.at(-1)?.text).toBe("scene 6");
  });
});

describe("layout helpers", () => {
  it("wraps words into lines and cuts a word longer than a line", () => {
    expect(wrapLines("Stop scrolling if you love pets", 12)).toEqual(["Stop", "scrolling if", "you love", "pets"]);
    expect(wrapLines("abcdefghij xy", 4)).toEqual(["abcd", "efgh", "ij", "xy"]);
  });

  it("gives each render attempt a deterministic key", () => {
    expect(renderIdempotencyKey(7, 2)).toBe("ai-ad-render:7:2");
  });
});

describe("the built-in writer's ad script", () => {
  it("writes hook, problem, product, proof from real orders and a call to action with the price", () => {
    const script = writeBuiltInAdScript(facts);
    expect(script.scenes.map((s) => s.kind)).toEqual(["hook", "problem", "product", "proof", "cta"]);
    expect(script.scenes[3].text).toBe("12,840 orders in the last 30 days");
    // Free shipping only when the seller says the store ships it free (decision 085), never from a tag.
    expect(script.scenes[4].text).toBe("Get yours today for $24.99");
    expect(writeBuiltInAdScript({ ...facts, freeShipping: true }).scenes[4].text).toBe("Get yours today for $24.99 with free shipping");
    expect(script.scenes[2].text).toMatch(/^Meet the Self-Cleaning Slicker Brush/);
    expect(validateAdScript(script).ok).toBe(true);
  });

  it("quotes no figure it does not have: without orders or stores the proof scene is left out", () => {
    const script = writeBuiltInAdScript({ ...facts, orders: 0, storesSelling: 0, tags: [] });
    expect(script.scenes.map((s) => s.kind)).toEqual(["hook", "problem", "product", "cta"]);
    expect(script.scenes.some((s) => /\d+ orders/.test(s.text))).toBe(false);
    expect(validateAdScript(script).ok).toBe(true);
  });

  it("reads a model's script leniently (fences, seconds as text) and fits it", () => {
    const content = "```json\n" + JSON.stringify({
      title: "Brush ad",
      scenes: [
        { kind: "hook", text: "Fur everywhere?", seconds: "2" },
        { kind: "problem", text: "Brushes that clog", seconds: 2 },
        { kind: "product", text: "This one cleans itself", seconds: 3 },
        { kind: "proof", text: "12,840 orders last month", seconds: 2 },
        { kind: "cta", text: "Get yours today", seconds: 2 },
      ],
    }) + "\n```";
    const script = parseModelAdScript(content);
    expect(script.title).toBe("Brush ad");
    expect(totalDurationMs(script.scenes)).toBe(12_000);
    expect(validateAdScript(script).ok).toBe(true);
    expect(() => parseModelAdScript(JSON.stringify({ scenes: [{ text: "only one" }] }))).toThrow(/1 usable scenes/);
  });
});
