// Billing & credits as a person sees it and what its forms send, on both surfaces (/dashboard/billing and
// /app/billing), with the local test checkout (no Paddle keys, SHOPIFY_BILLING off): the real routes rendered on the
// server over a real database (tests/helpers/billing-page.ts), card by card: the plan and its actions, the cancel
// step (the trial extension, the retention offer), the balances, the credit packs, the history and the test tools;
// then a form is submitted as the browser sends it and the page the action answers is read again. It holds the page
// while it is cut into parts (issue 36); shopify-billing-page-render.test.ts and paddle-billing-page-render.test.ts
// hold the Shopify rail and Paddle's checkout. Clicks that run script (the switch's confirmation, the hand-off to the
// site) are the browser's: tests/e2e/billing.spec.ts, seller-nav.spec.ts, embedded-account.spec.ts.
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

const oauth = await vi.hoisted(async () => (await import("../../helpers/fake-shopify-oauth")).installFakeShopifyOAuth());

import { db } from "~/db.server";
import { loadUser } from "~/services/accounts/auth.server";
import { spend } from "~/services/billing/credits.server";
import { billing } from "~/services/index.server";
import { inAdmin, onSite, openBilling, submitBilling, type BillingVisitor } from "../../helpers/billing-page";
import { linkedShop } from "../../helpers/linked-shops";
import { fixtureCatalogue, insertProducts } from "../../helpers/products";
import { createSignedInUser } from "../../helpers/site-users";

const [product] = fixtureCatalogue(1, 31).map((p) => ({ ...p, objectID: "billing-render-ledger", title: "Magnetic Cable Organiser" }));

beforeAll(async () => {
  await insertProducts(db, [product]);
});
beforeEach(() => oauth.reset());

const balances = (ai: string, auto: string, glitch: string, pages: string) =>
  `Credits One balance for the website and the Shopify app. Each use costs: AI ads 5, automatic mode 4, everything else 1. Feature Balance Cost per use AI video ads ${ai} 5 Automatic mode ${auto} 4 Glitch mode ${glitch} 1 AI product pages ${pages} 1`;
const TOOLS =
  "Test tools (local checkout only) This server has no Paddle keys. These buttons send the notifications Paddle would send, so you can see what each event does. They do not exist when Paddle is configured. Use ai-ads Use automatic-mode Use glitch-mode Use product-pages";
const TOOLS_WITH_PLAN = `${TOOLS} Renew now Fail the next payment End the subscription`;
const LOCAL_PACKS =
  "Buy more credits Extra credits on top of your plan, completed at once by the test checkout on this server (nothing is charged). They last until your next period starts, when your plan's allowance is set again. 50 AI ad credits · $14.99 50 AI product page credits · $9.99";
const TRIAL_HISTORY = (plan: string, [ai, auto, glitch, pages]: number[]) =>
  `Credit history When (UTC) Feature What Change Balance after <date> <time> AI product pages ${plan} trial started +${pages} ${pages} <date> <time> Glitch mode ${plan} trial started +${glitch} ${glitch} <date> <time> Automatic mode ${plan} trial started +${auto} ${auto} <date> <time> AI video ads ${plan} trial started +${ai} ${ai}`;
const PRO_TRIAL_PLAN =
  "Plan Pro Info Free trial Trial ends <date>; the first charge is on that day. Then $39.99 a month. Update payment method Cancel subscription Basic is $29.99 a month. Switching keeps your trial; the first charge is Basic's price. Switch to Basic Lifetime access with unlimited AI features. One payment of $299.99. Upgrade to Inner Circle";
const PRO_ACTIVE_PLAN =
  "Plan Pro Success Active Next bill <date>. $39.99 a month. Update payment method Cancel subscription Basic is $29.99 a month. Switching is immediate: you get Basic's credits and pay the difference for the rest of this period. Switch to Basic Lifetime access with unlimited AI features. One payment of $299.99. Upgrade to Inner Circle";
const PRO_ENDING_PLAN =
  "Plan Pro Warning Ends at period end Your plan ends on <date>. You will not be charged again. Resume subscription Lifetime access with unlimited AI features. One payment of $299.99. Upgrade to Inner Circle";
