import { describe, expect, it } from "vitest";
import { embeddedTwin } from "~/domain/embedded-paths";

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
    // The dashboard's own ?location=dashboard means nothing inside the admin.
    ["/dashboard?location=dashboard", "/app"],
    ["/dashboard?location=dashboard#community", "/app#community"],
  ])("%s -> %s", (site, embedded) => expect(embeddedTwin(site)).toBe(embedded));

  it.each([
    // No twin in the embedded app.
    "/dashboard/feedback",
    "/dashboard/operator",
    "/dashboard/billing/extra",
    "/dashboard/x",
    // Not a path of ours.
    "https://example.com/dashboard",
    "//evil.example/dashboard",
    "dashboard/products",
    "/pay?plan=pro&billing=monthly",
  ])("%s has no embedded twin", (path) => expect(embeddedTwin(path)).toBeNull());
});
