// What the billing page's Plan card and cancel step say for each state a subscription can be in
// (planView, app/domain/billing/billing.ts): one wording for a subscription set to end, and never a pair of
// statements that contradict each other (no next charge next to "not be charged again", no card
// change when nothing more is charged, no retention offer for a plan that is already ending).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { planView, SUBSCRIPTION_STATUSES, type PlanView, type PlanViewSubscription } from "~/domain/billing/billing";
import { formatUsd } from "~/domain/billing/plans";

const USD = (cents: number) => ({ cents, currencyCode: "USD" });
const options = { canExtendTrial: false, canClaimDiscount: false, retentionPrice: "$9.99" };

const trialEnd = "2030-03-08T10:00:00.000Z";
const periodEnd = "2030-04-07T10:00:00.000Z";

const STATES: Record<string, { sub: PlanViewSubscription; options?: Partial<typeof options> }> = {
  trialing: {
    sub: {
      status: "trialing",
      nextBilledAt: trialEnd,
      currentPeriodEnd: trialEnd,
      scheduledChange: null,
      scheduledChangeAt: null,
      recurringTotal: USD(3999),
    },
    options: { canExtendTrial: true },
  },
  active: {
    sub: {
      status: "active",
      nextBilledAt: periodEnd,
      currentPeriodEnd: periodEnd,
      scheduledChange: null,
      scheduledChangeAt: null,
      recurringTotal: USD(3999),
    },
    options: { canClaimDiscount: true },
  },
  past_due: {
    sub: {
      status: "past_due",
      nextBilledAt: periodEnd,
      currentPeriodEnd: periodEnd,
      scheduledChange: null,
      scheduledChangeAt: null,
      recurringTotal: USD(3999),
    },
    options: { canClaimDiscount: true },
  },
  "scheduled cancel during the trial": {
    sub: {
      status: "trialing",
      nextBilledAt: trialEnd,
      currentPeriodEnd: trialEnd,
      scheduledChange: "cancel",
      scheduledChangeAt: trialEnd,
      recurringTotal: USD(3999),
    },
    options: { canExtendTrial: true },
  },
  "scheduled cancel after the trial": {
    // Paddle clears next_billed_at once a cancel is scheduled.
    sub: {
      status: "active",
      nextBilledAt: null,
      currentPeriodEnd: periodEnd,
      scheduledChange: "cancel",
      scheduledChangeAt: periodEnd,
      recurringTotal: USD(3999),
    },
    options: { canClaimDiscount: true },
  },
  canceled: {
    sub: {
      status: "canceled",
      nextBilledAt: null,
      currentPeriodEnd: periodEnd,
      scheduledChange: null,
      scheduledChangeAt: null,
      recurringTotal: USD(3999),
    },
  },
  "discounted next cycle": {
    sub: {
      status: "active",
      nextBilledAt: periodEnd,
      currentPeriodEnd: periodEnd,
      scheduledChange: null,
      scheduledChangeAt: null,
      recurringTotal: USD(3999),
      discounted: true,
    },
  },
};

const viewOf = (name: string) => planView(STATES[name].sub, { ...options, ...STATES[name].options });

/** Statements that must never appear together on the page. */
function contradictions(view: PlanView): string[] {
  const found: string[] = [];
  const text = [view.statusLine, view.priceLine ?? ""].join(" ");
  const noMoreCharges = /not be charged again|has ended/.test(view.statusLine);
  if (noMoreCharges && view.priceLine) found.push(`a charge amount (${view.priceLine}) after "${view.statusLine}"`);
  if (noMoreCharges && /next cycle|Next bill|first charge/i.test(text))
    found.push("a next charge after no more charges");
  if (noMoreCharges && view.actions.updatePayment) found.push("Update payment method with nothing to charge");
  if (noMoreCharges && view.discountBadge) found.push("a discount badge with nothing to charge");
  if (noMoreCharges && view.cancelStep.offer) found.push("a retention offer for a plan that is not renewing");
  if (view.actions.resume && view.actions.cancel) found.push("both Resume and Cancel");
  if (view.actions.resume && !/not be charged again/.test(view.statusLine))
    found.push("Resume without the ending wording");
  if (/Trial ends/.test(view.statusLine) && /not be charged again/.test(view.statusLine))
    found.push("trial charge and no charge");
  return found;
}

