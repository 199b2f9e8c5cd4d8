import { describe, expect, it } from "vitest";
import { embeddedTwin, sitePathOn } from "~/domain/shopify/embedded-paths";
import { researchPaths } from "~/ui/research/research-paths";

describe("embeddedTwin", () => {
  it.each([
    ["/dashboard/products?sort=winning-score&stage=rising", "/app/products?sort=winning-score&stage=rising"],
    ["/dashboard/products?q=winter&sort=trending", "/app/products?q=winter&sort=trending"],
    ["/dashboard/products/abc%20123", "/app/products/abc%20123"],
    ["/dashboard/billing", "/app/billing"],
    ["/dashboard/course", "/app/course"],
    ["/dashboard/course/12", "/app/course/12"],
    ["/dashboard/account", "/app/settings"],
    ["/dashboard/stores", "/app/stores"],
    ["/dashboard/saved", "/app/saved"],
    ["/dashboard/product-pages", "/app/product-pages"],
    ["/dashboard/product-pages?page=12", "/app/product-pages?page=12"],
    ["/dashboard/ai-ads?product=p-1", "/app/ai-ads?product=p-1"],
    ["/dashboard/glitch-mode?page=2", "/app/glitch-mode?page=2"],
    ["/dashboard/competitors", "/app/competitors"],
    // A notification's link to a followed store opens its page inside the admin too.
    ["/dashboard/competitors/42", "/app/competitors/42"],
    ["/dashboard/competitors/42?check=7", "/app/competitors/42?check=7"],
    // Plans are chosen on the embedded Billing & credits page.
    ["/choose-plan", "/app/billing"],
    // The dashboard's own ?location=dashboard means nothing inside the admin.
    ["/dashboard?location=dashboard", "/app"],
    ["/dashboard?location=dashboard#community", "/app#community"],
  ])("%s -> %s", (site, embedded) => expect(embeddedTwin(site)).toBe(embedded));

  it.each([
    // No twin in the embedded app.
    "/dashboard/feedback",
    "/dashboard/operator",
    "/dashboard/billing/extra",
    "/dashboard/product-pages/3",
    "/dashboard/x",
    "/dashboard/competitorsx",
    // Not a path of ours.
    "https://example.com/dashboard",
    "//evil.example/dashboard",
    "dashboard/products",
    "/pay?plan=pro&billing=monthly",
  ])("%s has no embedded twin", (path) => expect(embeddedTwin(path)).toBeNull());
});

describe("sitePathOn", () => {
  it("keeps a site path on the site and gives its twin in the embedded app", () => {
    expect(sitePathOn("site", "/dashboard/product-pages")).toBe("/dashboard/product-pages");
    expect(sitePathOn("embedded", "/dashboard/product-pages")).toBe("/app/product-pages");
  });

  it("refuses a page the embedded app does not have, rather than link out of it", () => {
    expect(() => sitePathOn("embedded", "/dashboard/feedback")).toThrow(
      "/dashboard/feedback has no page in the embedded app",
    );
  });
});

describe("researchPaths", () => {
  it.each([
    [
      "site" as const,
      {
        products: "/dashboard/products",
        product: "/dashboard/products/a%20b%2Fc",
        saved: "/dashboard/saved",
        upgrade: "/choose-plan",
        billing: "/dashboard/billing",
        credits: "/dashboard/billing#buy-credits",
        productPages: "/dashboard/product-pages",
        aiAds: "/dashboard/ai-ads",
        glitchMode: "/dashboard/glitch-mode",
      },
    ],
    // Inside Shopify admin every page stays under /app.
    [
      "embedded" as const,
      {
        products: "/app/products",
        product: "/app/products/a%20b%2Fc",
        saved: "/app/saved",
        upgrade: "/app/billing",
        billing: "/app/billing",
        credits: "/app/billing#buy-credits",
        productPages: "/app/product-pages",
        aiAds: "/app/ai-ads",
        glitchMode: "/app/glitch-mode",
      },
    ],
  ])("on the %s", (surface, expected) => {
    const paths = researchPaths(surface);
    expect({ ...paths, product: paths.product("a b/c") }).toEqual(expected);
  });
});
