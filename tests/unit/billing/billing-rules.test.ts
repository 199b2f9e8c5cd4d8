// The pure billing rules (app/domain/billing/billing.ts): how a subscription's state becomes the user's seed
// flags, which of several subscriptions decides them, when an event is stale, who has paid access, and
// how Paddle's string amounts are read.
import { describe, expect, it } from "vitest";
import {
  currentAmount,
  isStale,
  NO_SUBSCRIPTION_FLAGS,
  paidState,
  parseMinorUnits,
  primarySubscription,
  SUBSCRIPTION_STATUSES,
  subscriptionFlags,
  TRANSACTION_STATUSES,
  type ChargeRow,
  type SubscriptionRow,
  type SubscriptionStatus,
} from "~/domain/billing/billing";

const base = { id: "sub_01", customerId: "ctm_01", scheduledChange: null } as const;

describe("subscriptionFlags", () => {
  it("keeps Paddle's five subscription statuses and seven transaction statuses", () => {
    expect([...SUBSCRIPTION_STATUSES].sort()).toEqual(["active", "canceled", "past_due", "paused", "trialing"]);
    expect([...TRANSACTION_STATUSES].sort()).toEqual(
      ["billed", "canceled", "completed", "draft", "paid", "past_due", "ready"].sort(),
    );
  });

  const expected: Record<
    SubscriptionStatus,
    { userSubscribed: "yes" | "no"; trialing: boolean; subscriptionCancelled: boolean; chargeDeclined: boolean }
  > = {
    active: { userSubscribed: "yes", trialing: false, subscriptionCancelled: false, chargeDeclined: false },
    trialing: { userSubscribed: "yes", trialing: true, subscriptionCancelled: false, chargeDeclined: false },
    past_due: { userSubscribed: "yes", trialing: false, subscriptionCancelled: false, chargeDeclined: true },
    paused: { userSubscribed: "no", trialing: false, subscriptionCancelled: false, chargeDeclined: false },
    canceled: { userSubscribed: "no", trialing: false, subscriptionCancelled: true, chargeDeclined: false },
  };

  for (const status of SUBSCRIPTION_STATUSES) {
    it(`${status} -> ${JSON.stringify(expected[status])}`, () => {
      expect(subscriptionFlags({ ...base, status })).toEqual({
        ...expected[status],
        subscription_id: "sub_01",
        paddleSubscriptionId: "sub_01",
        paddleCustomerId: "ctm_01",
      });
    });
  }

  it("a scheduled cancellation marks the subscription cancelled while it stays on", () => {
    for (const status of ["active", "trialing", "past_due"] as const) {
      const flags = subscriptionFlags({ ...base, status, scheduledChange: "cancel" });
      expect(flags.userSubscribed).toBe("yes");
      expect(flags.subscriptionCancelled).toBe(true);
    }
  });

  it("a scheduled pause or resume is not a cancellation", () => {
    expect(subscriptionFlags({ ...base, status: "active", scheduledChange: "pause" }).subscriptionCancelled).toBe(
      false,
    );
    expect(subscriptionFlags({ ...base, status: "paused", scheduledChange: "resume" }).subscriptionCancelled).toBe(
      false,
    );
  });

  it("carries a missing customer id as null", () => {
    expect(subscriptionFlags({ ...base, customerId: null, status: "active" }).paddleCustomerId).toBeNull();
  });

  it("a user with no subscription is not subscribed and has no flags raised", () => {
    expect(NO_SUBSCRIPTION_FLAGS).toEqual({
      userSubscribed: "no",
      trialing: false,
      subscriptionCancelled: false,
      chargeDeclined: false,
    });
  });
});

describe("isStale", () => {
  const t = new Date("2026-03-01T10:00:00.000Z");
  it("nothing applied yet: never stale", () => {
    expect(isStale(null, t)).toBe(false);
    expect(isStale(undefined, t)).toBe(false);
  });
  it("older than the last applied: stale", () => {
    expect(isStale(t, new Date(t.getTime() - 1))).toBe(true);
  });
  it("same instant or newer: applied", () => {
    expect(isStale(t, new Date(t.getTime()))).toBe(false);
    expect(isStale(t, new Date(t.getTime() + 1))).toBe(false);
  });
});

