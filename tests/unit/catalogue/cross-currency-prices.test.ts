// Prices compared across stores (decision 089): one currency as listed, two known currencies in US dollars at a
// dated reference rate, unknown currencies only within one store; the product's median in its most common known
// currency with the others converted; every converted figure says its rate's date. Rounding is convertCents'
// (half-up to the cent, tests/unit/catalogue/exchange-rates.test.ts); here, where a rounded figure lands.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decidePair, pairMatches, type ListingForMatch } from "~/domain/catalogue/match";
import { centsIn, pricePairClause, priceRatio, productPrice, usdCentsOf } from "~/domain/catalogue/prices";
import { foldVendor, titlePairReason } from "~/domain/catalogue/title-placement";
import { normaliseTitle } from "~/domain/catalogue/title";
import type { RateTable } from "~/domain/landed-cost/exchange-rates";

const TABLE: RateTable = {
  source: "European Central Bank, euro foreign exchange reference rates",
  date: "2022-07-18",
  base: "EUR",
  rates: { USD: "1.0131", JPY: "140.16", GBP: "0.84708" },
};

function listing(id: number, cents: number | null, currency: string | null, storeId = id): ListingForMatch {
  const usdCents = usdCentsOf(cents, currency, TABLE);
  return { id, title: normaliseTitle("Bladeless neck fan portable"), priceCents: cents, currency, storeId, usdCents, ...(usdCents !== null && currency !== "USD" ? { rateDate: TABLE.date } : {}) };
}

describe("usdCentsOf and centsIn", () => {
  it("converts at the table's rate, half-up to the cent, and never an unknown currency or one without a rate", () => {
    expect(usdCentsOf(2000, "EUR", TABLE)).toBe(2026); // 2026.2
    expect(usdCentsOf(2150, "USD", TABLE)).toBe(2150);
    expect(usdCentsOf(2000, null, TABLE)).toBeNull();
    expect(usdCentsOf(2000, "VES", TABLE)).toBeNull();
    expect(usdCentsOf(null, "EUR", TABLE)).toBeNull();
    // 1000 GBP cents = 1000 / 0.84708 * 1.0131 = 1195.99... USD cents
    expect(centsIn(1000, "GBP", "USD", TABLE)).toBe(1196);
    expect(centsIn(1000, null, null, TABLE)).toBe(1000);
    expect(centsIn(1000, "EUR", null, TABLE)).toBeNull();
  });
});

describe("priceRatio", () => {
  it("compares 20 EUR with 21.50 USD in dollars at the rate (a similar price) and refuses 20 EUR against 80 USD", () => {
    expect(priceRatio(listing(1, 2000, "EUR"), listing(2, 2150, "USD"))).toBeCloseTo(2150 / 2026, 6);
    expect(priceRatio(listing(1, 2000, "EUR"), listing(2, 8000, "USD"))).toBeCloseTo(8000 / 2026, 6);
  });

  it("compares one currency as listed", () => {
    expect(priceRatio(listing(1, 2000, "EUR"), listing(2, 5000, "EUR"))).toBe(2.5);
  });

  it("compares two unknown currencies only within one store, and never an unknown with a known one or a currency without a rate", () => {
    expect(priceRatio(listing(1, 900, null, 7), listing(2, 9000, null, 7))).toBe(10);
    expect(priceRatio(listing(1, 900, null, 7), listing(2, 9000, null, 8))).toBe(0);
    expect(priceRatio(listing(1, 900, null), listing(2, 9000, "USD"))).toBe(0);
    expect(priceRatio(listing(1, 900, "VES"), listing(2, 9000, "USD"))).toBe(0);
    expect(priceRatio(listing(1, null, "USD"), listing(2, 9000, "USD"))).toBe(0);
  });

  it("is symmetric and never below 1 when it compares (property)", () => {
    const currency = fc.constantFrom("USD", "EUR", "JPY", "GBP", null);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), currency, fc.integer({ min: 1, max: 10_000_000 }), currency, fc.boolean(), (x, cx, y, cy, sameStore) => {
        const a = listing(1, x, cx, 1);
        const b = listing(2, y, cy, sameStore ? 1 : 2);
        const r = priceRatio(a, b);
        expect(r).toBe(priceRatio(b, a));
        expect(r === 0 || r >= 1).toBe(true);
      }),
    );
  });
});

