// The product page's profit calculator, rendered as the server sends it: a product priced in another currency
// (decision 059) never has its price read as dollars; the field starts empty and asks for a dollar price.
import { AppProvider } from "@shopify/polaris";
import enTranslations from "@shopify/polaris/locales/en.json";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ProfitCalculator, type ProfitDefaults } from "~/ui/landed-cost/profit-calculator";

function render(defaults: ProfitDefaults): string {
  return renderToString(createElement(AppProvider, { i18n: enTranslations }, createElement(ProfitCalculator, { defaults })));
}

/** The value of the input labelled "Selling price". */
function sellingPrice(html: string): string {
  const id = /<label[^>]*for="([^"]+)"[^>]*>(?:<span[^>]*>)?Selling price</.exec(html)?.[1];
  expect(id, "the Selling price field").toBeTruthy();
  const input = new RegExp(`<input[^>]*id="${id}"[^>]*>`).exec(html)?.[0] ?? "";
  return /value="([^"]*)"/.exec(input)?.[1] ?? "";
}

describe("ProfitCalculator", () => {
  it("fills a dollar product's price in and works out its profit", () => {
    const html = render({ priceCents: 2500, costCents: 640, shippingCents: 450, priceCurrency: null });
    expect(sellingPrice(html)).toBe("25.00");
    expect(html).not.toContain("Add your price in dollars");
    expect(html).toContain("Profit per order");
  });

  it("leaves a euro product's price empty and asks for a dollar price instead of reading 25.00 EUR as $25.00", () => {
    const html = render({ priceCents: 2500, costCents: 640, shippingCents: 450, priceCurrency: "EUR" });
    expect(sellingPrice(html)).toBe("");
    expect(html).toContain("Add your price in dollars");
    expect(html).toContain("The stores sell it in EUR: type your selling price in US dollars");
    expect(html).not.toContain("Profit per order");
  });
});
