// With the app's install link configured (SHOPIFY_APP_INSTALL_URL), the Stores page offers it as
// "Install on Shopify" next to the store-address form, and the push panel offers it too
// (docs/decisions/029).
import { describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.SHOPIFY_APP_INSTALL_URL = "https://apps.shopify.com/winning-products-test";
});

import { parseEnv } from "~/env.server";
import { loader as productPagesLoader } from "~/routes/dashboard.product-pages";
import { action as storesAction, loader as storesLoader } from "~/routes/dashboard.stores";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";
import { TEST_ENV } from "../../helpers/test-env";

describe("/dashboard/stores with an install link", () => {
  it("offers the configured link on the Stores page and in the push panel", async () => {
    const me = await createSignedInUser();
    const stores = await (await call(storesLoader, "/dashboard/stores", { cookie: me.cookie })).json();
    expect(stores.install).toEqual({ available: true, installUrl: "https://apps.shopify.com/winning-products-test" });
    const pages = await (await call(productPagesLoader, "/dashboard/product-pages", { cookie: me.cookie })).json();
    expect(pages.install).toEqual(stores.install);
  });

  it("still takes a store's address", async () => {
    const me = await createSignedInUser();
    const res = await call(storesAction, "/dashboard/stores", { cookie: me.cookie, form: { shop: "linkstore" } });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toMatch(/^https:\/\/admin\.shopify\.com\/store\/linkstore\/oauth\/install\?client_id=/);
  });

  it("refuses an install link that is not https at start-up", () => {
    expect(() => parseEnv({ ...TEST_ENV, SHOPIFY_APP_INSTALL_URL: "http://apps.shopify.com/x" })).toThrow(
      /SHOPIFY_APP_INSTALL_URL must be an https:\/\/ link/,
    );
    expect(() => parseEnv({ ...TEST_ENV, SHOPIFY_APP_INSTALL_URL: "javascript:alert(1)" })).toThrow(/SHOPIFY_APP_INSTALL_URL/);
  });
});