/** The cancel step of a paid period (the retention offer) and its forms, after the card's. */
const RETENTION_STEP =
  "Before you go Keep Pro for $9.99 next cycle instead of cancelling. Everything stays as it is, including your saved products and credits. Keep my plan for $9.99 Cancel anyway";
const RETENTION_FORMS = [
  "intent=update-payment → Update payment method",
  "intent=claim-discount → Keep my plan for $9.99",
  "intent=cancel → Cancel anyway",
];

const SPEND_FORMS = [
  "intent=spend&feature=ai-ads → Use ai-ads",
  "intent=spend&feature=automatic-mode → Use automatic-mode",
  "intent=spend&feature=glitch-mode → Use glitch-mode",
  "intent=spend&feature=product-pages → Use product-pages",
];
const SIMULATE_FORMS = [
  "intent=simulate-renew → Renew now",
  "intent=simulate-payment-failed → Fail the next payment",
  "intent=simulate-end → End the subscription",
];
const PACK_FORMS = [
  "intent=buy-credits&pack=ai-ads-50 → 50 AI ad credits · $14.99",
  "intent=buy-credits&pack=product-pages-50 → 50 AI product page credits · $9.99",
];

async function onProTrial(userId: string) {
  await billing.completeLocalCheckout(await loadUser(db, userId), "pro");
}

/** Pro after its first renewal: the retention offer applies. */
async function onPaidPro(visitor: BillingVisitor) {
  const renewed = await submitBilling(visitor, await openBilling(visitor), "Renew now");
  expect(renewed.top).toBe("Renewed (test): a new period started and credits were reset.");
  return renewed;
}

