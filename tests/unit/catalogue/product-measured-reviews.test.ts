// The measured product page's reviews (decision 094), rendered as the server renders it: the figure as measured with
// its day and stores, the reviews gained in 30 days, a Reviews column in the listings; without review data, "No
// review data" and why, never 0.
import { AppProvider } from "@shopify/polaris";
import enTranslations from "@shopify/polaris/locales/en.json";
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { figure } from "~/domain/catalogue/measured-product";
import { MeasuredFigures, MeasuredListings } from "~/ui/research/product-measured";

type FiguresProps = Parameters<typeof MeasuredFigures>[0];
type Offers = Parameters<typeof MeasuredListings>[0]["offers"];

const render = (element: ReactElement) => renderToStaticMarkup(createElement(AppProvider, { i18n: enTranslations }, element));
const f = <T,>(value: T, asOf = "2026-12-02") => figure(value, true, asOf);

const figures = {
  storesSelling: f(3),
  storesAdded7d: f(1),
  storesAdded30d: f(3),
  firstSeenAt: f("2026-11-25T10:00:00.000Z"),
} as unknown as FiguresProps["figures"];

function signals(reviews: boolean): FiguresProps["signals"] {
  return {
    storesDropped7d: f(0),
    priceMinCents: f(null),
    priceMedianCents: f(null),
    priceMaxCents: f(null),
    outOfStock: f(0),
    restocked30d: f(0),
    reviews: reviews ? f(1382) : null,
    reviewsGained7d: reviews ? f(38) : null,
    reviewsGained30d: reviews ? f(38) : null,
    reviewStores: reviews ? 3 : 0,
  } as unknown as FiguresProps["signals"];
}

const offer = (store: string, reviews: number | null) => ({
  store,
  url: `https://${store}/products/fan`,
  title: "Neck fan",
  priceCents: 1999,
  currency: "USD",
  available: true,
  firstSeenAt: "2026-11-25T10:00:00.000Z",
  reviews,
  reviewsAsOf: reviews === null ? null : "2026-12-02",
  reviewsNote: reviews === null ? "No review data: its page publishes no structured data (schema.org JSON-LD)." : null,
});

describe("the measured product page's reviews", () => {
  it("shows the summed reviews as measured with their day, and the reviews gained in 30 days", () => {
    const html = render(createElement(MeasuredFigures, { figures, signals: signals(true), currency: "USD" }));
    expect(html).toContain("1,382 across 3 stores");
    expect(html).toContain("+38");
    expect(html).toMatch(/Measured · [^<]*2026|Measured · [^<]*Dec/);
    expect(html).not.toContain("No review data");
  });

  it("says 'No review data' and why, never 0, when no store publishes a count", () => {
    const html = render(createElement(MeasuredFigures, { figures, signals: signals(false), currency: "USD" }));
    expect(html).toContain("No review data");
    expect(html).toContain("None of its stores publishes a review count on its product page");
    expect(html).not.toMatch(/>0 across/);
  });

  it("lists each store's reviews beside its listing, or 'No review data'", () => {
    const html = render(createElement(MeasuredListings, { offers: [offer("alpha.test", 130), offer("bravo.test", null)] as unknown as Offers }));
    expect(html).toContain("Reviews");
    expect(html).toContain("130 (");
    expect(html).toContain("No review data");
  });
});
