// Money whose currency is unknown is never written as dollars (issue 35, decision 084): the catalogue's match
// evidence, reasons kept from before, change sentences, the API's currency codes, and a store's product type
// mapped to a niche we know (or none), never a niche of its own.
import { describe, expect, it } from "vitest";
import { decidePair, evidenceMoney, type ClusterInput } from "~/domain/catalogue/match";
import { normaliseTitle } from "~/domain/catalogue/title";
import { describeChange } from "~/domain/competitors/insights";
import { matchReason, priceCurrencyCode, productPriceCurrency, UNKNOWN_CURRENCY } from "~/domain/catalogue/measured-product";
import { canonicalNiche, knownNiche, parseProductRow, storeProductNiche } from "~/domain/products/product-import";

const listing = (id: number, title: string, priceCents: number, currency: string | null): ClusterInput => ({
  id,
  title: normaliseTitle(title),
  priceCents,
  currency,
  pictureIsEvidence: true,
});

describe("match evidence", () => {
  it("writes dollars only for USD, the code for another currency, and 'currency unknown' for none", () => {
    expect(evidenceMoney(1999, "USD")).toBe("$19.99");
    expect(evidenceMoney(1999, "EUR")).toBe("19.99 EUR");
    expect(evidenceMoney(90000, null)).toBe("900.00 (currency unknown)");
    const unknown = decidePair(listing(1, "Brass diya lamp", 90000, null), listing(2, "Brass diya lamp", 95000, null), 0);
    expect(unknown.match).toBe(true);
    expect(unknown.reason).toContain("900.00 (currency unknown) and 950.00 (currency unknown)");
    expect(unknown.reason).not.toContain("$");
    expect(decidePair(listing(1, "Neck fan", 1999, "USD"), listing(2, "Neck fan", 2495, "USD"), 0).reason).toContain("$19.99 and $24.95");
  });

  it("a reason kept from before says 'currency unknown' where it wrote dollars for a store with no currency", () => {
    const old = JSON.stringify({ distance: 0, sharedWords: ["diya"], prices: [90000, 95000], currency: null, reason: "same picture: identical fingerprints; titles share diya; $900.00 and $950.00" });
    expect(matchReason("picture", old)).toBe("same picture: identical fingerprints; titles share diya; 900.00 (currency unknown) and 950.00 (currency unknown)");
    const dollars = JSON.stringify({ prices: [1999, 2495], currency: "USD", reason: "same picture; $19.99 and $24.95" });
    expect(matchReason("picture", dollars)).toBe("same picture; $19.99 and $24.95");
    const mixed = JSON.stringify({ prices: [1999, 2495], currency: null, reason: "same picture; prices in different currencies or unknown" });
    expect(matchReason("picture", mixed)).toBe("same picture; prices in different currencies or unknown");
  });
});

describe("change sentences", () => {
  it("say the currency is unknown rather than printing a bare amount", () => {
    const sentence = describeChange({
      kind: "price-change",
      product: { id: "1", handle: "h", title: "Diya" },
      window: { from: "2026-11-01T00:00:00Z", to: "2026-11-02T00:00:00Z" },
      variant: { id: "v", title: "Default Title", sku: null },
      currency: null,
      oldCents: 90000,
      newCents: 85000,
      direction: "down",
    });
    expect(sentence).toContain("900.00 (currency unknown)");
    expect(sentence).toContain("850.00 (currency unknown)");
  });
});

describe("currency codes", () => {
  it("Product.priceCurrency as the API's code: null is USD, XXX is null (unknown), others their own", () => {
    expect(priceCurrencyCode(null)).toBe("USD");
    expect(priceCurrencyCode(UNKNOWN_CURRENCY)).toBeNull();
    expect(priceCurrencyCode("EUR")).toBe("EUR");
  });

  it("a store's currency as an imported product's: USD is null, none is XXX, others their own", () => {
    expect(productPriceCurrency("USD")).toBeNull();
    expect(productPriceCurrency(null)).toBe(UNKNOWN_CURRENCY);
    expect(productPriceCurrency("EUR")).toBe("EUR");
    expect(priceCurrencyCode(productPriceCurrency(null))).toBeNull();
  });

  it("the import row takes an ISO code, dollars stored as null, and refuses anything else with a sentence", () => {
    const base = { objectID: "x", title: "X", description: "", niches: [], tags: [], images: [], costCents: null, priceCents: 2000, firstSeenAt: "2026-11-01", source: { kind: "tracked-store", store: "a.test", addedAt: "2026-11-01" } };
    const row = (priceCurrency: unknown) => parseProductRow({ ...base, priceCurrency });
    expect(row("EUR")).toMatchObject({ ok: true, row: { priceCurrency: "EUR", niches: [] } });
    expect(row("USD")).toMatchObject({ ok: true, row: { priceCurrency: null } });
    expect(row(undefined)).toMatchObject({ ok: true, row: { priceCurrency: null } });
    expect(row("XXX")).toMatchObject({ ok: true, row: { priceCurrency: "XXX" } });
    expect(row("euro")).toEqual({ ok: false, reason: expect.stringMatching(/^priceCurrency must be an ISO 4217 code/) });
    // A research row still needs a niche; only a tracked store's product may have none.
    const research = parseProductRow({ ...base, source: undefined, history: { startDay: "2026-11-01", orders: [1], revenueCents: [1], views: [1], likes: [1], comments: [1], shares: [1], storesSelling: [1] } });
    expect(research).toEqual({ ok: false, reason: "niches must name at least one niche" });
  });
});

describe("a store's product type as a niche", () => {
  it("is a known niche, from the type or else the tags, or none: the store's own words never become one", () => {
    expect(storeProductNiche("Dog Toys")).toBe("pets");
    expect(storeProductNiche("Pet supplies")).toBe("pets");
    expect(storeProductNiche("Kitchen")).toBe("kitchen");
    expect(storeProductNiche("Accessories", ["Nouveautés", "Dogs"])).toBe("pets");
    expect(storeProductNiche("Baume")).toBeNull();
    expect(storeProductNiche("Accessories")).toBeNull();
    expect(storeProductNiche("", ["Sale", "New"])).toBeNull();
    expect(storeProductNiche("Baume", ["Baume"])).toBeNull();
    // The research import keeps its own rule: a niche we do not know keeps its slug there.
    expect(knownNiche("Baume")).toBeNull();
    expect(canonicalNiche("Baume")).toBe("baume");
  });
});
