// POST /webhooks/paddle through the route, with Paddle-shaped notifications signed at the current time:
// signature checks, deduplication, stale events, and what each event does to the user and the credits.
import { copyFileSync, rmSync } from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createDb, db, tuneSqlite } from "~/db.server";
import { findPlan, UNLIMITED_THRESHOLD } from "~/domain/billing/plans";
import { eventJson, readPaddleNotification, signWebhook, subscriptionJson } from "~/integrations/paddle.server";
import { createLocalPaddle } from "~/integrations/paddle-local.server";
import { createBilling } from "~/services/billing.server";
import { getEnv } from "~/env.server";
import {
  balancesOf,
  caseStudyPrice,
  completedTransaction,
  deliver,
  eventRow,
  ledgerOf,
  newCustomerId,
  nextPeriod,
  planPrice,
  postWebhook,
  priceIds,
  subscriptionEvent,
  transactionEvent,
  trialSnapshot,
  userBilling,
  webhookSecret,
} from "../../helpers/paddle";
import { createUser } from "../../helpers/site-users";

const pro = findPlan("pro")!;
const ago = (ms: number) => new Date(Date.now() - ms);

const NOT_SUBSCRIBED = {
  userSubscribed: "no",
  trialing: false,
  subscriptionCancelled: false,
  chargeDeclined: false,
  subscription_id: null,
  paddleSubscriptionId: null,
  paddleCustomerId: null,
  innerCircle: false,
  boughtCaseStudy: false,
};

describe("Paddle-Signature", () => {
  async function refused(raw: string, signature: string | null, userId: string, eventId: string) {
    const res = await postWebhook(raw, { signature });
    expect(res.status).toBe(401);
    expect(res.body.error).toMatch(/Paddle-Signature/);
    expect(await eventRow(eventId)).toBeNull();
    expect(await userBilling(userId)).toMatchObject(NOT_SUBSCRIBED);
    expect(await balancesOf(userId)).toEqual({});
    expect(await db.billingSubscription.count({ where: { userId } })).toBe(0);
  }

  it("a notification signed now with the server's secret is applied", async () => {
    const user = await createUser();
    const event = subscriptionEvent("subscription.created", trialSnapshot(user.id), new Date());
    const res = await deliver(event);
    expect(res).toEqual({ status: 200, body: { ok: true, outcome: "applied" } });
    expect(await eventRow(event.event_id)).toMatchObject({ outcome: "applied", userId: user.id });
    expect((await userBilling(user.id)).userSubscribed).toBe("yes");
  });

  it("forged (another secret) -> 401, nothing changes", async () => {
    const user = await createUser();
    const event = subscriptionEvent("subscription.created", trialSnapshot(user.id), new Date());
    const raw = JSON.stringify(event);
    await refused(raw, signWebhook(raw, "not-the-secret-" + randomUUID()), user.id, event.event_id);
  });

  it("unsigned -> 401, nothing changes", async () => {
    const user = await createUser();
    const event = subscriptionEvent("subscription.created", trialSnapshot(user.id), new Date());
    await refused(JSON.stringify(event), null, user.id, event.event_id);
  });

  it("a malformed header -> 401, nothing changes", async () => {
    const user = await createUser();
    const event = subscriptionEvent("subscription.created", trialSnapshot(user.id), new Date());
    const raw = JSON.stringify(event);
    for (const header of ["", "garbage", "ts=;h1=", `h1=${"0".repeat(64)}`]) {
      await refused(raw, header, user.id, event.event_id);
    }
  });

  it("stale (signed 10 minutes ago) -> 401, nothing changes", async () => {
    const user = await createUser();
    const event = subscriptionEvent("subscription.created", trialSnapshot(user.id), new Date());
    const raw = JSON.stringify(event);
    await refused(raw, signWebhook(raw, webhookSecret(), ago(10 * 60_000)), user.id, event.event_id);
  });

  it("tampered body (signed, then changed) -> 401, nothing changes", async () => {
    const user = await createUser();
    const victim = await createUser();
    const event = subscriptionEvent("subscription.created", trialSnapshot(user.id), new Date());
    const raw = JSON.stringify(event);
    const signature = signWebhook(raw, webhookSecret());
    const tampered = raw.replace(user.id, victim.id);
    expect(tampered).not.toBe(raw);
    await refused(tampered, signature, victim.id, event.event_id);
    await refused(raw.replace('"trialing"', '"active"'), signature, user.id, event.event_id);
  });

  it("correctly signed but unreadable -> 400 (not blamed on the signature), nothing recorded, no console.error", async () => {
    const user = await createUser();
    const event = subscriptionEvent("subscription.created", trialSnapshot(user.id), new Date());
    const broken = { ...event, data: { ...(event.data as object), items: undefined } };
    for (const raw of ["{not json", JSON.stringify(broken)]) {
      const res = await postWebhook(raw);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "The notification could not be read." });
    }
    expect(await eventRow(event.event_id)).toBeNull();
    expect(await userBilling(user.id)).toMatchObject(NOT_SUBSCRIBED);
  });

  it("answers 405 to anything but POST", async () => {
    const { loader } = await import("~/routes/webhooks.paddle");
    const { call } = await import("../../helpers/routes");
    expect((await call(loader, "/webhooks/paddle")).status).toBe(405);
  });
});