describe("paidState", () => {
  it("nobody: not paid", () => {
    expect(paidState({})).toEqual({ paid: false, reason: null });
    expect(paidState({ userSubscribed: "no" })).toEqual({ paid: false, reason: null });
  });
  it("subscribed", () => {
    expect(paidState({ userSubscribed: "yes" })).toEqual({ paid: true, reason: "subscribed" });
  });
  it("subscribed and set to cancel still has access until the period ends", () => {
    expect(paidState({ userSubscribed: "yes", subscriptionCancelled: true })).toEqual({
      paid: true,
      reason: "subscribed",
    });
  });
  it("trialing", () => {
    expect(paidState({ userSubscribed: "yes", trialing: true })).toEqual({ paid: true, reason: "trialing" });
  });
  it("extended trial", () => {
    expect(paidState({ userSubscribed: "yes", trialing: true, extendedTrial: true })).toEqual({
      paid: true,
      reason: "extended-trial",
    });
  });
  it("claimed discount", () => {
    expect(paidState({ userSubscribed: "yes", claimedDiscount: true })).toEqual({
      paid: true,
      reason: "claimed-discount",
    });
  });
  it("inner circle, with or without a subscription", () => {
    expect(paidState({ innerCircle: true })).toEqual({ paid: true, reason: "inner-circle" });
    expect(paidState({ innerCircle: true, userSubscribed: "no" })).toEqual({ paid: true, reason: "inner-circle" });
    expect(paidState({ innerCircle: true, userSubscribed: "yes", trialing: true })).toEqual({
      paid: true,
      reason: "inner-circle",
    });
  });
  it("an extended trial or a claimed discount is no pass once the subscription is off", () => {
    expect(paidState({ userSubscribed: "no", extendedTrial: true })).toEqual({ paid: false, reason: null });
    expect(paidState({ userSubscribed: "no", claimedDiscount: true })).toEqual({ paid: false, reason: null });
    expect(paidState({ userSubscribed: "no", trialing: true })).toEqual({ paid: false, reason: null });
  });
});

describe("parseMinorUnits", () => {
  it("reads Paddle's string amounts as integer minor units", () => {
    expect(parseMinorUnits("2999")).toBe(2999);
    expect(parseMinorUnits("0")).toBe(0);
    expect(parseMinorUnits("-500")).toBe(-500);
    expect(parseMinorUnits(999)).toBe(999);
  });
  it("refuses anything that is not a whole number", () => {
    for (const bad of ["29.99", "", " 1", "1e3", "abc", "12a", "$5", "NaN"]) expect(parseMinorUnits(bad)).toBeNull();
    expect(parseMinorUnits(29.99)).toBeNull();
  });
  it("null or missing -> null", () => {
    expect(parseMinorUnits(null)).toBeNull();
    expect(parseMinorUnits(undefined)).toBeNull();
  });
});

describe("primarySubscription", () => {
  const row = (over: Partial<SubscriptionRow> & { id: string }): SubscriptionRow => ({
    status: "active",
    customerId: "ctm_01",
    scheduledChange: null,
    currentPeriodStart: new Date("2026-01-01T00:00:00Z"),
    lastEventAt: new Date("2026-01-01T00:00:00Z"),
    ...over,
  });

  it("no rows -> null", () => {
    expect(primarySubscription([])).toBeNull();
  });

  it("one that is on beats a newer one that ended", () => {
    const old = row({ id: "sub_a", status: "active", currentPeriodStart: new Date("2026-01-01Z") });
    const ended = row({
      id: "sub_b",
      status: "canceled",
      currentPeriodStart: new Date("2026-02-01Z"),
      lastEventAt: new Date("2026-03-01Z"),
    });
    expect(primarySubscription([ended, old])?.id).toBe("sub_a");
    expect(primarySubscription([old, ended])?.id).toBe("sub_a");
  });

  it("trialing and past_due count as on", () => {
    for (const status of ["trialing", "past_due"]) {
      const on = row({ id: "sub_on", status, currentPeriodStart: new Date("2025-06-01Z") });
      const off = row({ id: "sub_off", status: "canceled", lastEventAt: new Date("2026-06-01Z") });
      expect(primarySubscription([off, on])?.id).toBe("sub_on");
    }
  });

  it("paused is not on", () => {
    const paused = row({ id: "sub_p", status: "paused", currentPeriodStart: new Date("2026-05-01Z") });
    const active = row({ id: "sub_a", status: "active", currentPeriodStart: new Date("2026-01-01Z") });
    expect(primarySubscription([paused, active])?.id).toBe("sub_a");
  });

  it("among several that are on, the newest period wins, then the latest event, then the id", () => {
    const a = row({ id: "sub_a", currentPeriodStart: new Date("2026-01-01Z") });
    const b = row({ id: "sub_b", currentPeriodStart: new Date("2026-02-01Z") });
    expect(primarySubscription([a, b])?.id).toBe("sub_b");
    const c = row({ id: "sub_c", lastEventAt: new Date("2026-01-05Z") });
    const d = row({ id: "sub_d", lastEventAt: new Date("2026-01-03Z") });
    expect(primarySubscription([d, c])?.id).toBe("sub_c");
    const e = row({ id: "sub_e" });
    const f = row({ id: "sub_f" });
    expect(primarySubscription([e, f])?.id).toBe(primarySubscription([f, e])?.id);
  });

  it("when none is on, the one that changed last decides", () => {
    const a = row({ id: "sub_a", status: "canceled", lastEventAt: new Date("2026-01-05Z") });
    const b = row({ id: "sub_b", status: "paused", lastEventAt: new Date("2026-01-07Z") });
    expect(primarySubscription([a, b])?.id).toBe("sub_b");
    expect(primarySubscription([b, a])?.id).toBe("sub_b");
  });

  it("does not depend on the order of the rows", () => {
    const rows = [
      row({ id: "sub_1", status: "canceled", lastEventAt: new Date("2026-04-01Z") }),
      row({ id: "sub_2", status: "active", currentPeriodStart: null }),
      row({ id: "sub_3", status: "trialing", currentPeriodStart: new Date("2026-03-01Z") }),
      row({
        id: "sub_4",
        status: "past_due",
        currentPeriodStart: new Date("2026-03-01Z"),
        lastEventAt: new Date("2026-03-02Z"),
      }),
    ];
    const first = primarySubscription(rows)?.id;
    expect(first).toBe("sub_4");
    for (let i = 0; i < rows.length; i++) {
      const rotated = [...rows.slice(i), ...rows.slice(0, i)];
      expect(primarySubscription(rotated)?.id).toBe(first);
      expect(primarySubscription([...rotated].reverse())?.id).toBe(first);
    }
  });
});

