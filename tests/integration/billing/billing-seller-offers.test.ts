// What the billing page offers a seller, through the local test checkout and the production webhook
// handler (issue 25, items 5 and 6): the trial extension only on the way out of a trial, once; Basic <->
// Pro switches; extra credits where the plan allows, granted once per purchase.
import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { findPlan } from "~/domain/billing/plans";
import { action as billingAction, loader as billingLoader } from "~/routes/dashboard.billing";
import { action as pay } from "~/routes/_site.pay";
import { balancesOf, userBilling } from "../../helpers/paddle";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

const basic = findPlan("basic")!;
const pro = findPlan("pro")!;

type Page = {
  trialExtension: { days: number; until: string | null } | null;
  planSwitch: { id: string; name: string }[];
  creditPacks: { via: string; packs: { id: string }[] } | null;
};

async function page(user: { cookie: string }, query = ""): Promise<Page> {
  const res = await call(billingLoader, `/dashboard/billing${query}`, { cookie: user.cookie });
  expect(res.status).toBe(200);
  return (await res.json()) as Page;
}

async function intent(user: { cookie: string }, name: string, extra: Record<string, string> = {}) {
  const res = await call(billingAction, "/dashboard/billing", { method: "POST", form: { intent: name, ...extra }, cookie: user.cookie });
  return { status: res.status, body: (await res.json()) as { error: string | null; message: string | null } };
}

async function subscribed(plan: "basic" | "pro") {
  const user = await createSignedInUser();
  const res = await call(pay, `/pay?plan=${plan}&billing=monthly`, { method: "POST", form: {}, cookie: user.cookie });
  expect(res.status).toBe(302);
  return user;
}

const sub = (userId: string) =>
  db.billingSubscription.findFirstOrThrow({ where: { userId }, select: { id: true, status: true, planId: true, nextBilledAt: true } });

describe("the trial extension (the seed's extendedTrial)", () => {
  it("is offered only in the cancel step of a trial, once; used, it is offered no more", async () => {
    const user = await subscribed("pro");
    expect((await page(user)).trialExtension).toBeNull();
    const trialEnd = (await sub(user.id)).nextBilledAt!;
    const offered = (await page(user, "?step=cancel")).trialExtension;
    expect(offered).toEqual({ days: 7, until: new Date(trialEnd.getTime() + 7 * 24 * 3600_000).toISOString() });

    const res = await intent(user, "extend-trial");
    expect(res.status).toBe(200);
    expect((await userBilling(user.id)).extendedTrial).toBe(true);
    expect((await page(user, "?step=cancel")).trialExtension).toBeNull();
    expect((await intent(user, "extend-trial")).status).toBe(409);
  });

  it("is not offered once the trial is over, nor on a plan already set to end", async () => {
    const user = await subscribed("basic");
    await intent(user, "simulate-renew");
    expect((await sub(user.id)).status).toBe("active");
    expect((await page(user, "?step=cancel")).trialExtension).toBeNull();

    const ending = await subscribed("basic");
    await intent(ending, "cancel");
    expect((await page(ending, "?step=cancel")).trialExtension).toBeNull();
  });
});

describe("switching Basic <-> Pro on the Paddle rail", () => {
  it("during the trial: the plan changes, the trial goes on, nothing is charged", async () => {
    const user = await subscribed("basic");
    expect((await page(user)).planSwitch.map((p) => p.id)).toEqual(["pro"]);
    const res = await intent(user, "change-plan", { plan: "pro" });
    expect(res).toEqual({ status: 200, body: expect.objectContaining({ error: null, message: "You are on Pro now. Your trial goes on; the first charge is Pro's price." }) });
    expect(await sub(user.id)).toMatchObject({ planId: "pro", status: "trialing" });
    expect((await page(user)).planSwitch.map((p) => p.id)).toEqual(["basic"]);
    expect(await balancesOf(user.id)).toEqual(pro.trialCredits);
  });

  it("after the trial: Pro -> Basic sets Basic's allowance; Basic -> Pro sets Pro's", async () => {
    const user = await subscribed("pro");
    await intent(user, "simulate-renew");
    expect(await balancesOf(user.id)).toEqual(pro.credits);
    expect((await intent(user, "change-plan", { plan: "basic" })).status).toBe(200);
    expect((await sub(user.id)).planId).toBe("basic");
    expect(await balancesOf(user.id)).toEqual(basic.credits);
    expect((await intent(user, "change-plan", { plan: "pro" })).status).toBe(200);
    expect(await balancesOf(user.id)).toEqual(pro.credits);
  });

  it("refuses with a sentence and changes nothing: the same plan, Inner Circle, a plan set to end, no plan", async () => {
    const user = await subscribed("basic");
    expect(await intent(user, "change-plan", { plan: "basic" })).toEqual({ status: 409, body: expect.objectContaining({ error: "You are already on Basic." }) });
    expect((await intent(user, "change-plan", { plan: "inner-circle" })).body.error).toBe("Choose the Basic or the Pro plan.");
    await intent(user, "cancel");
    expect(await intent(user, "change-plan", { plan: "pro" })).toEqual({
      status: 409,
      body: expect.objectContaining({ error: "Your plan is set to end. Resume it first, then switch." }),
    });
    expect((await page(user)).planSwitch).toEqual([]);
    expect((await sub(user.id)).planId).toBe("basic");
    const none = await createSignedInUser();
    expect((await intent(none, "change-plan", { plan: "pro" })).status).toBe(404);
  });
});

describe("extra credits", () => {
  it("a running plan buys a pack: its credits on top, once per purchase, in the history", async () => {
    const user = await subscribed("basic");
    const packs = (await page(user)).creditPacks;
    expect(packs).toEqual({ via: "local", packs: [expect.objectContaining({ id: "ai-ads-50" }), expect.objectContaining({ id: "product-pages-50" })] });
    const before = await balancesOf(user.id);
    const res = await intent(user, "buy-credits", { pack: "ai-ads-50" });
    expect(res).toEqual({ status: 200, body: expect.objectContaining({ error: null, message: "50 AI ad credits added (test checkout)." }) });
    expect(await balancesOf(user.id)).toEqual({ ...before, "ai-ads": before["ai-ads"] + 50 });
    const grants = await db.creditLedger.findMany({ where: { userId: user.id, idempotencyKey: { startsWith: "paddle-credits:" } }, select: { reason: true, amount: true } });
    expect(grants).toEqual([{ reason: "Bought: 50 AI ad credits", amount: 50 }]);
  });

  it("where the plan does not allow it: no offer, and a purchase is refused with a sentence and grants nothing", async () => {
    const none = await createSignedInUser();
    expect((await page(none)).creditPacks).toBeNull();
    expect(await intent(none, "buy-credits", { pack: "ai-ads-50" })).toEqual({
      status: 409,
      body: expect.objectContaining({ error: "Extra credits come with a running Basic or Pro plan. Choose or resume a plan first." }),
    });
    const ending = await subscribed("pro");
    await intent(ending, "cancel");
    expect((await page(ending)).creditPacks).toBeNull();
    const before = await balancesOf(ending.id);
    expect((await intent(ending, "buy-credits", { pack: "ai-ads-50" })).status).toBe(409);
    expect((await intent(ending, "buy-credits", { pack: "ai-ads-5000" })).status).toBe(400);
    expect(await balancesOf(ending.id)).toEqual(before);
  });
});
