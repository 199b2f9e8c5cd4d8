// With the Shopify app off (SHOPIFY_APP=off, the default of `npm start` without Shopify keys), the
// Stores page and the push panel say in plain words that connecting a store is not set up on this
// server, with no install button and no form that leads nowhere; a form posted anyway answers 409 with
// the same sentence (docs/decisions/029). Inside Shopify admin the refusal names no setting either.
import { describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.SHOPIFY_APP = "off";
  process.env.SHOPIFY_APP_INSTALL_URL = "https://apps.shopify.com/winning-products-test";
});

import { NOT_SET_UP_MESSAGE } from "~/pages/shopify/install.server";
import { loader as embeddedStoresLoader } from "~/routes/app.stores";
import { loader as productPagesLoader } from "~/routes/dashboard.product-pages";
import { action as storesAction, loader as storesLoader } from "~/routes/dashboard.stores";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

describe("/dashboard/stores with SHOPIFY_APP=off", () => {
  it("says connecting a store is not set up here, and offers no install path", async () => {
    const me = await createSignedInUser();
    const stores = await (await call(storesLoader, "/dashboard/stores", { cookie: me.cookie })).json();
    expect(stores.install).toEqual({ available: false, message: NOT_SET_UP_MESSAGE });
    expect(NOT_SET_UP_MESSAGE).toMatch(/not set up on this server/);
    expect(NOT_SET_UP_MESSAGE).toMatch(/team that runs this Winning Products site can turn it on/);
    expect(NOT_SET_UP_MESSAGE).not.toMatch(/[A-Z]{2,}_[A-Z]|SHOPIFY|env/);
    const pages = await (await call(productPagesLoader, "/dashboard/product-pages", { cookie: me.cookie })).json();
    expect(pages.install).toEqual(stores.install);
  });

  it("answers a posted address with 409 and the same sentence, sending nobody to Shopify", async () => {
    const me = await createSignedInUser();
    const res = await call(storesAction, "/dashboard/stores", { cookie: me.cookie, form: { shop: "mystore" } });
    expect(res.status).toBe(409);
    expect(res.headers.get("location")).toBeNull();
    expect(await res.json()).toEqual({ installError: NOT_SET_UP_MESSAGE, shop: "mystore" });
  });

  it("inside Shopify admin, refuses with a sentence that names no setting", async () => {
    const res = await call(embeddedStoresLoader, "/app/stores?shop=x.myshopify.com");
    expect(res.status).toBe(404);
    const { error } = (await res.json()) as { error: string };
    expect(error).toBe("The Shopify app is not set up on this server. Use the Winning Products website instead.");
  });
});