describe("the match rules with prices in two currencies", () => {
  it("match 20 EUR and 21.50 USD, saying the conversion and its rate's date", () => {
    const d = decidePair(listing(1, 2000, "EUR"), listing(2, 2150, "USD"), 0);
    expect(d.match).toBe(true);
    expect(d.reason).toContain("20.00 EUR and $21.50 (20.00 EUR is $20.26 at the reference rate of 2022-07-18)");
    expect(d.evidence).toMatchObject({ prices: [2000, 2150], currency: null, currencies: ["EUR", "USD"], usd: [2026, 2150], rateDate: "2022-07-18" });
    expect(pairMatches(listing(1, 2000, "EUR"), listing(2, 2150, "USD"), 0)).toBe(true);
  });

  it("keep 20 EUR and 80 USD apart: prices too far apart once converted", () => {
    const d = decidePair(listing(1, 2000, "EUR"), listing(2, 8000, "USD"), 0);
    expect(d.match).toBe(false);
    expect(d.reason).toContain("prices too far apart (3.9x)");
    expect(pairMatches(listing(1, 2000, "EUR"), listing(2, 8000, "USD"), 0)).toBe(false);
  });

  it("leave the price out of two stores' unknown currencies (neither for nor against), and say so", () => {
    const d = decidePair(listing(1, 900, null, 1), listing(2, 9000, null, 2), 0);
    expect(d.match).toBe(true);
    expect(d.reason).toContain("9.00 (currency unknown) and 90.00 (currency unknown): not compared, neither store publishes its currency");
    // Within one store the amounts are in one currency, whatever it is: compared.
    expect(decidePair(listing(1, 900, null, 1), listing(2, 9000, null, 1), 0).match).toBe(false);
  });

  it("say why a price in a currency with no reference rate was not compared", () => {
    expect(pricePairClause(listing(1, 2000, "VES"), listing(2, 2150, "USD"))).toBe("20.00 VES and $21.50: not compared, no reference rate for VES");
    expect(pricePairClause(listing(1, 2000, null), listing(2, 2150, "USD"))).toBe("20.00 (currency unknown) and $21.50: not compared, one store publishes no currency");
  });

  it("apply the same conversion to listings placed on their titles (no picture)", () => {
    const t = (l: ListingForMatch) => ({ ...l, vendor: foldVendor("Acme") });
    expect(titlePairReason(t(listing(1, 2000, "EUR")), t(listing(2, 2150, "USD")))).toContain("at the reference rate of 2022-07-18");
    expect(titlePairReason(t(listing(1, 2000, "EUR")), t(listing(2, 8000, "USD")))).toBeNull();
  });
});

describe("productPrice", () => {
  it("takes the median in the most common known currency, converting the others, and says the rate's date", () => {
    const p = productPrice(
      [
        { priceCents: 2000, currency: "EUR" },
        { priceCents: 2400, currency: "EUR" },
        { priceCents: 2150, currency: "USD" }, // 2122.1... EUR cents -> 2122
      ],
      TABLE,
    );
    expect(p).toEqual({ cents: 2122, currency: "EUR", usdCents: 2150, rateDate: "2022-07-18", leftOut: 0 });
  });

  it("leaves out a listing of unknown currency or without a rate when others are known, and counts them", () => {
    const p = productPrice(
      [
        { priceCents: 1500, currency: "USD" },
        { priceCents: 9900, currency: null },
        { priceCents: 4000, currency: "VES" },
        { priceCents: null, currency: "USD" },
      ],
      TABLE,
    );
    expect(p).toEqual({ cents: 1500, currency: "USD", usdCents: 1500, rateDate: null, leftOut: 2 });
  });

  it("keeps amounts of unknown currency as they are, never in dollars", () => {
    expect(productPrice([{ priceCents: 900, currency: null }, { priceCents: 1100, currency: null }], TABLE)).toEqual({ cents: 1000, currency: null, usdCents: null, rateDate: null, leftOut: 0 });
    expect(productPrice([], TABLE)).toEqual({ cents: null, currency: null, usdCents: null, rateDate: null, leftOut: 0 });
  });

  it("converts a median in one foreign currency into dollars only for the filter, dated", () => {
    expect(productPrice([{ priceCents: 2500, currency: "EUR" }], TABLE)).toEqual({ cents: 2500, currency: "EUR", usdCents: 2533, rateDate: "2022-07-18", leftOut: 0 });
    expect(productPrice([{ priceCents: 2500, currency: "EUR" }], null)).toEqual({ cents: 2500, currency: "EUR", usdCents: null, rateDate: null, leftOut: 0 });
  });
});
