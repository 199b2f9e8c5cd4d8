// The embedded twins of the account pages (Billing & credits, Course, Settings, the home), called as
// Shopify admin calls them: a real session token for the shop as a bearer token. They act for the user
// the shop is linked to, on the same services as the site; a shop that is not (or no longer) linked is
// sent to the linking screen and changes nothing.
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

const oauth = await vi.hoisted(async () => (await import("../../helpers/fake-shopify-oauth")).installFakeShopifyOAuth());

import { db } from "~/db.server";
import { loader as homeLoader } from "~/routes/app._index";
import { action as billingAction, loader as billingLoader } from "~/routes/app.billing";
import { action as lessonAction, loader as lessonLoader } from "~/routes/app.course.$lessonNumber";
import { loader as courseLoader } from "~/routes/app.course._index";
import { action as settingsAction, loader as settingsLoader } from "~/routes/app.settings";
import { action as zendropAction } from "~/routes/api.stores.zendrop";
import { loader as siteCourseLoader } from "~/routes/dashboard.course._index";
import { syncCourseContent } from "~/services/course/content.server";
import { billing } from "~/services/index.server";
import { loadUser } from "~/services/accounts/auth.server";
import { installShop, linkedShop } from "../../helpers/linked-shops";
import { call, type CallOptions } from "../../helpers/routes";
import { signSessionToken } from "../../helpers/shopify";

const DESKTOP_CHROME =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

beforeAll(async () => {
  await syncCourseContent(db);
});
beforeEach(() => oauth.reset());

async function asShop(shop: string, options: CallOptions = {}): Promise<CallOptions> {
  return {
    ...options,
    headers: {
      authorization: `Bearer ${await signSessionToken({ shop })}`,
      "user-agent": DESKTOP_CHROME,
      ...options.headers,
    },
  };
}

/** A linked shop whose user started a Pro trial through the local checkout. */
async function shopOnTrial() {
  const linked = await linkedShop();
  await billing.completeLocalCheckout(await loadUser(db, linked.user.id), "pro");
  return linked;
}

const subscriptionOf = (userId: string) =>
  db.billingSubscription.findFirstOrThrow({
    where: { userId },
    select: { status: true, scheduledChange: true, trialExtended: true },
  });

function postIntent(shop: string, intent: string) {
  return asShop(shop, { method: "POST", form: { intent } }).then((o) => call(billingAction, "/app/billing", o));
}

describe("/app/billing", () => {
  it("shows the linked user's plan, status and credit balances", async () => {
    const { shop } = await shopOnTrial();
    const res = await call(billingLoader, "/app/billing", await asShop(shop));
    expect(res.status).toBe(200);
    const page = (await res.json()) as {
      overview: { subscription: { planName: string; status: string; nextBilledAt: string } };
      balances: { feature: string; balance: number }[];
    };
    expect(page.overview.subscription).toMatchObject({
      planName: "Pro",
      status: "trialing",
      nextBilledAt: expect.any(String),
    });
    expect(page.balances.find((b) => b.feature === "ai-ads")?.balance).toBe(10);
  });

  it("cancels, offers nothing twice, and extends the trial once, for the linked user", async () => {
    const { shop, user } = await shopOnTrial();

    const extended = await postIntent(shop, "extend-trial");
    expect(extended.status).toBe(200);
    expect((await extended.json()).message).toMatch(/^Your trial now ends on \d{4}-\d{2}-\d{2}\.$/);
    const again = await postIntent(shop, "extend-trial");
    expect(again.status).toBe(409);
    expect((await again.json()).error).toBe("Your trial has already been extended once.");

    const cancelled = await postIntent(shop, "cancel");
    expect(cancelled.status).toBe(200);
    expect(await subscriptionOf(user.id)).toMatchObject({
      status: "trialing",
      scheduledChange: "cancel",
      trialExtended: true,
    });
  });

  it("changes the card through the local checkout when Paddle is not configured", async () => {
    const { shop } = await shopOnTrial();
    const res = await postIntent(shop, "update-payment");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      error: null,
      message: "Payment method updated (test checkout).",
      transactionId: null,
    });
  });

  it("a shop that is not linked is sent to the linking screen, for the page and for every action", async () => {
    const { shop } = await installShop();
    const page = await call(billingLoader, "/app/billing", await asShop(shop));
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/app/link");
    const action = await postIntent(shop, "cancel");
    expect(action.status).toBe(302);
    expect(action.headers.get("location")).toBe("/app/link");
  });

  it("a shop unlinked from its account can no longer change that account's subscription", async () => {
    const { shop, user } = await shopOnTrial();
    await db.shopifyStore.update({ where: { shop }, data: { connected: false, disconnectedAt: new Date() } });

    for (const intent of ["cancel", "extend-trial", "spend"]) {
      const res = await postIntent(shop, intent);
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/app/link");
    }
    expect(await subscriptionOf(user.id)).toMatchObject({
      status: "trialing",
      scheduledChange: null,
      trialExtended: false,
    });
    expect(
      await db.creditBalance.findFirst({ where: { userId: user.id, feature: "ai-ads" }, select: { balance: true } }),
    ).toEqual({
      balance: 10,
    });
  });
});

