// The product trend chart (app/ui/shared/trend-chart.tsx) writes its per-day layers as markup text (decision 039's load
// work): each day's hover title and hidden-table row must say what the React elements said, escaped, and the
// hand-written day label must be Intl's en-US short month and day in UTC for every day.
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { dayLabel, TrendChart } from "~/ui/shared/trend-chart";

const render = (values: number[], format?: (n: number) => string) =>
  renderToString(createElement(TrendChart, { startDay: "2026-02-27", series: [{ label: "Orders per day", values, color: "#123456", format }] }));

describe("the trend chart", () => {
  it("gives every day a hover title and a hidden-table row, in order", () => {
    const html = render([3, 1234, 0]);
    expect([...html.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1])).toEqual(["Feb 27: 3", "Feb 28: 1,234", "Mar 1: 0"]);
    expect([...html.matchAll(/<tr><th scope="row">([^<]*)<\/th><td>([^<]*)<\/td><\/tr>/g)].map((m) => `${m[1]} ${m[2]}`)).toEqual([
      "2026-02-27 3",
      "2026-02-28 1,234",
      "2026-03-01 0",
    ]);
    // One hover area a day across the plot, each as wide as a day's slot.
    expect(html.match(/<rect [^>]*fill="transparent"/g)).toHaveLength(3);
  });

  it("escapes what a figure's format writes", () => {
    const html = render([1], () => `<b>"1" & 'one'</b>`);
    expect(html).not.toContain("<b>");
    expect(html).toContain("&lt;b&gt;&quot;1&quot; &amp; &#39;one&#39;&lt;/b&gt;");
  });

  it("labels days exactly as Intl's en-US short month and day in UTC", () => {
    const intl = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", month: "short", day: "numeric" });
    for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += 86_400_000) {
      expect(dayLabel(new Date(t))).toBe(intl.format(new Date(t)));
    }
  });

  it("says there is no history when no series has a day", () => {
    expect(render([])).toContain("No daily history yet.");
  });
});
