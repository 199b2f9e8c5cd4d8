// Billing & credits with SHOPIFY_BILLING=on (docs/decisions/034), as a person reads it and what it sends, rendered
// from the real routes (tests/helpers/billing-page.ts): inside Shopify admin the plan cards ask Shopify for the charge
// (the click posts shopify-subscribe; no form in the markup), back from Shopify's confirmation page (served by the
// local Admin GraphQL server) the plan shows with Shopify's notice, a switch through Shopify, credit packs on the
// Shopify invoice and the way out through Shopify; the website shows the plan as managed in Shopify admin; a
// Paddle plan in the admin is managed on the website; two paid subscriptions at once are named with one form to
// cancel each. With billing-page-render.test.ts, it holds the page while it is cut into parts (issue 36).
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";

// The local Admin GraphQL server starts before the app's modules read its address, on a port the system gives (a
// port picked at random could be one another test file's socket holds).
const admin = await vi.hoisted(async () => {
  const { startFakeAdminGraphql } = await import("../../helpers/fake-admin-graphql");
  const server = await startFakeAdminGraphql({ port: 0, acceptToken: (t) => t.startsWith("shpat_") });
  process.env.SHOPIFY_BILLING = "on";
  process.env.SHOPIFY_ADMIN_API_URL = server.url;
  return server;
});
const oauth = await vi.hoisted(async () => (await import("../../helpers/fake-shopify-oauth")).installFakeShopifyOAuth());

import { db } from "~/db.server";
import { loadUser } from "~/services/accounts/auth.server";
import { billing } from "~/services/index.server";
import { inAdmin, onSite, openBilling, postBilling, submitBilling } from "../../helpers/billing-page";
import { linkedShop } from "../../helpers/linked-shops";
import { deliver, subscriptionEvent, trialSnapshot } from "../../helpers/paddle";

afterAll(() => admin.close());
beforeEach(() => {
  oauth.reset();
  admin.requests.length = 0;
  admin.billing.frozen = false;
});

const SPEND_FORMS = [
  "intent=spend&feature=ai-ads → Use ai-ads",
  "intent=spend&feature=automatic-mode → Use automatic-mode",
  "intent=spend&feature=glitch-mode → Use glitch-mode",
  "intent=spend&feature=product-pages → Use product-pages",
];
const SHOPIFY_PLANS_INTRO =
  "Plans are billed on your Shopify invoice. You approve the charge on Shopify's page and come back here. Your plan and credits are the same in Shopify and on the website.";
const BASIC_CARD =
  "Basic $29.99 / month 7-day free trial, cancel any time. Find and validate your next product. Full product database with search and filters Winning score with the reasons behind it Save products and track competitors 20 AI ad credits a month (4 videos) Weekly product drops and the full course";
const PRO_CARD =
  "Pro Success Most popular $39.99 / month 7-day free trial, cancel any time. Launch and scale with AI ads and automatic mode. Everything in Basic 100 AI ad credits a month (20 videos) Automatic mode: AI product page pushed to your store Glitch mode with 100 credits a month Priority support";

/** A linked shop on Shopify's Pro trial, approved on Shopify's confirmation page; the page it comes back to. */
async function onShopifyPro() {
  const linked = await linkedShop();
  const inShop = inAdmin(linked.shop);
  const chosen = await postBilling(inShop, "/app/billing", { intent: "shopify-subscribe", plan: "pro" });
  expect(chosen.top).toBe("Approve the Pro plan in Shopify to start it.");
  const confirmation = [...admin.billing.subscriptions.values()].at(-1)!;
  const id = confirmation.id.split("/").pop()!;
  const res = await fetch(`${admin.url}/admin/charges/subscription/${id}/confirm`, {
    method: "POST",
    body: new URLSearchParams({ answer: "approve" }),
    redirect: "manual",
  });
  expect(res.status).toBe(303);
  const back = new URL(res.headers.get("location")!);
  return { linked, inShop, page: await openBilling(inShop, back.search) };
}