describe("Billing & credits on the site (/dashboard/billing)", () => {
  it("a new account: no plan and the way to one, empty balances and the test tools; a use it cannot pay for is refused above the cards", async () => {
    const user = await createSignedInUser();
    const site = onSite(user.cookie);
    const page = await openBilling(site);
    expect(page.status).toBe(200);
    expect(page.top).toBe("");
    expect(page.cards).toEqual({
      Plan: "Plan No subscription yet. Choose a plan",
      Credits: balances("0", "0", "0", "0"),
      "Credit history": "Credit history No credit changes yet.",
      "Test tools (local checkout only)": TOOLS,
    });
    expect(page.links).toEqual(["Overview → /dashboard?location=dashboard", "Choose a plan → /choose-plan"]);
    expect(page.buttons).toEqual([]);
    expect(page.forms).toEqual(SPEND_FORMS);

    const refused = await submitBilling(site, page, "Use ai-ads");
    expect(refused.status).toBe(402);
    expect(refused.top).toBe("Not enough credits: ai-ads costs 5 and you have 0.");
    expect(refused.cards.Credits).toBe(balances("0", "0", "0", "0"));
  });

  it("a Pro trial: the plan with its actions and offers, the packs and the history; a pack, a use and a card change go through their forms", async () => {
    const user = await createSignedInUser();
    await onProTrial(user.id);
    const site = onSite(user.cookie);
    const page = await openBilling(site);
    expect(page.headings).toEqual(["Plan", "Credits", "Buy more credits", "Credit history", "Test tools (local checkout only)"]);
    expect(page.cards).toEqual({
      Plan: PRO_TRIAL_PLAN,
      Credits: balances("10", "8", "5", "10"),
      "Buy more credits": LOCAL_PACKS,
      "Credit history": TRIAL_HISTORY("Pro", [10, 8, 5, 10]),
      "Test tools (local checkout only)": TOOLS_WITH_PLAN,
    });
    expect(page.links).toEqual([
      "Overview → /dashboard?location=dashboard",
      "Cancel subscription → /dashboard/billing?step=cancel",
      "Upgrade to Inner Circle → /pay?plan=inner-circle&billing=one_time",
    ]);
    // The switch asks again before it posts (issue 35): its form only appears after the click.
    expect(page.buttons).toEqual(["Switch to Basic"]);
    expect(page.forms).toEqual(["intent=update-payment → Update payment method", ...PACK_FORMS, ...SPEND_FORMS, ...SIMULATE_FORMS]);
    expect(page.testIds).toEqual({ "billing-status": "Trial ends <date>; the first charge is on that day." });
    // "Get more credits" elsewhere links to /dashboard/billing#buy-credits.
    expect(page.html).toContain('<div id="buy-credits">');

    const pack = await submitBilling(site, page, "50 AI ad credits · $14.99");
    expect(pack.top).toBe("50 AI ad credits added (test checkout).");
    expect(pack.cards.Credits).toMatch(/^Credits .* AI video ads 60 5 /);

    const used = await submitBilling(site, pack, "Use ai-ads");
    expect(used.top).toBe("Used 5 ai-ads credits.");
    expect(used.cards.Credits).toMatch(/^Credits .* AI video ads 55 5 /);
    expect(used.cards["Credit history"]).toMatch(
      /^Credit history When \(UTC\) Feature What Change Balance after <date> <time> AI video ads Test use from the billing page -5 55 <date> <time> AI video ads .+ \+50 60 /,
    );

    const card = await submitBilling(site, used, "Update payment method");
    expect(card.top).toBe("Payment method updated (test checkout).");
  });

  it("the credit history names the product a spend was for and links to it", async () => {
    const user = await createSignedInUser();
    await onProTrial(user.id);
    await spend(db, { userId: user.id, feature: "product-pages", reason: `product page for ${product.objectID}` });
    const page = await openBilling(onSite(user.cookie));
    expect(page.cards["Credit history"]).toMatch(
      /^Credit history When \(UTC\) Feature What Change Balance after <date> <time> AI product pages product page for Magnetic Cable Organiser -1 9 /,
    );
    expect(page.links).toContain(`Magnetic Cable Organiser → /dashboard/products/${product.objectID}`);
  });

  it("the way out of a trial: the extension, once; then cancel, and a plan set to end offers Resume", async () => {
    const user = await createSignedInUser();
    await onProTrial(user.id);
    const site = onSite(user.cookie);
    const step = await openBilling(site, "?step=cancel");
    expect(step.headings).toEqual(["Plan", "Before you go", "Credits", "Buy more credits", "Credit history", "Test tools (local checkout only)"]);
    expect(step.cards["Before you go"]).toBe(
      "Before you go Not sure yet? Take 7 more days to try Pro: your trial would end on <date> instead, and nothing is charged before then. This is offered once. If you cancel now you keep access until the trial ends and are never charged. The $9.99 offer to stay applies once your trial has ended. Extend my trial by 7 days Cancel anyway",
    );
    expect(step.forms).toEqual([
      "intent=update-payment → Update payment method",
      "intent=extend-trial → Extend my trial by 7 days",
      "intent=cancel → Cancel anyway",
      ...PACK_FORMS,
      ...SPEND_FORMS,
      ...SIMULATE_FORMS,
    ]);
    expect(Object.keys(step.testIds)).toEqual(["billing-status", "trial-extension-offer"]);

    const extended = await submitBilling(site, step, "Extend my trial by 7 days");
    expect(extended.url).toBe("/dashboard/billing?step=cancel");
    expect(extended.top).toBe("Your trial now ends on <date>.");
    const afterExtension =
      "Before you go If you cancel now you keep access until the trial ends and are never charged. The $9.99 offer to stay applies once your trial has ended. Cancel subscription";
    expect(extended.cards["Before you go"]).toBe(afterExtension);
    // The same form sent again from a stale tab: refused, in words, above the cards.
    const again = await submitBilling(site, step, "Extend my trial by 7 days");
    expect(again.status).toBe(409);
    expect(again.top).toBe("Your trial has already been extended once.");

    const reopened = await openBilling(site, "?step=cancel");
    expect(reopened.cards["Before you go"]).toBe(afterExtension);
    expect(reopened.forms.slice(0, 2)).toEqual(["intent=update-payment → Update payment method", "intent=cancel → Cancel subscription"]);

    const ending = await submitBilling(site, reopened, "Cancel subscription");
    expect(ending.top).toBe("Your subscription will end at the end of this billing period.");
    expect(ending.headings).toEqual(["Plan", "Credits", "Credit history", "Test tools (local checkout only)"]);
    expect(ending.cards.Plan).toBe(PRO_ENDING_PLAN);
    expect(ending.links).toEqual(["Overview → /dashboard?location=dashboard", "Upgrade to Inner Circle → /pay?plan=inner-circle&billing=one_time"]);
    expect(ending.buttons).toEqual([]);
    expect(ending.forms).toEqual(["intent=resume → Resume subscription", ...SPEND_FORMS, ...SIMULATE_FORMS]);
    expect(ending.testIds).toEqual({ "billing-status": "Your plan ends on <date>. You will not be charged again." });

    const resumed = await submitBilling(site, ending, "Resume subscription");
    expect(resumed.top).toBe("Your plan is back on: your trial ends on <date> and the first charge is on that day.");
    expect(resumed.cards.Plan).toBe(PRO_TRIAL_PLAN);
  });

  it("a paid period: the retention offer on the way out, claimed through its form", async () => {
    const user = await createSignedInUser();
    await onProTrial(user.id);
    const site = onSite(user.cookie);
    const renewed = await onPaidPro(site);
    expect(renewed.cards.Plan).toBe(PRO_ACTIVE_PLAN);
    // The balance over time, from the ledger, once there are two points.
    expect(renewed.cards.Credits.startsWith(`${balances("100", "80", "100", "100")} `)).toBe(true);
    expect(renewed.cards.Credits).toContain("AI ad credits over time");

    const step = await openBilling(site, "?step=cancel");
    expect(step.cards["Before you go"]).toBe(RETENTION_STEP);
    expect(step.forms.slice(0, 3)).toEqual(RETENTION_FORMS);
    const claimed = await submitBilling(site, step, "Keep my plan for $9.99");
    expect(claimed.top).toBe("Offer claimed: your next cycle is discounted and your plan stays on.");
    expect(claimed.cards.Plan).toMatch(/^Plan Pro Success Active Success Retention offer applied Next bill <date>\. /);
    expect(claimed.cards["Before you go"]).toBe("Before you go You keep access until the end of the period you paid for. Cancel subscription");
  });

  it("a failed payment asks for a new card and offers no switch; an ended plan offers a new one", async () => {
    const user = await createSignedInUser();
    await onProTrial(user.id);
    const site = onSite(user.cookie);
    const failed = await submitBilling(site, await openBilling(site), "Fail the next payment");
    expect(failed.top).toBe("A failed renewal was simulated.");
    expect(failed.cards.Plan).toBe(
      "Plan Pro Critical Payment failed Your last payment failed. Update your payment method to keep your plan. $39.99 a month. Update payment method Cancel subscription Lifetime access with unlimited AI features. One payment of $299.99. Upgrade to Inner Circle",
    );

    const ended = await submitBilling(site, failed, "End the subscription");
    expect(ended.top).toBe("The subscription ended (test).");
    expect(ended.cards.Plan).toBe("Plan Pro Ended This subscription has ended. Choose a plan");
    expect(ended.links).toEqual(["Overview → /dashboard?location=dashboard", "Choose a plan → /choose-plan"]);
    expect(ended.forms).toEqual(SPEND_FORMS);
  });

  it("Inner Circle: lifetime access; with a Basic plan beside it, no upgrade and no packs", async () => {
    const user = await createSignedInUser();
    await billing.completeLocalCheckout(await loadUser(db, user.id), "inner-circle");
    const site = onSite(user.cookie);
    const lifetime = await openBilling(site);
    expect(lifetime.cards.Plan).toBe("Plan Inner Circle Success Lifetime access");
    expect(lifetime.cards.Credits).toBe(balances("Unlimited", "Unlimited", "Unlimited", "Unlimited"));
    expect(lifetime.cards["Credit history"]).toMatch(/^Credit history .* AI video ads Inner Circle: unlimited \+Unlimited Unlimited$/);
    expect(lifetime.links).toEqual(["Overview → /dashboard?location=dashboard"]);
    expect(lifetime.forms).toEqual(SPEND_FORMS);

    await billing.completeLocalCheckout(await loadUser(db, user.id), "basic");
    const both = await openBilling(site);
    expect(both.headings).toEqual(["Plan", "Credits", "Credit history", "Test tools (local checkout only)"]);
    expect(both.cards.Plan).toBe(
      "Plan Basic Info Free trial Trial ends <date>; the first charge is on that day. Then $29.99 a month. Update payment method Cancel subscription Pro is $39.99 a month. Switching keeps your trial; the first charge is Pro's price. Switch to Pro",
    );
    expect(both.links).toEqual(["Overview → /dashboard?location=dashboard", "Cancel subscription → /dashboard/billing?step=cancel"]);
    expect(both.buttons).toEqual(["Switch to Pro"]);
  });
});

