import { describe, expect, it } from "vitest";
import { isSitePath, siteGuardRedirect } from "~/domain/accounts/site-guard";

function guard(url: string, user: { signedIn: boolean; hasSubscriptionId?: boolean }) {
  const { pathname, searchParams } = new URL(url, "https://winning-products.test");
  return siteGuardRedirect({
    pathname,
    searchParams,
    signedIn: user.signedIn,
    hasSubscriptionId: user.hasSubscriptionId ?? false,
  });
}

const anonymous = { signedIn: false };
const subscriber = { signedIn: true, hasSubscriptionId: true };
const signedInNoSubscription = { signedIn: true, hasSubscriptionId: false };

describe("siteGuardRedirect, anonymous visitor", () => {
  it.each([
    "/dashboard",
    "/dashboard/",
    "/dashboard/account",
    "/dashboard/x/y",
    "/pay",
    "/pay?plan=pro&billing=monthly",
    "/pay/anything",
  ])("%s is protected and goes to log in, then back to it", (url) =>
    expect(guard(url, anonymous)).toBe(`/?redirectTo=${encodeURIComponent(url)}`),
  );

  it.each([
    "/?location=checkout",
    "/choose-plan?location=checkout",
    "/signup?plan=pro&location=checkout",
    "/login?location=checkout",
  ])("%s (location=checkout) goes to the landing page", (url) => expect(guard(url, anonymous)).toBe("/"));

  it.each([
    "/",
    "/signup",
    "/login",
    "/choose-plan",
    "/?location=dashboard",
    "/dashboardx",
    "/payment",
    "/paywall",
    "/about/dashboard",
  ])("%s renders", (url) => expect(guard(url, anonymous)).toBeNull());

  it("checks the location parameter by exact value", () => {
    expect(guard("/?location=Checkout", anonymous)).toBeNull();
    expect(guard("/?location=checkout-page", anonymous)).toBeNull();
    expect(guard("/?other=checkout", anonymous)).toBeNull();
  });
});

describe("siteGuardRedirect, signed-in user", () => {
  it.each(["/?location=checkout", "/choose-plan?location=checkout", "/pay?plan=pro&billing=monthly&location=checkout"])(
    "with a subscription_id, %s goes to the dashboard",
    (url) => expect(guard(url, subscriber)).toBe("/dashboard?location=dashboard"),
  );

  it.each(["/?location=checkout", "/choose-plan?location=checkout", "/pay?location=checkout"])(
    "without a subscription_id, %s renders (they are on their way to pay)",
    (url) => expect(guard(url, signedInNoSubscription)).toBeNull(),
  );

  it.each(["/dashboard", "/dashboard/account", "/pay?plan=pro&billing=monthly", "/", "/choose-plan"])(
    "%s renders whether or not they have a subscription_id",
    (url) => {
      expect(guard(url, subscriber)).toBeNull();
      expect(guard(url, signedInNoSubscription)).toBeNull();
    },
  );
});

describe("paths outside the standalone site have their own auth", () => {
  const outside = [
    "/app",
    "/app/products?location=checkout",
    "/auth",
    "/auth/login",
    "/auth/google",
    "/webhooks",
    "/webhooks/app/uninstalled",
    "/api",
    "/api/me",
    "/api/analytics?location=checkout",
    "/healthz",
  ];

  it.each(outside)("%s is never redirected by the site guard", (url) => {
    expect(guard(url, anonymous)).toBeNull();
    expect(guard(`${url}${url.includes("?") ? "&" : "?"}location=checkout`, anonymous)).toBeNull();
    expect(guard(`${url}${url.includes("?") ? "&" : "?"}location=checkout`, subscriber)).toBeNull();
  });

  it.each(outside.map((u) => new URL(u, "https://x.test").pathname))("isSitePath(%s) is false", (pathname) => {
    expect(isSitePath(pathname)).toBe(false);
  });

  it.each(["/", "/dashboard", "/pay", "/apps", "/application", "/authors", "/apis", "/webhooksx", "/healthzz"])(
    "isSitePath(%s) is true: only whole path segments count",
    (pathname) => expect(isSitePath(pathname)).toBe(true),
  );

  it("an anonymous visitor on a look-alike path such as /apps?location=checkout is still guarded", () => {
    expect(guard("/apps?location=checkout", anonymous)).toBe("/");
  });
});
