// Issue 35 (small things): a trend chart's table for screen readers is captioned once with its unit: "Orders per
// day", not "Orders per day, per day"; a label without the unit gets it.
import { AppProvider } from "@shopify/polaris";
import enTranslations from "@shopify/polaris/locales/en.json";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { TrendChart } from "~/ui/shared/trend-chart";

function captions(series: { label: string; values: number[]; color: string }[]): string[] {
  const html = renderToString(createElement(AppProvider, { i18n: enTranslations }, createElement(TrendChart, { startDay: "2026-11-01", series })));
  return [...html.replace(/<!-- -->/g, "").matchAll(/<caption>([^<]*)<\/caption>/g)].map((m) => m[1]);
}

describe("a trend chart's table caption", () => {
  it("says 'per day' once", () => {
    expect(captions([{ label: "Orders per day", values: [1, 2, 3], color: "#0b6e4f" }, { label: "Views", values: [4, 5, 6], color: "#2c6ecb" }])).toEqual([
      "Orders per day",
      "Views, per day",
    ]);
  });
});