describe("/app/course", () => {
  it("marks a lesson done for the linked user, and the site's course shows the same progress", async () => {
    const { shop, user } = await linkedShop();
    const opened = await call(lessonLoader, "/app/course/3", await asShop(shop, { params: { lessonNumber: "3" } }));
    expect(opened.status).toBe(200);
    expect((await opened.json()).lesson).toMatchObject({ number: 3, completed: false });

    const done = await call(
      lessonAction,
      "/app/course/3",
      await asShop(shop, { method: "POST", form: { intent: "complete" }, params: { lessonNumber: "3" } }),
    );
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ completed: 3 });

    const embedded = await (await call(courseLoader, "/app/course", await asShop(shop))).json();
    expect(embedded.view).toMatchObject({ lessonsCompleted: 1, progressPercentage: 1.3, latestLessonNumber: 3 });
    const site = await (await call(siteCourseLoader, "/dashboard/course", { cookie: user.cookie })).json();
    expect(site.view).toMatchObject({ lessonsCompleted: 1, progressPercentage: 1.3, latestLessonNumber: 3 });
  });

  it("an unknown lesson is a 404 naming it; an unlinked shop is sent to link", async () => {
    const { shop } = await linkedShop();
    const res = await call(lessonLoader, "/app/course/79", await asShop(shop, { params: { lessonNumber: "79" } }));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "There is no lesson 79. Lessons are numbered 1 to 78." });

    const unlinked = await installShop();
    const refused = await call(
      lessonAction,
      "/app/course/1",
      await asShop(unlinked.shop, { method: "POST", form: { intent: "complete" }, params: { lessonNumber: "1" } }),
    );
    expect(refused.status).toBe(302);
    expect(refused.headers.get("location")).toBe("/app/link");
  });
});

describe("/app/settings", () => {
  it("shows the linked account, this shop's link and the Zendrop flag, which the JSON API toggles", async () => {
    const { shop, user } = await linkedShop();
    const before = await (await call(settingsLoader, "/app/settings", await asShop(shop))).json();
    expect(before).toMatchObject({
      shop,
      account: { email: user.email, userSubscribed: "no" },
      store: { linkedAt: expect.any(String) },
      otherStores: 0,
      zendropConnected: false,
      community: { inviteUrl: null, joined: false, oauthEnabled: false },
    });

    const toggled = await call(
      zendropAction,
      "/api/stores/zendrop",
      await asShop(shop, { method: "POST", json: { connected: true } }),
    );
    expect(toggled.status).toBe(200);

    const after = await (await call(settingsLoader, "/app/settings", await asShop(shop))).json();
    expect(after.zendropConnected).toBe(true);
    expect(await db.user.findUniqueOrThrow({ where: { id: user.id }, select: { zendropConnected: true } })).toEqual({
      zendropConnected: true,
    });
  });

  it("disconnects the linked user's Discord account", async () => {
    const { shop, user } = await linkedShop();
    await db.discordProfile.create({ data: { userId: user.id, discordId: "1234", discordUserName: "seller#1" } });

    const res = await call(
      settingsAction,
      "/app/settings",
      await asShop(shop, { method: "POST", form: { intent: "disconnect-discord" } }),
    );

    expect(res.status).toBe(200);
    expect(
      await db.discordProfile.findUniqueOrThrow({ where: { userId: user.id }, select: { discordId: true } }),
    ).toEqual({
      discordId: null,
    });
  });

  it("an unlinked shop's settings action changes nothing", async () => {
    const { shop } = await installShop();
    const res = await call(
      settingsAction,
      "/app/settings",
      await asShop(shop, { method: "POST", form: { intent: "disconnect-discord" } }),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/app/link");
  });
});

describe("the embedded home", () => {
  it("summarises the course, the plan and the credits left", async () => {
    const { shop } = await shopOnTrial();
    const res = await call(homeLoader, "/app", await asShop(shop));
    expect(res.status).toBe(200);
    const home = await res.json();
    expect(home).toMatchObject({
      shop,
      account: { userSubscribed: "yes", trialing: true, paid: true },
      subscription: { planName: "Pro", status: "trialing" },
      course: { lessonsCompleted: 0, progressPercentage: 0 },
    });
    expect(home.balances.map((b: { feature: string; balance: number }) => [b.feature, b.balance])).toEqual([
      ["ai-ads", 10],
      ["automatic-mode", 8],
      ["glitch-mode", 5],
      ["product-pages", 10],
    ]);
  });
});
