// Billing & credits with Paddle's keys set, as a person reads it and what it sends, rendered from the real routes
// (tests/helpers/billing-page.ts) with Paddle's REST API played by a local server: on the site the credit packs are
// Paddle's overlay (buttons, no forms), there are no test tools, and changing the card asks Paddle for a transaction
// that the page then opens as "Enter your new card"; inside Shopify admin, where Paddle's overlay cannot open, the
// card and the packs go to the site in a new tab (buttons), and the page has no form at all. With
// billing-page-render.test.ts, it holds the page while it is cut into parts (issue 36).
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";

const paddleApi = await vi.hoisted(async () => {
  const { startPaddleApiFake } = await import("../../helpers/paddle-api-fake");
  const fake = await startPaddleApiFake({
    prices: [
      { id: "pri_local_basic", name: "Basic", interval: "month", trialDays: 7, amounts: { USD: 2999 } },
      { id: "pri_local_pro", name: "Pro", interval: "month", trialDays: 7, amounts: { USD: 3999 } },
    ],
  });
  process.env.PADDLE_API_KEY = fake.apiKey;
  process.env.PADDLE_API_BASE_URL = fake.url;
  process.env.PADDLE_WEBHOOK_SECRET = "pdl_ntfset_billing_page_render";
  process.env.PADDLE_CLIENT_TOKEN = "test_billing_page_render_token";
  return fake;
});
const oauth = await vi.hoisted(async () => (await import("../../helpers/fake-shopify-oauth")).installFakeShopifyOAuth());

import { inAdmin, onSite, openBilling, postBilling, submitBilling } from "../../helpers/billing-page";
import { linkedShop } from "../../helpers/linked-shops";
import { deliver, subscriptionEvent, trialSnapshot } from "../../helpers/paddle";
import { createSignedInUser } from "../../helpers/site-users";

afterAll(() => paddleApi.close());
beforeEach(() => oauth.reset());

const PRO_TRIAL_PLAN =
  "Plan Pro Info Free trial Trial ends <date>; the first charge is on that day. Then $39.99 a month. Update payment method Cancel subscription Basic is $29.99 a month. Switching keeps your trial; the first charge is Basic's price. Switch to Basic Lifetime access with unlimited AI features. One payment of $299.99. Upgrade to Inner Circle";
const PACKS = ["50 AI ad credits · $14.99", "50 AI product page credits · $9.99"];

/** A Pro trial as Paddle's notification makes it, held by the local Paddle API too. */
async function onPaddlePro(userId: string) {
  const snapshot = trialSnapshot(userId, { planId: "pro" });
  paddleApi.addSubscription({ id: snapshot.id, priceId: "pri_local_pro", status: "trialing", customerId: snapshot.customerId });
  expect((await deliver(subscriptionEvent("subscription.created", snapshot, new Date()))).status).toBe(200);
}

describe("Billing & credits with Paddle", () => {
  it("on the site: packs in Paddle's overlay, no test tools, and a card change opens Paddle's transaction", async () => {
    const user = await createSignedInUser();
    await onPaddlePro(user.id);
    const site = onSite(user.cookie);
    const page = await openBilling(site);
    expect(page.headings).toEqual(["Plan", "Credits", "Buy more credits", "Credit history"]);
    expect(page.cards.Plan).toBe(PRO_TRIAL_PLAN);
    expect(page.cards["Buy more credits"]).toBe(
      `Buy more credits Extra credits on top of your plan, paid once through Paddle. They last until your next period starts, when your plan's allowance is set again. ${PACKS.join(" ")}`,
    );
    expect(page.links).toEqual([
      "Overview → /dashboard?location=dashboard",
      "Cancel subscription → /dashboard/billing?step=cancel",
      "Upgrade to Inner Circle → /pay?plan=inner-circle&billing=one_time",
    ]);
    expect(page.buttons).toEqual(["Switch to Basic", ...PACKS]);
    expect(page.forms).toEqual(["intent=update-payment → Update payment method"]);

    const card = await submitBilling(site, page, "Update payment method");
    expect(card.status).toBe(200);
    expect(card.top).toBe("Enter your new card");
    expect(card.buttons).toEqual(["Enter your new card", "Switch to Basic", ...PACKS]);
    expect(paddleApi.requests.at(-1)?.path).toMatch(/^\/subscriptions\/sub_\w+\/update-payment-method-transaction$/);
  });

  it("inside Shopify admin: the card and the packs on the site in a new tab, and no form; a card change posted anyway is refused", async () => {
    const linked = await linkedShop();
    await onPaddlePro(linked.user.id);
    const admin = inAdmin(linked.shop);
    const page = await openBilling(admin);
    expect(page.cards.Plan).toBe(PRO_TRIAL_PLAN);
    expect(page.cards["Buy more credits"]).toBe(
      `Buy more credits Extra credits on top of your plan, paid once through Paddle. They last until your next period starts, when your plan's allowance is set again. ${PACKS.join(" ")} Paddle's checkout opens on the Winning Products website in a new tab, signed in to this account.`,
    );
    expect(page.links).toEqual(["Cancel subscription → /app/billing?step=cancel"]);
    expect(page.buttons).toEqual(["Update payment method", "Switch to Basic", "Upgrade to Inner Circle", ...PACKS]);
    expect(page.forms).toEqual([]);

    const refused = await postBilling(admin, "/app/billing", { intent: "update-payment" });
    expect(refused.status).toBe(409);
    expect(refused.top).toBe("The card is changed on the website: use “Update payment method”, which opens it in a new tab.");
  });
});
