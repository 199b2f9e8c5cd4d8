// Property (fast-check, seeded): a shop's app_subscriptions/update webhooks for a realistic history (a
// Basic trial, renewals, a frozen shop and its recovery, maybe an upgrade to Pro that replaces it, maybe
// the end), every webhook delivered 1-3 times under its one webhook id in one random order, leave
// exactly the state one in-order delivery leaves: the user's flags, the subscription rows and the credit
// balances. Applied as the route applies them (applyOnce + the service) on the migrated database; the
// trial's length is read back from the local Admin GraphQL server as in production.
// PROPERTY_RUNS=<n> runs more cases; PROPERTY_SEED=<n> replays one run's seed.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const oauth = await vi.hoisted(async () => (await import("../../helpers/fake-shopify-oauth")).installFakeShopifyOAuth());

import { db } from "~/db.server";
import { createShopifyAdmin } from "~/integrations/shopify-admin.server";
import { createBillingEvents } from "~/services/billing/events.server";
import { createShopifyBilling } from "~/services/shopify-billing.server";
import { applyOnce } from "~/services/shopify/webhooks.server";
import { startFakeAdminGraphql, type FakeAdminGraphql } from "../../helpers/fake-admin-graphql";
import { linkedShop } from "../../helpers/linked-shops";
import { balancesOf, userBilling } from "../../helpers/paddle";
import { readPaddleNotification } from "~/integrations/paddle.server";
import { shopifyBillingApi } from "~/integrations/shopify-billing.server";

const HOUR = 3600_000;
const T0 = Date.parse("2026-09-01T10:00:00Z");

let admin: FakeAdminGraphql;
let nextGid = 880_000_001;
const events = createBillingEvents({
  db,
  prices: { basic: "pri_b", pro: "pri_p", innerCircle: "pri_ic", caseStudy: "pri_cs" },
  webhookSecret: "unused",
  retentionDiscountId: "dsc_unused",
  readNotification: readPaddleNotification,
});
const shopifyBilling = createShopifyBilling({
  db,
  api: shopifyBillingApi,
  adminFor: async (shop) => createShopifyAdmin({ shop, accessToken: admin.accessToken, apiVersion: "2026-10", baseUrl: admin.url, maxAttempts: 1 }),
  syncUserFlags: events.syncUserFlags,
  returnUrlFor: () => "https://admin.shopify.com/store/x/apps/k/app/billing",
  test: true,
});

beforeAll(async () => {
  admin = await startFakeAdminGraphql();
  oauth.reset();
});
afterAll(() => admin.close());

/** One webhook of an abstract history: which subscription (0 = Basic, 1 = the Pro that replaces it), its status, when. */
interface Step {
  sub: 0 | 1;
  status: "ACTIVE" | "FROZEN" | "CANCELLED" | "EXPIRED";
  at: number;
}

interface Life {
  /** Hours between Basic's webhooks after activation. */
  basic: { status: "ACTIVE" | "FROZEN"; gapHours: number }[];
  upgrade: { gapHours: number; after: { status: "ACTIVE" | "FROZEN"; gapHours: number }[] } | null;
  end: "none" | "CANCELLED" | "EXPIRED";
}

const moveArb = fc.record({
  status: fc.constantFrom("ACTIVE" as const, "ACTIVE" as const, "FROZEN" as const),
  gapHours: fc.integer({ min: 1, max: 24 * 40 }),
});
const lifeArb: fc.Arbitrary<Life> = fc.record({
  basic: fc.array(moveArb, { maxLength: 4 }),
  upgrade: fc.option(fc.record({ gapHours: fc.integer({ min: 1, max: 24 * 20 }), after: fc.array(moveArb, { maxLength: 2 }) }), { nil: null }),
  end: fc.constantFrom("none" as const, "CANCELLED" as const, "EXPIRED" as const),
});

function stepsOf(life: Life): { steps: Step[]; upgradedAt: number | null } {
  const steps: Step[] = [{ sub: 0, status: "ACTIVE", at: T0 + 60_000 }];
  let t = T0 + 60_000;
  for (const m of life.basic) steps.push({ sub: 0, status: m.status, at: (t += m.gapHours * HOUR) });
  let current: 0 | 1 = 0;
  let upgradedAt: number | null = null;
  if (life.upgrade) {
    upgradedAt = t += life.upgrade.gapHours * HOUR;
    steps.push({ sub: 1, status: "ACTIVE", at: t });
    steps.push({ sub: 0, status: "CANCELLED", at: t + 1000 });
    t += 1000;
    current = 1;
    for (const m of life.upgrade.after) steps.push({ sub: 1, status: m.status, at: (t += m.gapHours * HOUR) });
  }
  if (life.end !== "none") steps.push({ sub: current, status: life.end, at: t + HOUR });
  return { steps, upgradedAt };
}

