// Glitch mode's pure rules (app/domain/glitch-mode/glitch.ts) on hand-made numbers, and who may reveal
// (glitchModeAccess in app/domain/products/research-access.ts).
import { describe, expect, it } from "vitest";
import {
  GLITCH_MIN_AMAZON_PRICE_CENTS,
  glitchQualifies,
  glitchRevealKey,
  glitchSpread,
  notQualifyingReason,
  parseGlitchListQuery,
  spreadExplanation,
} from "~/domain/glitch-mode/glitch";
import { glitchModeAccess } from "~/domain/products/research-access";

describe("glitchQualifies: an Amazon price of at least $19.00", () => {
  it.each([
    [1900, true],
    [1899, false],
    [1901, true],
    [250_000, true],
    [0, false],
    [null, false],
    [undefined, false],
  ])("%s cents -> %s", (cents, expected) => expect(glitchQualifies(cents)).toBe(expected));

  it("the threshold is the seed's 19 dollars", () => expect(GLITCH_MIN_AMAZON_PRICE_CENTS).toBe(1900));
});

describe("notQualifyingReason", () => {
  it("says the rule and the product's Amazon price when it is under $19.00", () => {
    expect(notQualifyingReason(1899)).toBe(
      "Glitch mode only takes products with an Amazon price of $19.00 or more; this one is $18.99 on Amazon.",
    );
  });
  it("says when there is no Amazon price at all", () => {
    expect(notQualifyingReason(null)).toBe(
      "Glitch mode only takes products with an Amazon price of $19.00 or more; this one has no Amazon price.",
    );
  });
  it("is null for a product that qualifies", () => expect(notQualifyingReason(1900)).toBeNull());
});

describe("glitchSpread: Amazon price - cost - shipping", () => {
  it("computes the spread and its share of the Amazon price", () => {
    expect(glitchSpread({ amazonPriceCents: 4999, costCents: 820, shippingCents: 300 })).toEqual({
      spreadCents: 3879,
      spreadPercent: 78, // 77.6% rounds to 78
      hasSpread: true,
    });
  });

  it("a zero spread is no glitch", () => {
    expect(glitchSpread({ amazonPriceCents: 1900, costCents: 1500, shippingCents: 400 })).toEqual({
      spreadCents: 0,
      spreadPercent: 0,
      hasSpread: false,
    });
  });

  it("a negative spread stays negative, rounded away from zero", () => {
    expect(glitchSpread({ amazonPriceCents: 2000, costCents: 1900, shippingCents: 199 })).toEqual({
      spreadCents: -99,
      spreadPercent: -5, // -4.95% -> -5
      hasSpread: false,
    });
  });

  it("half a percent rounds up", () => {
    // 1 cent of 200 = 0.5%
    expect(glitchSpread({ amazonPriceCents: 200, costCents: 199, shippingCents: 0 }).spreadPercent).toBe(1);
  });

  it("refuses amounts that are not whole cents, and a zero Amazon price", () => {
    expect(() => glitchSpread({ amazonPriceCents: 19.5, costCents: 0, shippingCents: 0 })).toThrow(
      "amazonPriceCents must be whole cents, got 19.5",
    );
    expect(() => glitchSpread({ amazonPriceCents: 1900, costCents: 1, shippingCents: 0.1 })).toThrow(
      "shippingCents must be whole cents",
    );
    expect(() => glitchSpread({ amazonPriceCents: 0, costCents: 0, shippingCents: 0 })).toThrow(
      "amazonPriceCents must be positive, got 0",
    );
  });
});

describe("spreadExplanation", () => {
  it("shows how the spread was computed, with shipping as an estimate", () => {
    expect(spreadExplanation({ amazonPriceCents: 4999, costCents: 820, shippingCents: 300 })).toBe(
      "Amazon $49.99 − cost $8.20 − shipping $3.00 (estimate) = $38.79, 78% of Amazon price",
    );
  });
  it("writes thousands as the product screens do", () => {
    expect(spreadExplanation({ amazonPriceCents: 249_999, costCents: 1200, shippingCents: 300 })).toBe(
      "Amazon $2,499.99 − cost $12.00 − shipping $3.00 (estimate) = $2,484.99, 99% of Amazon price",
    );
  });
  it("writes a negative spread with its sign", () => {
    expect(spreadExplanation({ amazonPriceCents: 2000, costCents: 1900, shippingCents: 199 })).toBe(
      "Amazon $20.00 − cost $19.00 − shipping $1.99 (estimate) = −$0.99, -5% of Amazon price",
    );
  });
});

describe("glitchRevealKey", () => {
  it("is the same for the same user and product, and differs otherwise", () => {
    expect(glitchRevealKey("u1", "p1")).toBe(glitchRevealKey("u1", "p1"));
    expect(glitchRevealKey("u1", "p1")).not.toBe(glitchRevealKey("u1", "p2"));
    expect(glitchRevealKey("u1", "p1")).not.toBe(glitchRevealKey("u2", "p1"));
  });
});

describe("parseGlitchListQuery", () => {
  const parse = (query: string) => parseGlitchListQuery(new URLSearchParams(query));

  it("defaults to the first page and ignores other parameters", () => {
    expect(parse("")).toEqual({ page: 1 });
    expect(parse("page=")).toEqual({ page: 1 });
    expect(parse("page=3&uid=abc&shop=x.myshopify.com")).toEqual({ page: 3 });
    expect(parse("page=500")).toEqual({ page: 500 });
  });

  it.each([
    ["page=abc", 'page: "abc" is not a whole number'],
    ["page=1.5", 'page: "1.5" is not a whole number'],
    ["page=-1", 'page: "-1" is not a whole number'],
    ["page=0", "page: must be at least 1"],
    ["page=501", "page: must be at most 500"],
    ["page=1&page=2", "page: give it once"],
  ])("%s -> %s", (query, message) => {
    expect(() => parse(query)).toThrow(message);
    try {
      parse(query);
    } catch (error) {
      expect((error as { param: string }).param).toBe("page");
    }
  });
});

describe("glitchModeAccess", () => {
  it("paid states may reveal", () => {
    for (const user of [
      { userSubscribed: "yes" },
      { userSubscribed: "yes", trialing: true },
      { innerCircle: true },
      { userSubscribed: "yes", claimedDiscount: true },
    ]) {
      expect(glitchModeAccess(user)).toEqual({ list: true, reveal: true, lockedReason: null });
    }
  });

  it("everyone else sees the list but may not reveal, and is told why", () => {
    for (const user of [{}, { userSubscribed: "no" }, { userSubscribed: "no", trialing: true }, { extendedTrial: true }]) {
      const access = glitchModeAccess(user);
      expect(access.reveal).toBe(false);
      expect(access.list).toBe(true);
      expect(access.lockedReason).toMatch(/start your free trial to reveal glitches/);
    }
  });
});