describe("planView: each state the billing page renders", () => {
  it.each(Object.keys(STATES))("%s has no contradictory pair", (name) => {
    expect(contradictions(viewOf(name))).toEqual([]);
  });

  it("trialing: the trial's end and first charge, the price after it, card / cancel; the trial extension only on the way out", () => {
    const view = viewOf("trialing");
    expect(view.badge).toEqual({ label: "Free trial", tone: "info" });
    expect(view.statusLine).toBe("Trial ends 2030-03-08; the first charge is on that day.");
    expect(view.priceLine).toBe("Then $39.99 a month.");
    expect(view.actions).toEqual({
      updatePayment: true,
      cancel: true,
      resume: false,
      choosePlan: false,
    });
    expect(view.cancelStep.offer).toBe(false);
    expect(view.cancelStep.extendTrial).toBe(true);
    expect(planView(STATES.trialing.sub, { ...options, canExtendTrial: false }).cancelStep.extendTrial).toBe(false);
    expect(view.cancelStep.note).toBe(
      "If you cancel now you keep access until the trial ends and are never charged. The $9.99 offer to stay applies once your trial has ended.",
    );
    // A trial billed through Shopify has no offer to stay (a Paddle discount): its note does not promise one.
    expect(planView({ ...STATES.trialing.sub, provider: "shopify" }, options).cancelStep.note).toBe(
      "If you cancel now you keep access until the trial ends and are never charged.",
    );
  });

  it("active: the next bill and the monthly price; the cancel step carries the offer", () => {
    const view = viewOf("active");
    expect(view.badge.label).toBe("Active");
    expect(view.statusLine).toBe("Next bill 2030-04-07.");
    expect(view.priceLine).toBe("$39.99 a month.");
    expect(view.actions).toEqual({
      updatePayment: true,
      cancel: true,
      resume: false,
      choosePlan: false,
    });
    expect(view.cancelStep).toEqual({ available: true, offer: true, extendTrial: false, note: null });
  });

  it("past_due: says the payment failed and offers a card change, not a next bill", () => {
    const view = viewOf("past_due");
    expect(view.badge).toEqual({ label: "Payment failed", tone: "critical" });
    expect(view.statusLine).toBe("Your last payment failed. Update your payment method to keep your plan.");
    expect(view.actions.updatePayment).toBe(true);
  });

  it.each(["scheduled cancel during the trial", "scheduled cancel after the trial"])(
    "%s: the one wording, Resume, and nothing that charges or cancels again",
    (name) => {
      const view = viewOf(name);
      const day = (STATES[name].sub.scheduledChangeAt ?? "").slice(0, 10);
      expect(view.statusLine).toBe(`Your plan ends on ${day}. You will not be charged again.`);
      expect(view.badge).toEqual({ label: "Ends at period end", tone: "warning" });
      expect(view.priceLine).toBeNull();
      expect(view.discountBadge).toBe(false);
      expect(view.actions).toEqual({
          updatePayment: false,
        cancel: false,
        resume: true,
        choosePlan: false,
      });
      expect(view.cancelStep).toEqual({ available: false, offer: false, extendTrial: false, note: null });
    },
  );

  it("a scheduled cancel without Paddle's date ends on the period end", () => {
    const sub = { ...STATES["scheduled cancel after the trial"].sub, scheduledChangeAt: null };
    expect(planView(sub, options).statusLine).toBe("Your plan ends on 2030-04-07. You will not be charged again.");
  });

  it("canceled: ended, no price, choose a plan", () => {
    const view = viewOf("canceled");
    expect(view.statusLine).toBe("This subscription has ended.");
    expect(view.priceLine).toBeNull();
    expect(view.actions).toEqual({
      updatePayment: false,
      cancel: false,
      resume: false,
      choosePlan: true,
    });
    expect(view.cancelStep.available).toBe(false);
  });

  it("discounted next cycle: the offer's price for the next cycle, and the badge", () => {
    const view = viewOf("discounted next cycle");
    expect(view.priceLine).toBe("$39.99 a month; next cycle $9.99.");
    expect(view.discountBadge).toBe(true);
    expect(view.statusLine).toBe("Next bill 2030-04-07.");
  });
});

describe("the billing page's money", () => {
  // Issue 25: "Then 39.99 USD a month" stood next to "Basic is $29.99 a month". One format on the page: the
  // currency's symbol as en-US writes it, which names a currency other than the dollar ("CA$", "€", "£").
  it("writes the plan's price as every other price on the page does", () => {
    const view = viewOf("active");
    expect(view.priceLine).toBe(`${formatUsd(3999)} a month.`);
    expect(view.priceLine).not.toMatch(/USD/);
  });

  it("names another currency by its symbol, in the same shape", () => {
    const sub = { ...STATES.active.sub, recurringTotal: { cents: 5499, currencyCode: "CAD" } };
    expect(planView(sub, options).priceLine).toBe("CA$54.99 a month.");
    const eur = { ...STATES.active.sub, recurringTotal: { cents: 123456, currencyCode: "EUR" } };
    expect(planView(eur, options).priceLine).toBe("€1,234.56 a month.");
  });
});

describe("planView over any subscription", () => {
  const iso = fc
    .date({ min: new Date("2020-01-01"), max: new Date("2040-01-01"), noInvalidDate: true })
    .map((d) => d.toISOString());
  const subscription = fc.record({
    status: fc.constantFrom(...SUBSCRIPTION_STATUSES),
    nextBilledAt: fc.option(iso),
    currentPeriodEnd: fc.option(iso),
    scheduledChange: fc.constantFrom(null, "cancel", "pause", "resume"),
    scheduledChangeAt: fc.option(iso),
    recurringTotal: fc.option(fc.integer({ min: 1, max: 1_000_000 }).map(USD)),
    discounted: fc.boolean(),
  });
  const opts = fc.record({
    canExtendTrial: fc.boolean(),
    canClaimDiscount: fc.boolean(),
    retentionPrice: fc.constant("$9.99"),
  });

  it("never says two contradictory things, and a plan set to end always reads the same and offers Resume", () => {
    fc.assert(
      fc.property(subscription, opts, (sub, o) => {
        const view = planView(sub, o);
        expect(contradictions(view)).toEqual([]);
        const ending = sub.scheduledChange === "cancel" && sub.status !== "canceled";
        expect(view.actions.resume).toBe(ending);
        if (ending)
          expect(view.statusLine).toMatch(
            /^Your plan ends on (\d{4}-\d{2}-\d{2}|—)\. You will not be charged again\.$/,
          );
      }),
      { numRuns: 500 },
    );
  });
});