describe("currentAmount: what a subscription costs per cycle, from its rows alone", () => {
  const PRO = "pri_pro";
  const BASIC = "pri_basic";
  const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 24 * 3600_000);
  const sub = { priceId: PRO, currentPeriodStart: day(30), priceAmountCents: 3999, priceCurrencyCode: "USD" };
  let n = 0;
  const charge = (fields: Partial<ChargeRow>): ChargeRow => ({
    id: `txn_${n++}`,
    status: "completed",
    origin: "subscription_recurring",
    priceIds: [PRO],
    totalCents: 3999,
    currencyCode: "USD",
    billingPeriodStart: day(30),
    discountId: null,
    lastEventAt: day(30),
    ...fields,
  });

  it("no charge yet: the price's own amount (or nothing known)", () => {
    expect(currentAmount(sub, [])).toEqual({ cents: 3999, currencyCode: "USD" });
    expect(currentAmount({ ...sub, priceAmountCents: null, priceCurrencyCode: null }, [])).toBeNull();
  });

  it("the newest charge for the current price, by billing period, whatever was reported last", () => {
    const older = charge({ billingPeriodStart: day(0), totalCents: 5000, lastEventAt: day(40) });
    const newer = charge({ billingPeriodStart: day(30), totalCents: 5499, currencyCode: "CAD", lastEventAt: day(31) });
    for (const charges of [[older, newer], [newer, older]]) {
      expect(currentAmount(sub, charges)).toEqual({ cents: 5499, currencyCode: "CAD" });
    }
  });

  it("without billing periods, by occurred_at; an older period's undiscounted charge still counts (localised)", () => {
    const cad = charge({ billingPeriodStart: null, lastEventAt: day(1), totalCents: 5499, currencyCode: "CAD" });
    expect(currentAmount(sub, [cad])).toEqual({ cents: 5499, currencyCode: "CAD" });
  });

  it("charges for another price, unpaid, free, or neither checkout nor renewal never count", () => {
    const ignored = [
      charge({ priceIds: [BASIC], totalCents: 2999, billingPeriodStart: day(60) }),
      charge({ status: "past_due", totalCents: 1 }),
      charge({ totalCents: 0 }),
      charge({ origin: "subscription_payment_method_change", totalCents: 2 }),
    ];
    expect(currentAmount(sub, ignored)).toEqual({ cents: 3999, currencyCode: "USD" });
  });

  it("a discounted charge counts in its own period only; after it, the newest undiscounted charge, else the price's amount", () => {
    const full = charge({ billingPeriodStart: day(0), totalCents: 5499, currencyCode: "CAD" });
    const discounted = charge({ billingPeriodStart: day(30), totalCents: 999, discountId: "dsc_retention" });
    expect(currentAmount(sub, [full, discounted])).toEqual({ cents: 999, currencyCode: "USD" });
    const next = { ...sub, currentPeriodStart: day(60) };
    expect(currentAmount(next, [full, discounted])).toEqual({ cents: 5499, currencyCode: "CAD" });
    expect(currentAmount(next, [discounted])).toEqual({ cents: 3999, currencyCode: "USD" });
  });
});
