// The pure rules of the Shopify rail (app/domain/billing/shopify-billing.ts): status mapping, the periods a
// subscription's creation and trial imply, money amounts, plan names, and the merchant's sentences.
import { describe, expect, it } from "vitest";
import { subscriptionFlags } from "~/domain/billing/billing";
import {
  billingErrorSentence,
  centsOf,
  decimalAmount,
  planForShopifyName,
  rowFromShopify,
  statusFromShopify,
  trialDaysFor,
} from "~/domain/billing/shopify-billing";

const DAY = 24 * 3600_000;
const created = new Date("2026-11-01T10:00:00Z");
const facts = (status: string, trialDays = 7) => ({
  id: "gid://shopify/AppSubscription/1",
  name: "Winning Products Pro",
  status,
  createdAt: created,
  trialDays,
  priceCents: 3999,
  currencyCode: "USD",
});

describe("statusFromShopify", () => {
  it.each([
    ["ACTIVE", true, "trialing"],
    ["ACTIVE", false, "active"],
    ["FROZEN", false, "past_due"],
    ["CANCELLED", false, "canceled"],
    ["DECLINED", false, "canceled"],
    ["EXPIRED", false, "canceled"],
    ["PENDING", false, null],
    ["ACCEPTED", false, null],
  ] as const)("%s (in trial: %s) -> %s", (status, trialing, ours) => {
    expect(statusFromShopify(status, trialing)).toBe(ours);
  });
});

describe("rowFromShopify", () => {
  it("is trialing until the trial's days have passed, billed when it ends", () => {
    const row = rowFromShopify(facts("ACTIVE"), new Date(created.getTime() + 3 * DAY))!;
    expect(row).toMatchObject({ status: "trialing", planId: "pro", currentPeriodStart: created, nextBilledAt: new Date(created.getTime() + 7 * DAY) });
  });

  it("then runs in 30-day cycles from the trial's end, the same period whenever within it it is read", () => {
    const trialEnd = created.getTime() + 7 * DAY;
    const early = rowFromShopify(facts("ACTIVE"), new Date(trialEnd + 31 * DAY))!;
    const late = rowFromShopify(facts("ACTIVE"), new Date(trialEnd + 59 * DAY))!;
    expect(early.status).toBe("active");
    expect(early.currentPeriodStart).toEqual(new Date(trialEnd + 30 * DAY));
    expect(late.currentPeriodStart).toEqual(early.currentPeriodStart);
    expect(late.currentPeriodEnd).toEqual(new Date(trialEnd + 60 * DAY));
  });

  it("a replacement without a trial is active at once; an ended one has no next bill; a pending one writes nothing", () => {
    expect(rowFromShopify(facts("ACTIVE", 0), created)!.status).toBe("active");
    expect(rowFromShopify(facts("CANCELLED"), new Date(created.getTime() + DAY))).toMatchObject({ status: "canceled", nextBilledAt: null });
    expect(rowFromShopify(facts("PENDING"), created)).toBeNull();
  });

  it("marks a trial longer than the plan's as extended", () => {
    expect(rowFromShopify(facts("ACTIVE", 14), created)!.trialExtended).toBe(true);
    expect(trialDaysFor("Winning Products Pro", true)).toBe(14);
    expect(trialDaysFor("Winning Products Basic", false)).toBe(7);
  });
});

describe("money and names", () => {
  it("reads Shopify's decimal amounts as integer cents and writes them back", () => {
    expect(centsOf("29.99")).toBe(2999);
    expect(centsOf("29.9")).toBe(2990);
    expect(centsOf("30")).toBe(3000);
    expect(centsOf(39.99)).toBe(3999);
    expect(centsOf("abc")).toBeNull();
    expect(decimalAmount(2999)).toBe("29.99");
  });

  it("knows the catalogue's monthly plans by their Shopify name only", () => {
    expect(planForShopifyName("Winning Products Basic")?.id).toBe("basic");
    expect(planForShopifyName("Winning Products Inner Circle")).toBeUndefined();
    expect(planForShopifyName("Basic")).toBeUndefined();
  });
});

describe("billingErrorSentence", () => {
  it("tells a frozen shop how to fix it, and passes Shopify's reason on otherwise", () => {
    expect(billingErrorSentence([{ message: "The shop is frozen" }], "subscription")).toMatch(/^Shopify cannot add a charge while your store has an unpaid Shopify bill/);
    expect(billingErrorSentence([{ message: "Price must be positive" }], "purchase")).toBe(
      "Shopify did not accept this purchase: Price must be positive. Nothing was charged; try again, or contact us if it keeps happening.",
    );
  });
});

describe("subscriptionFlags", () => {
  it("writes the Paddle ids only from a Paddle subscription", () => {
    const shopify = subscriptionFlags({ id: "gid://shopify/AppSubscription/1", status: "active", customerId: null, scheduledChange: null, provider: "shopify" });
    expect(shopify).not.toHaveProperty("paddleSubscriptionId");
    expect(shopify).not.toHaveProperty("paddleCustomerId");
    expect(shopify).toMatchObject({ userSubscribed: "yes", subscription_id: "gid://shopify/AppSubscription/1" });
    expect(subscriptionFlags({ id: "sub_1", status: "active", customerId: "ctm_1", scheduledChange: null })).toMatchObject({
      paddleSubscriptionId: "sub_1",
      paddleCustomerId: "ctm_1",
    });
  });
});
