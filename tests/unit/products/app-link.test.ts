// AppLink (decision 072) writes what Remix's Link writes, attribute for attribute, for every kind of link the app
// renders: the plain in-app paths it writes itself and everything it hands to Remix's Link. How it follows a click
// is checked in a browser (tests/e2e/seller-nav.spec.ts).
import { Link, type LinkProps } from "@remix-run/react";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { StaticRouter } from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import { AppLink, isPlainAppPath } from "~/ui/shared/app-link";

function markup(component: typeof Link | typeof AppLink, props: LinkProps, at = "/dashboard/products?sort=trending"): string {
  return renderToStaticMarkup(createElement(StaticRouter, { location: at }, createElement(component, props, "a link")));
}

const CASES: [string, LinkProps][] = [
  ["a path", { to: "/dashboard/products" }],
  ["a path with a query and a fragment", { to: "/dashboard?location=dashboard#community" }],
  ["an empty query and fragment", { to: "/dashboard/products?#" }],
  ["an encoded product id", { to: "/dashboard/products/gen42-0001249%2Fx" }],
  [
    "Polaris's attributes (the navigation, a card's title)",
    { to: "/dashboard/saved", className: "Polaris-Navigation__Item", tabIndex: 0, "data-polaris-unstyled": "true" } as LinkProps,
  ],
  ["a label, an id and a title", { to: "/dashboard/course/3", "aria-label": "Lesson 3", id: "next", title: "Next lesson" }],
  ["another target", { to: "/legal/terms", target: "_blank" }],
  ["prefetch and discover at their defaults", { to: "/dashboard/drops", prefetch: "none", discover: "render" }],
  // Handed to Remix's Link:
  ["a relative path", { to: "lesson-2" }],
  ["a query only", { to: "?page=2" }],
  ["another site", { to: "https://example.com/x" }],
  ["a protocol-relative address", { to: "//example.com/x" }],
  ["an object", { to: { pathname: "/dashboard", search: "?a=1" } }],
  ["replace", { to: "/dashboard", replace: true }],
  ["reloadDocument", { to: "/dashboard", reloadDocument: true }],
  ["no discovery", { to: "/dashboard", discover: "none" }],
  ["prefetch on intent", { to: "/dashboard", prefetch: "intent" }],
];

describe("AppLink", () => {
  it.each(CASES)("writes what Remix's Link writes: %s", (_name, props) => {
    const remix = markup(Link, props);
    expect(remix).toContain("<a ");
    expect(markup(AppLink, props)).toBe(remix);
  });

  it("writes the same on the page it points at (where a click replaces the history entry)", () => {
    const props = { to: "/dashboard/products?sort=trending", className: "x" };
    expect(markup(AppLink, props, props.to)).toBe(markup(Link, props, props.to));
  });

  it("takes only paths written from the site's root as its own", () => {
    expect(["/dashboard", "/", "/a?b#c"].every(isPlainAppPath)).toBe(true);
    expect(["", "dashboard", "?a", "//host/x", "https://x.test/", "mailto:a@b.test", 3, null].some(isPlainAppPath)).toBe(false);
  });
});