describe("deduplication and ordering", () => {
  it("a redelivery of the same event_id answers duplicate and is applied once", async () => {
    const user = await createUser();
    const event = subscriptionEvent("subscription.created", trialSnapshot(user.id), new Date());
    expect((await deliver(event)).body.outcome).toBe("applied");
    const ledgerAfterFirst = await ledgerOf(user.id);
    for (let i = 0; i < 3; i++) {
      expect(await deliver(event)).toEqual({ status: 200, body: { ok: true, outcome: "duplicate" } });
    }
    expect(await ledgerOf(user.id)).toEqual(ledgerAfterFirst);
    expect(await db.paddleEvent.count({ where: { eventId: event.event_id } })).toBe(1);
    expect(await balancesOf(user.id)).toEqual(pro.trialCredits);
  });

  it("the same event delivered 5 times at once is applied once", async () => {
    const user = await createUser();
    const event = subscriptionEvent("subscription.created", trialSnapshot(user.id), new Date());
    const results = await Promise.all(Array.from({ length: 5 }, () => deliver(event)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(results.map((r) => r.body.outcome).sort()).toEqual([
      "applied",
      "duplicate",
      "duplicate",
      "duplicate",
      "duplicate",
    ]);
    expect(await balancesOf(user.id)).toEqual(pro.trialCredits);
    expect((await ledgerOf(user.id)).length).toBe(4);
  });

  it("an event older than the last applied for the same subscription is stale and changes nothing", async () => {
    const user = await createUser();
    const trial = trialSnapshot(user.id, { at: ago(60_000) });
    const active = nextPeriod(trial);
    await deliver(subscriptionEvent("subscription.created", trial, ago(60_000)));
    expect((await deliver(subscriptionEvent("subscription.updated", active, ago(30_000)))).body.outcome).toBe(
      "applied",
    );
    const before = {
      user: await userBilling(user.id),
      balances: await balancesOf(user.id),
      ledger: await ledgerOf(user.id),
    };

    // A trialing update that Paddle sent before the activation arrives late.
    const late = subscriptionEvent("subscription.updated", { ...trial, scheduledChange: null }, ago(45_000));
    expect(await deliver(late)).toEqual({ status: 200, body: { ok: true, outcome: "stale" } });
    expect(await eventRow(late.event_id)).toMatchObject({ outcome: "stale" });
    expect(await userBilling(user.id)).toEqual(before.user);
    expect(await balancesOf(user.id)).toEqual(before.balances);
    expect(await ledgerOf(user.id)).toEqual(before.ledger);
    const row = await db.billingSubscription.findUniqueOrThrow({ where: { id: trial.id }, select: { status: true } });
    expect(row.status).toBe("active");
  });

  it("an event whose user and customer are unknown is answered 200 unmatched and changes no one", async () => {
    const bystander = await createUser({ paddleCustomerId: null });
    const snapshot = trialSnapshot(`usr_${randomUUID()}`, { customerId: newCustomerId() });
    const event = subscriptionEvent("subscription.created", snapshot, new Date());
    expect(await deliver(event)).toEqual({ status: 200, body: { ok: true, outcome: "unmatched" } });
    expect(await eventRow(event.event_id)).toMatchObject({ outcome: "unmatched", userId: null });
    expect(await db.billingSubscription.count({ where: { id: snapshot.id } })).toBe(0);
    expect(await userBilling(bystander.id)).toMatchObject(NOT_SUBSCRIBED);

    // A transaction carrying only an e-mail address that matches a user is not matched either: the
    // e-mail is never used to find a user.
    const txn = transactionEvent(
      "transaction.completed",
      completedTransaction(`usr_${randomUUID()}`, planPrice("inner-circle")),
      new Date(),
    );
    (txn.data as { custom_data: unknown }).custom_data = { email: bystander.email };
    expect((await deliver(txn)).body.outcome).toBe("unmatched");
    expect(await userBilling(bystander.id)).toMatchObject(NOT_SUBSCRIBED);
  });

  it("an event for a subscription that belongs to someone else is not applied to either", async () => {
    const owner = await createUser();
    const other = await createUser();
    const trial = trialSnapshot(owner.id);
    await deliver(subscriptionEvent("subscription.created", trial, ago(1000)));
    const hijack = subscriptionEvent(
      "subscription.updated",
      { ...trial, userId: other.id, status: "canceled" },
      new Date(),
    );
    expect((await deliver(hijack)).body.outcome).toBe("unmatched");
    expect((await userBilling(owner.id)).userSubscribed).toBe("yes");
    expect((await userBilling(other.id)).userSubscribed).toBe("no");
  });

  it("an event type we do not use is recorded as ignored", async () => {
    const event = eventJson(
      "customer.created",
      {
        id: newCustomerId(),
        name: null,
        email: "someone@example.com",
        marketing_consent: false,
        status: "active",
        custom_data: null,
        locale: "en",
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
        import_meta: null,
      },
      new Date(),
    );
    expect(await deliver(event)).toEqual({ status: 200, body: { ok: true, outcome: "ignored" } });
  });
});

describe("what each event does", () => {
  it("subscription.created trialing: subscribed, trialing, ids set, trial credits granted", async () => {
    const user = await createUser();
    const trial = trialSnapshot(user.id, { planId: "pro" });
    await deliver(subscriptionEvent("subscription.created", trial, new Date()));
    expect(await userBilling(user.id)).toMatchObject({
      userSubscribed: "yes",
      trialing: true,
      subscriptionCancelled: false,
      chargeDeclined: false,
      subscription_id: trial.id,
      paddleSubscriptionId: trial.id,
      paddleCustomerId: trial.customerId,
    });
    expect(await balancesOf(user.id)).toEqual(pro.trialCredits);
    const row = await db.billingSubscription.findUniqueOrThrow({
      where: { id: trial.id },
      select: {
        status: true,
        planId: true,
        priceId: true,
        recurringTotalCents: true,
        currencyCode: true,
        billingInterval: true,
      },
    });
    expect(row).toEqual({
      status: "trialing",
      planId: "pro",
      priceId: priceIds().pro,
      recurringTotalCents: 3999,
      currencyCode: "USD",
      billingInterval: "month",
    });
  });

  it("subscription.updated active with a new billing period: credits reset to the plan's allowance", async () => {
    const user = await createUser();
    const trial = trialSnapshot(user.id, { planId: "basic", at: ago(120_000) });
    await deliver(subscriptionEvent("subscription.created", trial, ago(120_000)));
    const basic = findPlan("basic")!;
    const period1 = nextPeriod(trial);
    await deliver(subscriptionEvent("subscription.updated", period1, ago(60_000)));
    expect(await userBilling(user.id)).toMatchObject({ userSubscribed: "yes", trialing: false });
    expect(await balancesOf(user.id)).toEqual(basic.credits);

    // The renewal resets (unused credits expire) rather than adding up.
    const period2 = nextPeriod(period1);
    await deliver(subscriptionEvent("subscription.updated", period2, ago(30_000)));
    expect(await balancesOf(user.id)).toEqual(basic.credits);
    const ledger = await ledgerOf(user.id);
    expect(ledger.filter((r) => r.feature === "ai-ads").map((r) => r.balanceAfter)).toEqual([
      basic.trialCredits["ai-ads"],
      basic.credits["ai-ads"],
      basic.credits["ai-ads"],
    ]);

    // An update within the same period (e.g. a changed address) grants nothing more.
    await deliver(subscriptionEvent("subscription.updated", period2, new Date()));
    expect((await ledgerOf(user.id)).length).toBe(ledger.length);
  });

  it("subscription.past_due: chargeDeclined, still subscribed; active again clears it", async () => {
    const user = await createUser();
    const trial = trialSnapshot(user.id, { at: ago(60_000) });
    await deliver(subscriptionEvent("subscription.created", trial, ago(60_000)));
    const pastDue = { ...nextPeriod(trial), status: "past_due" as const };
    await deliver(subscriptionEvent("subscription.past_due", pastDue, ago(30_000)));
    expect(await userBilling(user.id)).toMatchObject({ userSubscribed: "yes", chargeDeclined: true, trialing: false });
    await deliver(subscriptionEvent("subscription.updated", { ...pastDue, status: "active" }, new Date()));
    expect(await userBilling(user.id)).toMatchObject({ userSubscribed: "yes", chargeDeclined: false });
  });

  it("transaction.payment_failed newer than the subscription state sets chargeDeclined", async () => {
    const user = await createUser();
    const trial = trialSnapshot(user.id, { at: ago(60_000) });
    await deliver(subscriptionEvent("subscription.created", trial, ago(60_000)));
    const txn = completedTransaction(user.id, trial.price, {
      status: "past_due",
      subscriptionId: trial.id,
      customerId: trial.customerId,
      origin: "subscription_recurring",
    });
    expect((await deliver(transactionEvent("transaction.payment_failed", txn, new Date()))).body.outcome).toBe(
      "applied",
    );
    expect((await userBilling(user.id)).chargeDeclined).toBe(true);
  });

  it("a past_due that arrives before the activation it follows still leaves the period's credits", async () => {
    const user = await createUser();
    const trial = trialSnapshot(user.id, { at: ago(90_000) });
    const active = nextPeriod(trial);
    const pastDue = { ...nextPeriod(active), status: "past_due" as const };
    // Paddle's order: created, activated, past_due at the next renewal. Delivered newest first.
    await deliver(subscriptionEvent("subscription.past_due", pastDue, ago(10_000)));
    expect((await deliver(subscriptionEvent("subscription.activated", active, ago(50_000)))).body.outcome).toBe(
      "stale",
    );
    expect((await deliver(subscriptionEvent("subscription.created", trial, ago(90_000)))).body.outcome).toBe("stale");
    expect(await userBilling(user.id)).toMatchObject({ userSubscribed: "yes", chargeDeclined: true });
    expect(await balancesOf(user.id)).toEqual(pro.credits);

    // Recovering in the same period grants nothing twice.
    const before = (await ledgerOf(user.id)).length;
    await deliver(subscriptionEvent("subscription.updated", { ...pastDue, status: "active" }, new Date()));
    expect((await ledgerOf(user.id)).length).toBe(before);
    expect((await userBilling(user.id)).chargeDeclined).toBe(false);
  });

  it("a plan change within the period resets to the new plan's allowance, also when changing back", async () => {
    const user = await createUser();
    const basic = findPlan("basic")!;
    const trial = trialSnapshot(user.id, { planId: "pro", at: ago(120_000) });
    const onPro = nextPeriod(trial);
    await deliver(subscriptionEvent("subscription.created", trial, ago(120_000)));
    await deliver(subscriptionEvent("subscription.activated", onPro, ago(90_000)));
    expect(await balancesOf(user.id)).toEqual(pro.credits);
    await deliver(subscriptionEvent("subscription.updated", { ...onPro, price: planPrice("basic") }, ago(60_000)));
    expect(await balancesOf(user.id)).toEqual(basic.credits);
    await deliver(subscriptionEvent("subscription.updated", onPro, ago(30_000)));
    expect(await balancesOf(user.id)).toEqual(pro.credits);
    // Another update on the same plan and period (say, a new address) grants nothing.
    const before = (await ledgerOf(user.id)).length;
    await deliver(subscriptionEvent("subscription.updated", onPro, new Date()));
    expect((await ledgerOf(user.id)).length).toBe(before);
  });

  it("a scheduled cancel: subscriptionCancelled while userSubscribed stays yes", async () => {
    const user = await createUser();
    const trial = trialSnapshot(user.id, { at: ago(60_000) });
    const active = nextPeriod(trial);
    await deliver(subscriptionEvent("subscription.created", trial, ago(60_000)));
    await deliver(subscriptionEvent("subscription.updated", active, ago(30_000)));
    await deliver(
      subscriptionEvent(
        "subscription.updated",
        { ...active, scheduledChange: { action: "cancel", effectiveAt: active.currentPeriodEnd }, nextBilledAt: null },
        new Date(),
      ),
    );
    expect(await userBilling(user.id)).toMatchObject({ userSubscribed: "yes", subscriptionCancelled: true });
    expect(await balancesOf(user.id)).toEqual(pro.credits);
  });

  it("subscription.canceled: not subscribed, every credit expired to 0", async () => {
    const user = await createUser();
    const trial = trialSnapshot(user.id, { at: ago(60_000) });
    await deliver(subscriptionEvent("subscription.created", trial, ago(60_000)));
    await deliver(subscriptionEvent("subscription.updated", nextPeriod(trial), ago(30_000)));
    await deliver(
      subscriptionEvent(
        "subscription.canceled",
        { ...nextPeriod(trial), status: "canceled", nextBilledAt: null, canceledAt: new Date() },
        new Date(),
      ),
    );
    expect(await userBilling(user.id)).toMatchObject({
      userSubscribed: "no",
      trialing: false,
      subscriptionCancelled: true,
    });
    expect(await balancesOf(user.id)).toEqual({
      "ai-ads": 0,
      "automatic-mode": 0,
      "glitch-mode": 0,
      "product-pages": 0,
    });
    const expiries = (await ledgerOf(user.id)).filter((r) => r.kind === "expiry");
    expect(expiries.map((r) => [r.feature, r.amount])).toEqual(
      Object.entries(pro.credits).map(([feature, n]) => [feature, -n]),
    );
  });

  it("transaction.completed for Inner Circle: innerCircle, every balance unlimited", async () => {
    const user = await createUser();
    const txn = completedTransaction(user.id, planPrice("inner-circle"));
    await deliver(transactionEvent("transaction.completed", txn, new Date()));
    const flags = await userBilling(user.id);
    expect(flags).toMatchObject({ innerCircle: true, paddleCustomerId: txn.customerId, boughtCaseStudy: false });
    const balances = await balancesOf(user.id);
    expect(Object.keys(balances).sort()).toEqual(["ai-ads", "automatic-mode", "glitch-mode", "product-pages"]);
    for (const b of Object.values(balances)) expect(b).toBeGreaterThan(UNLIMITED_THRESHOLD);
    const row = await db.billingTransaction.findUniqueOrThrow({
      where: { id: txn.id },
      select: { status: true, priceIds: true, totalCents: true, currencyCode: true, userId: true },
    });
    expect(row).toEqual({
      status: "completed",
      priceIds: priceIds().innerCircle,
      totalCents: 29999,
      currencyCode: "USD",
      userId: user.id,
    });
  });

  it("an Inner Circle member's subscription ending leaves the unlimited balances alone", async () => {
    const user = await createUser();
    await deliver(
      transactionEvent("transaction.completed", completedTransaction(user.id, planPrice("inner-circle")), ago(90_000)),
    );
    const trial = trialSnapshot(user.id, { at: ago(60_000) });
    await deliver(subscriptionEvent("subscription.created", trial, ago(60_000)));
    await deliver(subscriptionEvent("subscription.canceled", { ...trial, status: "canceled" }, new Date()));
    for (const b of Object.values(await balancesOf(user.id))) expect(b).toBeGreaterThan(UNLIMITED_THRESHOLD);
    expect((await userBilling(user.id)).innerCircle).toBe(true);
  });

  it("transaction.completed for the case study: boughtCaseStudy, no credits", async () => {
    const user = await createUser();
    await deliver(
      transactionEvent("transaction.completed", completedTransaction(user.id, caseStudyPrice()), new Date()),
    );
    expect(await userBilling(user.id)).toMatchObject({
      boughtCaseStudy: true,
      innerCircle: false,
      userSubscribed: "no",
    });
    expect(await balancesOf(user.id)).toEqual({});
  });

  it("a transaction that is not paid yet grants nothing", async () => {
    const user = await createUser();
    for (const status of ["draft", "ready", "billed", "canceled"]) {
      const txn = completedTransaction(user.id, planPrice("inner-circle"), { status });
      await deliver(transactionEvent(`transaction.${status === "canceled" ? "canceled" : "updated"}`, txn, new Date()));
    }
    expect(await userBilling(user.id)).toMatchObject({ innerCircle: false });
    expect(await balancesOf(user.id)).toEqual({});
  });

  it("a later event finds the user by subscription id or by customer id when custom_data is gone", async () => {
    const user = await createUser();
    const trial = trialSnapshot(user.id, { at: ago(60_000) });
    await deliver(subscriptionEvent("subscription.created", trial, ago(60_000)));
    const update = subscriptionEvent("subscription.updated", nextPeriod(trial), ago(30_000));
    (update.data as { custom_data: unknown }).custom_data = null;
    expect((await deliver(update)).body.outcome).toBe("applied");
    expect((await userBilling(user.id)).trialing).toBe(false);

    const caseStudy = transactionEvent(
      "transaction.completed",
      completedTransaction(user.id, caseStudyPrice(), { customerId: trial.customerId }),
      new Date(),
    );
    (caseStudy.data as { custom_data: unknown }).custom_data = null;
    expect((await deliver(caseStudy)).body.outcome).toBe("applied");
    expect((await userBilling(user.id)).boughtCaseStudy).toBe(true);
  });
});

describe("when applying fails", () => {
  /** A second billing service on a scratch copy of the migrated database, which the test can break. */
  async function scratchBilling() {
    const tmpDir = process.env.TEST_TMP_DIR!;
    const file = path.join(tmpDir, `scratch-${randomUUID()}.db`);
    copyFileSync(path.join(tmpDir, "template.db"), file);
    const url = `file:${file}`;
    const scratch = createDb(url);
    await tuneSqlite(scratch, url);
    const env = getEnv();
    const prices = priceIds();
    const billing = createBilling({
      db: scratch,
      prices,
      webhookSecret: webhookSecret(),
      retentionDiscountId: env.PADDLE_RETENTION_DISCOUNT_ID,
      localCheckout: true,
      paddle: { local: createLocalPaddle },
      readNotification: readPaddleNotification,
    });
    const user = await scratch.user.create({ data: { email: `${randomUUID()}@example.com` }, select: { id: true } });
    const cleanup = async () => {
      await scratch.$disconnect();
      for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
    };
    return { scratch, billing, userId: user.id, cleanup };
  }

  const signed = (event: object) => {
    const raw = JSON.stringify(event);
    return [raw, signWebhook(raw, webhookSecret())] as const;
  };

  it("the last write failing: thrown on (the error handler's 500), no PaddleEvent row, nothing else left behind; Paddle's retry then applies it", async () => {
    const { scratch, billing, userId, cleanup } = await scratchBilling();
    try {
      await scratch.$executeRawUnsafe(
        `CREATE TRIGGER "test_fail" BEFORE INSERT ON "PaddleEvent" BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END`,
      );
      const event = subscriptionEvent("subscription.created", trialSnapshot(userId), new Date());
      await expect(billing.handleWebhook(...signed(event))).rejects.toThrow(/paddleEvent.create/);
      expect(await scratch.paddleEvent.count()).toBe(0);
      expect(await scratch.billingSubscription.count()).toBe(0);
      expect(await scratch.creditLedger.count()).toBe(0);
      expect(await scratch.creditBalance.count()).toBe(0);
      const user = await scratch.user.findUniqueOrThrow({
        where: { id: userId },
        select: { userSubscribed: true, trialing: true, subscription_id: true },
      });
      expect(user).toEqual({ userSubscribed: "no", trialing: false, subscription_id: null });

      await scratch.$executeRawUnsafe(`DROP TRIGGER "test_fail"`);
      const retry = await billing.handleWebhook(...signed(event));
      expect(retry).toEqual({ ok: true, outcome: "applied" });
      expect(await scratch.paddleEvent.count()).toBe(1);
      expect(
        (await scratch.user.findUniqueOrThrow({ where: { id: userId }, select: { trialing: true } })).trialing,
      ).toBe(true);
    } finally {
      await cleanup();
    }
  });

  it("a missing table half-way through: thrown on (500) and the user is unchanged", async () => {
    const { scratch, billing, userId, cleanup } = await scratchBilling();
    try {
      await scratch.$executeRawUnsafe(`DROP TABLE "CreditLedger"`);
      const event = subscriptionEvent("subscription.created", trialSnapshot(userId), new Date());
      await expect(billing.handleWebhook(...signed(event))).rejects.toThrow();
      expect(await scratch.paddleEvent.count()).toBe(0);
      expect(await scratch.billingSubscription.count()).toBe(0);
      const user = await scratch.user.findUniqueOrThrow({ where: { id: userId }, select: { userSubscribed: true } });
      expect(user.userSubscribed).toBe("no");
    } finally {
      await cleanup();
    }
  });

  it("the event table missing (the very first query fails): thrown on (500) and the user is unchanged", async () => {
    const { scratch, billing, userId, cleanup } = await scratchBilling();
    try {
      await scratch.$executeRawUnsafe(`DROP TABLE "PaddleEvent"`);
      const event = eventJson("subscription.created", subscriptionJson(trialSnapshot(userId), new Date()), new Date());
      await expect(billing.handleWebhook(...signed(event))).rejects.toThrow();
      const user = await scratch.user.findUniqueOrThrow({ where: { id: userId }, select: { userSubscribed: true } });
      expect(user.userSubscribed).toBe("no");
    } finally {
      await cleanup();
    }
  });
});
