// What a seller types as their store's address becomes one myshopify.com domain or a sentence; the
// install URL is Shopify admin's install page for our client id (docs/decisions/029).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isMyshopifyDomain, MyshopifyDomainSchema, normaliseShopDomain, SHOP_DOMAIN_ERRORS, shopifyInstallUrl } from "~/domain/shopify/install";

describe("normaliseShopDomain", () => {
  it.each([
    ["mystore", "mystore.myshopify.com"],
    ["MYSTORE", "mystore.myshopify.com"],
    ["mystore.myshopify.com", "mystore.myshopify.com"],
    ["mystore.myshopify.com.", "mystore.myshopify.com"],
    ["https://mystore.myshopify.com/", "mystore.myshopify.com"],
    ["http://mystore.myshopify.com/products/x?y=1", "mystore.myshopify.com"],
    ["https://admin.shopify.com/store/my-store-9/orders", "my-store-9.myshopify.com"],
  ])("%j -> %s", (typed, shop) => {
    expect(normaliseShopDomain(typed)).toEqual({ ok: true, shop });
  });

  it.each([
    ["", SHOP_DOMAIN_ERRORS.empty],
    [42, SHOP_DOMAIN_ERRORS.empty],
    ["mystore.com", SHOP_DOMAIN_ERRORS.otherDomain],
    ["shop.mystore.myshopify.com.evil.com", SHOP_DOMAIN_ERRORS.otherDomain],
    ["my store", SHOP_DOMAIN_ERRORS.invalid],
    ["mystore-.myshopify.com", SHOP_DOMAIN_ERRORS.invalid],
    [".myshopify.com", SHOP_DOMAIN_ERRORS.invalid],
    ["a.b.myshopify.com", SHOP_DOMAIN_ERRORS.invalid],
    ["ftp://mystore.myshopify.com", SHOP_DOMAIN_ERRORS.invalid],
    ["mystore.myshopify.com@evil.com", SHOP_DOMAIN_ERRORS.invalid],
  ])("%j is refused", (typed, error) => {
    expect(normaliseShopDomain(typed)).toEqual({ ok: false, error });
  });

  it("only ever answers a handle.myshopify.com of letters, digits and hyphens", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (typed) => {
        const r = normaliseShopDomain(typed);
        if (r.ok) expect(r.shop).toMatch(/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/);
        else expect(Object.values(SHOP_DOMAIN_ERRORS)).toContain(r.error);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("shopifyInstallUrl", () => {
  it("is Shopify admin's install page for the client id", () => {
    expect(shopifyInstallUrl("mystore.myshopify.com", "abc123")).toBe(
      "https://admin.shopify.com/store/mystore/oauth/install?client_id=abc123",
    );
  });
});

describe("MyshopifyDomainSchema (an API body's shop)", () => {
  it("takes a myshopify.com domain, trimmed and lower-cased", () => {
    expect(MyshopifyDomainSchema.parse("  MyStore-2.MyShopify.com ")).toBe("mystore-2.myshopify.com");
    expect(isMyshopifyDomain("mystore-2.myshopify.com")).toBe(true);
    expect(isMyshopifyDomain("MyStore.myshopify.com")).toBe(false);
  });

  it.each(["mystore", "mystore.com", "-mystore.myshopify.com", "my_store.myshopify.com", "https://mystore.myshopify.com", "mystore.myshopify.com.evil.com", ""])(
    "refuses %j with the field's sentence",
    (typed) => {
      const result = MyshopifyDomainSchema.safeParse(typed);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0].message).toBe("must be a myshopify.com domain");
    },
  );
});