describe("/app/billing on Shopify's rail", () => {
  it("no plan: the monthly plans, each asking Shopify for the charge; no Inner Circle, nothing from Paddle", async () => {
    const { shop } = await linkedShop();
    const page = await openBilling(inAdmin(shop));
    expect(page.top).toBe("");
    expect(page.cards.Plan).toBe(
      `Plan No subscription yet. ${SHOPIFY_PLANS_INTRO} ${BASIC_CARD} Start Basic free trial ${PRO_CARD} Start Pro free trial`,
    );
    expect(page.links).toEqual([]);
    expect(page.buttons).toEqual(["Start Basic free trial", "Start Pro free trial"]);
    expect(page.forms).toEqual(SPEND_FORMS);
  });

  it("back from Shopify's confirmation: the notice, the plan, a switch and packs through Shopify, and the way out through Shopify", async () => {
    const { inShop, page } = await onShopifyPro();
    expect(page.top).toBe("Your plan is on. It is billed on your Shopify invoice.");
    expect(page.testIds).toEqual({
      "shopify-billing-notice": "Your plan is on. It is billed on your Shopify invoice.",
      "billing-status": "Trial ends <date>; the first charge is on that day.",
    });
    expect(page.headings).toEqual(["Plan", "Credits", "Buy more credits", "Credit history", "Test tools (local checkout only)"]);
    expect(page.cards.Plan).toBe(
      `Plan Pro Info Free trial Trial ends <date>; the first charge is on that day. Then $39.99 a month. Cancel subscription ${SHOPIFY_PLANS_INTRO} ${BASIC_CARD} Switch to Basic`,
    );
    expect(page.cards["Buy more credits"]).toBe(
      "Buy more credits Extra credits on top of your plan, billed once on your Shopify invoice. They last until your next period starts, when your plan's allowance is set again. 50 AI ad credits · $14.99 50 AI product page credits · $9.99",
    );
    expect(page.links).toEqual(["Cancel subscription → /app/billing?step=cancel"]);
    expect(page.buttons).toEqual(["Switch to Basic"]);
    expect(page.forms).toEqual([
      "intent=shopify-top-up&pack=ai-ads-50 → 50 AI ad credits · $14.99",
      "intent=shopify-top-up&pack=product-pages-50 → 50 AI product page credits · $9.99",
      ...SPEND_FORMS,
    ]);

    const pack = await submitBilling(inShop, page, "50 AI ad credits · $14.99");
    // The form posts to the page it is on, here Shopify's return address, so its notice is read again above the outcome.
    expect(pack.top).toBe("Your plan is on. It is billed on your Shopify invoice. Approve 50 AI ad credits in Shopify to add them.");
    expect(admin.requests.some((r) => r.query.includes("appPurchaseOneTimeCreate("))).toBe(true);

    const step = await openBilling(inShop, "?step=cancel");
    // (Between the two, the trial's note from app/domain/billing/billing.ts, which is not this page's.)
    expect(step.cards["Before you go"]).toMatch(
      /^Before you go Not sure yet\? Take 7 more days to try Pro: your trial would end on <date> instead, and nothing is charged before then\. This is offered once\. .* Extend my trial by 7 days Cancel anyway$/,
    );
    expect(step.forms.slice(0, 2)).toEqual(["intent=extend-trial → Extend my trial by 7 days", "intent=cancel → Cancel anyway"]);
    const cancelled = await submitBilling(inShop, step, "Cancel anyway");
    expect(cancelled.top).toBe("Your subscription is cancelled in Shopify; nothing more is charged.");
    // One trial per account (docs/decisions/034): the next plan is a subscription without one.
    expect(cancelled.cards.Plan).toBe(`Plan Pro Ended This subscription has ended. ${SHOPIFY_PLANS_INTRO} ${BASIC_CARD} Subscribe to Basic ${PRO_CARD} Subscribe to Pro`);
    expect(cancelled.buttons).toEqual(["Subscribe to Basic", "Subscribe to Pro"]);
  });

  it("the website shows a Shopify plan as managed in Shopify admin, with a link there and no Paddle action", async () => {
    const { linked } = await onShopifyPro();
    const page = await openBilling(onSite(linked.user.cookie));
    const store = linked.shop.replace(".myshopify.com", "");
    expect(page.cards.Plan).toBe(
      `Plan Pro Info Free trial Trial ends <date>; the first charge is on that day. Then $39.99 a month. This plan is billed through Shopify (${linked.shop}) and managed in Shopify admin. Manage in Shopify admin`,
    );
    expect(page.links).toEqual([
      "Overview → /dashboard?location=dashboard",
      `Manage in Shopify admin → https://admin.shopify.com/store/${store}/apps/test-api-key/app/billing`,
    ]);
    expect(page.buttons).toEqual([]);
    expect(page.forms.some((f) => f.startsWith("intent=update-payment") || f.startsWith("intent=simulate"))).toBe(false);
    expect(page.testIds["plan-managed-where"]).toBe(`This plan is billed through Shopify (${linked.shop}) and managed in Shopify admin.`);
  });

  it("a Paddle plan opened in the admin is managed on the website: no second subscription is offered", async () => {
    const linked = await linkedShop();
    await billing.completeLocalCheckout(await loadUser(db, linked.user.id), "basic");
    const page = await openBilling(inAdmin(linked.shop));
    expect(page.cards.Plan).toBe(
      "Plan Basic Info Free trial Trial ends <date>; the first charge is on that day. Then $29.99 a month. This plan is billed through Paddle and managed on the Winning Products website, under Billing & credits. You are not charged again here.",
    );
    expect(page.links).toEqual([]);
    expect(page.buttons).toEqual([]);
  });

  it("two paid subscriptions at once are named, with a form to cancel each", async () => {
    const { linked, inShop } = await onShopifyPro();
    const paddle = trialSnapshot(linked.user.id, { planId: "basic" });
    expect((await deliver(subscriptionEvent("subscription.created", paddle, new Date()))).status).toBe(200);
    const page = await openBilling(inShop);
    expect(page.top).toBe(
      `You are paying for two subscriptions One is billed through Shopify (${linked.shop}) and one through Paddle on the website. Cancel one so you are not charged twice; your plan and credits continue on the other. Cancel the Shopify one Cancel the Paddle one`,
    );
    expect(page.forms.slice(0, 2)).toEqual([
      "intent=cancel-duplicate&provider=shopify → Cancel the Shopify one",
      "intent=cancel-duplicate&provider=paddle → Cancel the Paddle one",
    ]);
    expect(page.testIds["duplicate-subscriptions"]).toMatch(/^One is billed through Shopify \(/);
    const kept = await submitBilling(inShop, page, "Cancel the Shopify one");
    expect(kept.top).toBe("The subscription billed through Shopify is cancelled. Your plan continues through Paddle.");
    expect(kept.forms.some((f) => f.startsWith("intent=cancel-duplicate"))).toBe(false);
  });
});
