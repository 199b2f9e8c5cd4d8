// The dashboard's navigation is plain markup with sprite icons in place of Polaris's <Navigation> (decision
// 039): it must stay exactly what Polaris writes for the same items, icon for icon, so it looks and behaves
// the same; and the sprite must hold the paths @shopify/polaris-icons draws today.
import { readFileSync } from "node:fs";
import * as icons from "@shopify/polaris-icons";
import { Frame, Navigation } from "@shopify/polaris";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { StaticRouter } from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import { iconSprite, SPRITE_FILE } from "../../../scripts/icon-sprite";
import { DashboardNav, type DashboardNavItem } from "~/ui/shared/dashboard-nav";
import { SPRITE_ICONS } from "~/ui/shared/sprite-icon-names";
import { PolarisProvider } from "~/ui/shared/site-shell";

const ITEMS: DashboardNavItem[] = [
  { label: "Overview", icon: "HomeIcon", url: "/dashboard?location=dashboard", selected: false },
  { label: "Products", icon: "ProductIcon", url: "/dashboard/products", selected: true },
  { label: "Saved", icon: "HeartIcon", url: "/dashboard/saved", selected: false },
  { label: "Billing & credits", icon: "CreditCardIcon", url: "/dashboard/billing", selected: false },
];

/** The <nav> a page renders inside the dashboard's Frame, at `pathname`. */
function navMarkup(navigation: ReturnType<typeof createElement>, pathname: string): string {
  const html = renderToStaticMarkup(
    createElement(
      StaticRouter,
      { location: pathname },
      createElement(PolarisProvider, null, createElement(Frame, { navigation }, "page")),
    ),
  );
  const nav = /<nav class="Polaris-Navigation"[\s\S]*<\/nav>/.exec(html)?.[0];
  if (!nav) throw new Error(`no navigation in ${html.slice(0, 200)}`);
  return nav;
}

/** Each sprite group's paths, by the name of its icon. */
const spriteGroups = new Map(
  [...iconSprite().matchAll(/<g id="(\w+)">(.*?)<\/g>/g)].map(([, name, paths]) => [paths, name] as const),
);

/** The markup with each icon written as its name: inline paths (Polaris) and a sprite reference (ours) alike. */
function iconsByName(html: string): string {
  return html.replace(/(<svg [^>]*>)(.*?)(<\/svg>)/g, (_all, open: string, inner: string, close: string) => {
    const used = /^<use href="[^"#]*#(\w+)"><\/use>$/.exec(inner)?.[1];
    return `${open}${used ?? spriteGroups.get(inner) ?? `unknown icon ${inner.slice(0, 40)}`}${close}`;
  });
}

describe("the dashboard's navigation", () => {
  it("writes what Polaris's Navigation writes for the same items, with the icons from the sprite", () => {
    const polaris = createElement(
      Navigation,
      { location: "/dashboard/products" },
      createElement(Navigation.Section, {
        items: ITEMS.map((item) => ({ ...item, icon: icons[item.icon] })),
      }),
    );
    const ours = createElement(DashboardNav, { items: ITEMS, pathname: "/dashboard/products", onDismiss: () => {} });
    const oursHtml = navMarkup(ours, "/dashboard/products");
    expect(oursHtml).toMatch(/<use href="[^"]*icons[^"]*\.svg#ProductIcon">/);
    expect(oursHtml).not.toContain("<path");
    expect(iconsByName(oursHtml)).toBe(iconsByName(navMarkup(polaris, "/dashboard/products")));
  });

  it("has every icon it names in the sprite, with the paths the icon package draws", () => {
    expect(readFileSync(SPRITE_FILE, "utf8")).toBe(iconSprite());
    for (const name of SPRITE_ICONS) expect(iconSprite()).toContain(`<g id="${name}">`);
  });
});