describe("Billing & credits inside Shopify admin (/app/billing), Paddle's rail", () => {
  it("no plan: the plan cards open the checkout on the site in a new tab (buttons, not links); no back link", async () => {
    const { shop } = await linkedShop();
    const page = await openBilling(inAdmin(shop));
    expect(page.status).toBe(200);
    expect(page.cards.Plan).toBe(
      "Plan No subscription yet. The checkout opens on the Winning Products website in a new tab, signed in to this account. Your plan and credits are the same in Shopify and on the website. Basic $29.99 / month 7-day free trial, cancel any time. Find and validate your next product. Full product database with search and filters Winning score with the reasons behind it Save products and track competitors 20 AI ad credits a month (4 videos) Weekly product drops and the full course Start Basic free trial Pro Success Most popular $39.99 / month 7-day free trial, cancel any time. Launch and scale with AI ads and automatic mode. Everything in Basic 100 AI ad credits a month (20 videos) Automatic mode: AI product page pushed to your store Glitch mode with 100 credits a month Priority support Start Pro free trial Inner Circle $299.99 once One payment. Lifetime access with unlimited AI features. Everything in Pro, for life Unlimited AI ads, glitch mode and automatic mode Inner circle community and case studies Get Inner Circle",
    );
    expect(page.cards["Test tools (local checkout only)"]).toBe(TOOLS);
    expect(page.links).toEqual([]);
    expect(page.buttons).toEqual(["Start Basic free trial", "Start Pro free trial", "Get Inner Circle"]);
    expect(page.forms).toEqual(SPEND_FORMS);
  });

  it("a Pro trial: the site's cards, Inner Circle through the site, forms posting to /app/billing, products linked in the admin", async () => {
    const linked = await linkedShop();
    await onProTrial(linked.user.id);
    await spend(db, { userId: linked.user.id, feature: "product-pages", reason: `product page for ${product.objectID}` });
    const admin = inAdmin(linked.shop);
    const page = await openBilling(admin);
    expect(page.cards.Plan).toBe(PRO_TRIAL_PLAN);
    expect(page.cards.Credits).toBe(balances("10", "8", "5", "9"));
    expect(page.cards["Buy more credits"]).toBe(LOCAL_PACKS);
    expect(page.links).toEqual([
      "Cancel subscription → /app/billing?step=cancel",
      `Magnetic Cable Organiser → /app/products/${product.objectID}`,
    ]);
    expect(page.buttons).toEqual(["Switch to Basic", "Upgrade to Inner Circle"]);
    expect(page.forms).toEqual(["intent=update-payment → Update payment method", ...PACK_FORMS, ...SPEND_FORMS, ...SIMULATE_FORMS]);

    const pack = await submitBilling(admin, page, "50 AI product page credits · $9.99");
    expect(pack.top).toBe("50 AI product page credits added (test checkout).");
    expect(pack.cards.Credits).toBe(balances("10", "8", "5", "59"));
  });

  it("a paid period's cancel step: the retention offer and cancel, posted to /app/billing?step=cancel", async () => {
    const linked = await linkedShop();
    await onProTrial(linked.user.id);
    const admin = inAdmin(linked.shop);
    await onPaidPro(admin);
    const step = await openBilling(admin, "?step=cancel");
    expect(step.cards.Plan).toBe(PRO_ACTIVE_PLAN);
    expect(step.cards["Before you go"]).toBe(RETENTION_STEP);
    expect(step.forms.slice(0, 3)).toEqual(RETENTION_FORMS);
    const cancelled = await submitBilling(admin, step, "Cancel anyway");
    expect(cancelled.url).toBe("/app/billing?step=cancel");
    expect(cancelled.top).toBe("Your subscription will end at the end of this billing period.");
    expect(cancelled.cards.Plan).toBe(PRO_ENDING_PLAN);
  });
});
