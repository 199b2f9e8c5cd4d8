// The README's demo login exists on a local demo only (docs/decisions/042). Before, `npm start` created it on
// every deployment and set its published password again at each start.
import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { getEnv, parseEnv, localDemo } from "~/env.server";
import { DEMO_EMAIL, DEMO_PASSWORD, DEMO_PLAN_ID, seedDemoAccount } from "~/services/accounts/demo-account.server";
import { loadUser } from "~/services/accounts/auth.server";
import { createBilling } from "~/services/billing.server";
import { describeMe } from "~/services/accounts/users.server";
import { loader as dashboardLoader } from "~/routes/dashboard";
import { call } from "../../helpers/routes";
import { priceIds, webhookSecret } from "../../helpers/paddle";
import { verifyPassword } from "~/services/accounts/password-hashing.server";
import { signInAs } from "../../helpers/site-users";
import { DEMO_EMAIL as README_EMAIL, DEMO_PASSWORD as README_PASSWORD } from "../../e2e/support/constants";
import { readPaddleNotification } from "~/integrations/paddle.server";
import { createLocalPaddle } from "~/integrations/paddle-local.server";

const PUBLIC = { NODE_ENV: "production", APP_URL: "https://shop.example.com" } as const;

async function demoUser() {
  return db.user.findUnique({ where: { email: DEMO_EMAIL }, select: { id: true, passwordHash: true } });
}

describe("the demo account", () => {
  it("is the login the README and the end-to-end tests use", () => {
    expect([DEMO_EMAIL, DEMO_PASSWORD]).toEqual([README_EMAIL, README_PASSWORD]);
  });

  it("is not created on a public deployment", async () => {
    expect(localDemo({ ...parseEnv({}), ...PUBLIC })).toBe(false);
    expect(await seedDemoAccount(db, { localDemo: false })).toBe("absent");
    expect(await demoUser()).toBeNull();
  });

  it("is created on a local demo, with the published password set again at each start", async () => {
    expect(await seedDemoAccount(db, { localDemo: true })).toBe("ready");
    const first = await demoUser();
    expect(await verifyPassword(DEMO_PASSWORD, first!.passwordHash!)).toBe(true);
    await db.user.update({ where: { id: first!.id }, data: { passwordHash: null }, select: { id: true } });
    expect(await seedDemoAccount(db, { localDemo: true })).toBe("ready");
    expect(await verifyPassword(DEMO_PASSWORD, (await demoUser())!.passwordHash!)).toBe(true);
  });

  it("left by an earlier start on a public deployment is locked with a password nobody knows, and signed out", async () => {
    await seedDemoAccount(db, { localDemo: true });
    const user = (await demoUser())!;
    await signInAs(user.id);
    expect(await db.userSession.count({ where: { userId: user.id } })).toBe(1);

    expect(await seedDemoAccount(db, { localDemo: false })).toBe("locked");
    const after = (await demoUser())!;
    expect(after.id).toBe(user.id);
    expect(await verifyPassword(DEMO_PASSWORD, after.passwordHash!)).toBe(false);
    expect(await db.userSession.count({ where: { userId: user.id } })).toBe(0);
  });

  it("on a local demo has an active trial with credits, bought through the local checkout's signed webhook, and says it is the demo", async () => {
    // The billing service as the composition root builds it on a local demo: no Paddle keys, local checkout on.
    const billing = createBilling({
      db,
      prices: priceIds(),
      webhookSecret: webhookSecret(),
      retentionDiscountId: getEnv().PADDLE_RETENTION_DISCOUNT_ID,
      localCheckout: true,
      paddle: { local: createLocalPaddle },
      readNotification: readPaddleNotification,
    });
    const startTrial = async (userId: string) => billing.completeLocalCheckout(await loadUser(db, userId), DEMO_PLAN_ID);
    expect(await seedDemoAccount(db, { localDemo: true, startTrial })).toBe("ready");
    const user = (await demoUser())!;
    const me = await describeMe(db, await loadUser(db, user.id));
    expect(me).toMatchObject({ trialing: true, userSubscribed: "yes", paid: { paid: true } });
    expect(me.aiAds.credits).toBeGreaterThan(0);
    // Written by the webhook handler, as a real purchase is: an event row and a subscription on the demo plan.
    expect(await db.paddleEvent.count()).toBeGreaterThan(0);
    const subscriptions = await db.billingSubscription.findMany({ where: { userId: user.id }, select: { status: true, planId: true } });
    expect(subscriptions).toEqual([{ status: "trialing", planId: DEMO_PLAN_ID }]);

    // The next start keeps the live trial (and its credits) instead of buying another.
    expect(await seedDemoAccount(db, { localDemo: true, startTrial })).toBe("ready");
    expect(await db.billingSubscription.count({ where: { userId: user.id } })).toBe(1);

    // Its address can receive no mail, so it is confirmed; the dashboard says it is the demo.
    const dashboard = await (await call(dashboardLoader, "/dashboard", { cookie: await signInAs(user.id) })).json();
    expect(dashboard).toMatchObject({ demo: true, emailVerified: true });
  });
});
