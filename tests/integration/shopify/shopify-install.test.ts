// The install path from the site to Shopify (docs/decisions/029) with the Shopify app on and no install
// link configured (the test environment): the Stores page offers the "Your store's address" form; a bad
// address answers 400 with a sentence (nothing else happens); a good one is sent (303) to Shopify's
// install page for our client id, the same URL the library's own login() sends a shop to. The push
// panel's loader offers the same path, and no message a seller sees names a setting.
import { describe, expect, it } from "vitest";
import { SHOP_DOMAIN_ERRORS } from "~/domain/shopify/install";
import { planMedia } from "~/domain/product-pages/product-page";
import { action as storesAction, loader as storesLoader } from "~/routes/dashboard.stores";
import { loader as productPagesLoader } from "~/routes/dashboard.product-pages";
import { login } from "~/shopify.server";
import { call, makeRequest } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";
import { TEST_SHOPIFY_API_KEY } from "../../helpers/test-env";

/** Where the library's login() (GET /auth/login?shop=) sends a shop. */
async function libraryInstallUrl(shop: string): Promise<string> {
  try {
    await login(makeRequest(`/auth/login?shop=${encodeURIComponent(shop)}`));
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.headers.get("location") ?? "";
    throw thrown;
  }
  throw new Error("login() did not redirect");
}

async function submit(cookie: string, shop: string | undefined) {
  return call(storesAction, "/dashboard/stores", {
    cookie,
    form: shop === undefined ? { intent: "install-shopify" } : { intent: "install-shopify", shop },
  });
}

describe("/dashboard/stores with the Shopify app on and no install link", () => {
  it("offers the store-address form (no install button) on the Stores page and in the push panel", async () => {
    const me = await createSignedInUser();
    const stores = await call(storesLoader, "/dashboard/stores", { cookie: me.cookie });
    expect(stores.status).toBe(200);
    const data = (await stores.json()) as { stores: unknown[]; install: unknown };
    expect(data.stores).toEqual([]);
    expect(data.install).toEqual({ available: true, installUrl: null });

    const pages = await call(productPagesLoader, "/dashboard/product-pages", { cookie: me.cookie });
    expect(((await pages.json()) as { install: unknown }).install).toEqual({ available: true, installUrl: null });
  });

  it.each([
    ["mystore", "mystore.myshopify.com"],
    ["MyStore.myshopify.com", "mystore.myshopify.com"],
    ["  https://my-store-2.myshopify.com/admin/products  ", "my-store-2.myshopify.com"],
    ["admin.shopify.com/store/mystore/settings", "mystore.myshopify.com"],
  ])("sends %j to Shopify's install page for our app, as the library's login() does", async (typed, shop) => {
    const me = await createSignedInUser();
    const res = await submit(me.cookie, typed);
    expect(res.status).toBe(303);
    const location = res.headers.get("location");
    expect(location).toBe(
      `https://admin.shopify.com/store/${shop.replace(".myshopify.com", "")}/oauth/install?client_id=${TEST_SHOPIFY_API_KEY}`,
    );
    expect(location).toBe(await libraryInstallUrl(shop));
  });

  it.each([
    [undefined, SHOP_DOMAIN_ERRORS.empty],
    ["   ", SHOP_DOMAIN_ERRORS.empty],
    ["my store", SHOP_DOMAIN_ERRORS.invalid],
    ["mystore.com", SHOP_DOMAIN_ERRORS.otherDomain],
    ["www.mystore.co.uk", SHOP_DOMAIN_ERRORS.otherDomain],
    ["evil.com/?x=.myshopify.com", SHOP_DOMAIN_ERRORS.otherDomain],
    ["user@mystore.myshopify.com", SHOP_DOMAIN_ERRORS.invalid],
    ["mystore.myshopify.com:8080", SHOP_DOMAIN_ERRORS.invalid],
    ["-mystore.myshopify.com", SHOP_DOMAIN_ERRORS.invalid],
    ["my_store", SHOP_DOMAIN_ERRORS.invalid],
    ["javascript:alert(1)", SHOP_DOMAIN_ERRORS.invalid],
    ["127.0.0.1", SHOP_DOMAIN_ERRORS.invalid],
    ["admin.shopify.com/settings", SHOP_DOMAIN_ERRORS.invalid],
    ["x".repeat(300), SHOP_DOMAIN_ERRORS.tooLong],
  ])("answers 400 with a sentence for %j and sends nobody anywhere", async (typed, error) => {
    const me = await createSignedInUser();
    const res = await submit(me.cookie, typed);
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    const body = (await res.json()) as { installError: string; shop: string };
    expect(body.installError).toBe(error);
    // The form keeps what was typed, so the seller can correct it.
    expect(body.shop).toBe((typed ?? "").slice(0, 255));
  });

  it("needs a signed-in user, and refuses a form posted by another site", async () => {
    const anonymous = await call(storesAction, "/dashboard/stores", { form: { intent: "install-shopify", shop: "mystore" } });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toMatch(/^\/(login|\?)/);

    const me = await createSignedInUser();
    const foreign = await call(storesAction, "/dashboard/stores", {
      cookie: me.cookie,
      form: { intent: "install-shopify", shop: "mystore" },
      headers: { origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
  });

  it("says in plain words why an image stored on this site is not sent, naming no setting", () => {
    const reason = planMedia(["/product-images/x.png"], null).skipped[0].reason;
    expect(reason).toBe("this site has no public URL yet, so Shopify cannot download images kept here");
    expect(reason).not.toMatch(/[A-Z]{2,}_[A-Z]/);
  });
});
