import { describe, expect, it } from "vitest";
import { analyticsPersonProperties, type AnalyticsPersonInput } from "~/domain/marketing/analytics-properties";

const none = { subscribed: false, once_subscribed: false, purchaser: false, shopify_connected: false };

describe("analyticsPersonProperties", () => {
  it.each<[string, AnalyticsPersonInput, typeof none]>([
    ["a new user with nothing", {}, none],
    [
      "explicit nulls",
      {
        userSubscribed: null,
        subscription_id: null,
        paddleSubscriptionId: null,
        boughtCaseStudy: null,
        innerCircle: null,
        shopifyStoreName: null,
      },
      none,
    ],
    ["userSubscribed 'no', never had an id", { userSubscribed: "no" }, none],
    [
      "subscribed now",
      { userSubscribed: "yes", subscription_id: "sub_1" },
      { ...none, subscribed: true, once_subscribed: true, purchaser: true },
    ],
    [
      "subscribed now even before the id is stored",
      { userSubscribed: "yes" },
      { ...none, subscribed: true, once_subscribed: true, purchaser: true },
    ],
    [
      "cancelled: the seed subscription_id stays",
      { userSubscribed: "no", subscription_id: "sub_1" },
      { ...none, once_subscribed: true, purchaser: true },
    ],
    [
      "cancelled: only the Paddle subscription id stays",
      { userSubscribed: "no", paddleSubscriptionId: "sub_01h" },
      { ...none, once_subscribed: true, purchaser: true },
    ],
    ["bought only the case study", { boughtCaseStudy: true }, { ...none, purchaser: true }],
    ["inner circle only (one-time)", { innerCircle: true }, { ...none, purchaser: true }],
    ["legacy single store name", { shopifyStoreName: "my-shop.myshopify.com" }, { ...none, shopify_connected: true }],
    ["one linked shop", { linkedShopCount: 1 }, { ...none, shopify_connected: true }],
    ["zero linked shops", { linkedShopCount: 0 }, none],
    [
      "empty ids and names count as nothing",
      { subscription_id: "", paddleSubscriptionId: "", shopifyStoreName: "" },
      none,
    ],
    ["unknown userSubscribed value", { userSubscribed: "maybe" }, none],
    [
      "everything at once",
      {
        userSubscribed: "yes",
        subscription_id: "s",
        boughtCaseStudy: true,
        innerCircle: true,
        shopifyStoreName: "s",
        linkedShopCount: 2,
      },
      { subscribed: true, once_subscribed: true, purchaser: true, shopify_connected: true },
    ],
  ])("%s", (_label, input, expected) => {
    expect(analyticsPersonProperties(input)).toEqual(expected);
  });

  it("only userSubscribed 'yes' means subscribed (the seed's spelling, case-sensitive)", () => {
    expect(analyticsPersonProperties({ userSubscribed: "YES" }).subscribed).toBe(false);
    expect(analyticsPersonProperties({ userSubscribed: "true" }).subscribed).toBe(false);
  });

  it("sends exactly the four documented properties, all booleans", () => {
    const props = analyticsPersonProperties({ userSubscribed: "yes", shopifyStoreName: "x" });
    expect(Object.keys(props).sort()).toEqual(["once_subscribed", "purchaser", "shopify_connected", "subscribed"]);
    for (const value of Object.values(props)) expect(typeof value).toBe("boolean");
  });
});