/** Delivers one history to a new linked shop, in the given order of (step index, copy) pairs. */
async function deliverLife(life: Life, order: number[]) {
  const linked = await linkedShop();
  const { steps, upgradedAt } = stepsOf(life);
  const gids = [`gid://shopify/AppSubscription/${nextGid++}`, `gid://shopify/AppSubscription/${nextGid++}`] as const;
  const created = [new Date(T0).toISOString(), new Date(upgradedAt ?? T0).toISOString()];
  // What Shopify lists as active (the trial's length is read back from there): Basic with its 7 days, Pro with none.
  for (const [i, gid] of gids.entries()) {
    admin.billing.subscriptions.set(gid, {
      id: gid,
      name: i === 0 ? "Winning Products Basic" : "Winning Products Pro",
      status: "ACTIVE",
      createdAt: created[i],
      updatedAt: created[i],
      trialDays: i === 0 ? 7 : 0,
      test: true,
      returnUrl: "https://example.test",
      price: { amount: i === 0 ? "29.99" : "39.99", currencyCode: "USD" },
      replacementBehavior: null,
    });
  }
  const webhookIds = steps.map(() => crypto.randomUUID());
  for (const index of order) {
    const step = steps[index];
    const payload = {
      app_subscription: {
        admin_graphql_api_id: gids[step.sub],
        name: step.sub === 0 ? "Winning Products Basic" : "Winning Products Pro",
        status: step.status,
        admin_graphql_api_shop_id: "gid://shopify/Shop/1",
        created_at: created[step.sub],
        updated_at: new Date(step.at).toISOString(),
        currency: "USD",
        price: step.sub === 0 ? "29.99" : "39.99",
        interval: "every_30_days",
        plan_handle: null,
      },
    };
    await applyOnce(db, { webhookId: webhookIds[index], topic: "app_subscriptions/update", shop: linked.shop }, () =>
      shopifyBilling.applySubscriptionWebhook(linked.shop, JSON.parse(JSON.stringify(payload))),
    );
  }
  return { userId: linked.user.id, shop: linked.shop, gids };
}

async function observable(delivered: { userId: string; shop: string; gids: readonly string[] }) {
  const swap = (v: string | null) => (v === delivered.gids[0] ? "<basic>" : v === delivered.gids[1] ? "<pro>" : v);
  const user = await userBilling(delivered.userId);
  const rows = await db.billingSubscription.findMany({
    where: { userId: delivered.userId },
    select: { id: true, provider: true, shop: true, status: true, planId: true, currentPeriodStart: true, currentPeriodEnd: true, nextBilledAt: true, recurringTotalCents: true, lastEventAt: true },
  });
  return {
    user: { ...user, subscription_id: swap(user.subscription_id) },
    rows: rows.map((r) => ({ ...r, id: swap(r.id), shop: r.shop === delivered.shop ? "<shop>" : r.shop })).sort((a, b) => String(a.id).localeCompare(String(b.id))),
    balances: await balancesOf(delivered.userId),
  };
}

describe("app_subscriptions/update in any order", () => {
  it("duplicated and shuffled deliveries leave the state of one in-order delivery", async () => {
    await fc.assert(
      fc.asyncProperty(
        lifeArb.chain((life) => {
          const n = stepsOf(life).steps.length;
          const copies = fc.array(fc.integer({ min: 1, max: 3 }), { minLength: n, maxLength: n });
          return fc.tuple(
            fc.constant(life),
            copies.chain((c) => fc.shuffledSubarray(c.flatMap((k, i) => Array.from({ length: k }, () => i)), { minLength: c.reduce((a, b) => a + b, 0) })),
          );
        }),
        async ([life, order]) => {
          const n = stepsOf(life).steps.length;
          const reference = await observable(await deliverLife(life, Array.from({ length: n }, (_, i) => i)));
          const shuffled = await observable(await deliverLife(life, order));
          expect(shuffled).toEqual(reference);
          // The last word on the subscription in force (Pro after an upgrade) decides access.
          const last = stepsOf(life).steps.filter((st) => st.sub === (life.upgrade ? 1 : 0)).at(-1)!;
          expect(reference.user.userSubscribed).toBe(last.status === "ACTIVE" || last.status === "FROZEN" ? "yes" : "no");
        },
      ),
      {
        numRuns: Number(process.env.PROPERTY_RUNS ?? 12),
        ...(process.env.PROPERTY_SEED ? { seed: Number(process.env.PROPERTY_SEED) } : {}),
      },
    );
  }, 120_000);
});
