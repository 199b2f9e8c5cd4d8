// Terms, Privacy and Refund pages (issue 25 item 3, decision 051), served by the production server: each answers
// 200 with its content, and the landing page, sign-up, the checkout and the footers of both surfaces link to
// them; the checkout says what is charged when and the refund terms.
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { AppProvider } from "@shopify/polaris";
import enTranslations from "@shopify/polaris/locales/en.json";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargeDate, chargeSchedule } from "~/domain/billing/checkout-terms";
import { findPlan } from "~/domain/billing/plans";
import { EmbeddedLegalFooter } from "~/ui/shared/legal-pages";
import { ensureProductionBuild, startServer, type RunningServer } from "../../helpers/production-server";
import { createSignedInUser } from "../../helpers/site-users";

let server: RunningServer;
beforeAll(async () => {
  ensureProductionBuild();
  server = await startServer();
}, 300_000);
afterAll(async () => server?.stop());

async function page(path: string, cookie?: string) {
  const res = await fetch(`http://127.0.0.1:${server.port}${path}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });
  return { status: res.status, html: await res.text() };
}

const LINKS = ['href="/terms"', 'href="/privacy"', 'href="/refunds"'];

describe("the legal pages", () => {
  it("answer 200 with real content", async () => {
    const terms = await page("/terms");
    expect(terms.status).toBe(200);
    expect(terms.html).toContain("Terms of Service");
    expect(terms.html).toContain("Paddle.com is the Merchant of Record");
    expect(terms.html).toContain("You are the seller in your own store");

    const privacy = await page("/privacy");
    expect(privacy.status).toBe(200);
    for (const processor of ["Paddle", "Shopify", "Firebase", "Klaviyo", "PostHog", "Hyros", "AnyTrack", "Sentry", "Algolia", "Discord"]) {
      expect(privacy.html).toContain(processor);
    }
    expect(privacy.html).toContain("a salted hash of your password");

    const refunds = await page("/refunds");
    expect(refunds.status).toBe(200);
    expect(refunds.html).toContain("Refund Policy");
    expect(refunds.html).toContain("within 14 days");
  });

  it("are linked from the landing page, sign-up and the site's footer", async () => {
    for (const path of ["/", "/signup", "/login", "/terms"]) {
      const { status, html } = await page(path);
      expect(status, path).toBe(200);
      for (const link of LINKS) expect(html, `${path} links ${link}`).toContain(link);
    }
  });

  it("the checkout links them and says what is charged when", async () => {
    const user = await createSignedInUser();
    const { status, html } = await page("/pay?plan=pro&billing=monthly", user.cookie);
    expect(status).toBe(200);
    for (const link of LINKS) expect(html).toContain(link);
    expect(html).toContain("What is charged when");
    expect(html).toContain("Today: $0.00. Your 7-day free trial starts now");
    expect(html).toMatch(/: your trial ends and your card is charged \$39\.99 for the first month\./);
    expect(html).toContain("Then $39.99 every month on that day, until you cancel.");
    expect(html).toContain("Refunds: cancel during the trial and you pay nothing.");
  });

  it("the dashboard's footer links them", async () => {
    const user = await createSignedInUser();
    const { status, html } = await page("/dashboard/account", user.cookie);
    expect(status).toBe(200);
    for (const link of LINKS) expect(html).toContain(link);
  });

  it("inside Shopify admin, the settings page's footer opens them in a new tab", () => {
    const html = renderToString(createElement(AppProvider, { i18n: enTranslations }, createElement(EmbeddedLegalFooter)));
    for (const path of ["/terms", "/privacy", "/refunds"]) expect(html).toContain(`href="${path}" target="_blank"`);
  });
});

describe("what the checkout says is charged when", () => {
  const at = new Date("2026-11-26T10:00:00Z");

  it("a trial: nothing today, the first charge on the trial's last day, then monthly", () => {
    const { lines } = chargeSchedule(findPlan("basic")!, "$29.99", at);
    expect(lines).toEqual([
      "Today: $0.00. Your 7-day free trial starts now, with trial credits.",
      "December 3, 2026: your trial ends and your card is charged $29.99 for the first month.",
      "Then $29.99 every month on that day, until you cancel.",
      "Cancel before December 3, 2026 on Billing & credits and you are never charged.",
    ]);
  });

  it("a one-time purchase: charged once, nothing renews", () => {
    expect(chargeSchedule(findPlan("inner-circle")!, "$299.99", at).lines).toEqual(["Today: $299.99, charged once. Nothing renews."]);
  });

  it("dates are UTC days", () => {
    expect(chargeDate(new Date("2026-12-31T23:30:00Z"))).toBe("December 31, 2026");
  });
});
