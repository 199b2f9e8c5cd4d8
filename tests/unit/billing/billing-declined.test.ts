// What declines a subscription's payment (docs/decisions/043): the newest of the subscription's own
// state and the outcomes of its own charges, at full precision; a card change or a checkout never does.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chargeOutcome, paymentDeclined, type ChargeOutcomeRow } from "~/domain/billing/billing";
import { parseSignatureHeader, WebhookSignatureError } from "~/integrations/paddle.server";

const at = (micros: number) => ({
  lastEventAt: new Date(Date.UTC(2026, 10, 26) + Math.floor(micros / 1000)),
  lastEventAtExact: `2026-11-26T00:00:00.${String(micros).padStart(6, "0")}000Z`,
});
const sub = (status: string, micros: number) => ({ status, ...at(micros) });
const txn = (status: string, origin: string, micros: number, lastEventType: string | null = null): ChargeOutcomeRow => ({
  status,
  origin,
  lastEventType,
  ...at(micros),
});

describe("chargeOutcome", () => {
  it("a charge of the subscription: failed or paid", () => {
    for (const origin of ["subscription_recurring", "subscription_update", "subscription_charge"]) {
      expect(chargeOutcome(txn("past_due", origin, 1))).toBe("failed");
      expect(chargeOutcome(txn("billed", origin, 1, "transaction.payment_failed"))).toBe("failed");
      expect(chargeOutcome(txn("completed", origin, 1))).toBe("paid");
      expect(chargeOutcome(txn("paid", origin, 1, "transaction.paid"))).toBe("paid");
      expect(chargeOutcome(txn("billed", origin, 1, "transaction.billed"))).toBeNull();
    }
  });

  it("a card change, a checkout, an API transaction: no say", () => {
    for (const origin of ["subscription_payment_method_change", "web", "api", null]) {
      const row = { ...txn("past_due", "x", 1, "transaction.payment_failed"), origin };
      expect(chargeOutcome(row)).toBeNull();
      expect(chargeOutcome({ ...row, status: "completed" })).toBeNull();
    }
  });
});

describe("paymentDeclined", () => {
  it("the subscription alone: past_due declines", () => {
    expect(paymentDeclined(sub("past_due", 1), [])).toBe(true);
    expect(paymentDeclined(sub("active", 1), [])).toBe(false);
  });

  it("a failed renewal newer than the state declines; 0.4 ms older does not", () => {
    expect(paymentDeclined(sub("active", 1000), [txn("past_due", "subscription_recurring", 1400)])).toBe(true);
    expect(paymentDeclined(sub("active", 1400), [txn("past_due", "subscription_recurring", 1000)])).toBe(false);
  });

  it("a failed card change declines nothing", () => {
    expect(paymentDeclined(sub("active", 1), [txn("ready", "subscription_payment_method_change", 9, "transaction.payment_failed")])).toBe(false);
  });

  it("a newer payment clears; an older one does not", () => {
    const failed = txn("past_due", "subscription_recurring", 5);
    expect(paymentDeclined(sub("active", 1), [failed, txn("completed", "subscription_recurring", 6)])).toBe(false);
    expect(paymentDeclined(sub("active", 1), [failed, txn("completed", "subscription_recurring", 4)])).toBe(true);
    expect(paymentDeclined(sub("past_due", 1), [failed, txn("completed", "subscription_charge", 6)])).toBe(false);
  });

  it("at the same instant: the subscription's state, then a payment", () => {
    expect(paymentDeclined(sub("active", 5), [txn("past_due", "subscription_recurring", 5)])).toBe(false);
    expect(paymentDeclined(sub("active", 1), [txn("past_due", "subscription_recurring", 5), txn("completed", "subscription_recurring", 5)])).toBe(false);
  });

  it("property: the rows' order does not matter", () => {
    const row = fc.record({
      status: fc.constantFrom("past_due", "completed", "paid", "billed", "ready"),
      origin: fc.constantFrom("subscription_recurring", "subscription_update", "subscription_payment_method_change", "web"),
      micros: fc.integer({ min: 0, max: 20 }),
      failed: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.constantFrom("active", "past_due"), fc.integer({ min: 0, max: 20 }), fc.array(row, { maxLength: 6 }), (status, micros, rows) => {
        const charges = rows.map((r) => txn(r.status, r.origin, r.micros, r.failed ? "transaction.payment_failed" : null));
        expect(paymentDeclined(sub(status, micros), [...charges].reverse())).toBe(paymentDeclined(sub(status, micros), charges));
      }),
      { seed: 20261126, numRuns: 300 },
    );
  });
});

describe("parseSignatureHeader", () => {
  const h = "a".repeat(64);
  const g = "b".repeat(64);
  it("ts= once, one or more h1=, in any order", () => {
    expect(parseSignatureHeader(`ts=1700000000;h1=${h}`)).toEqual({ ts: 1700000000, h1: [h] });
    expect(parseSignatureHeader(`h1=${h};ts=1700000000;h1=${g}`)).toEqual({ ts: 1700000000, h1: [h, g] });
  });

  it("refused, with the reason for the log", () => {
    const cases: [string, RegExp][] = [
      [`ts=1;ts=2;h1=${h}`, /more than once/],
      [`ts=1;ts=1;h1=${h}`, /more than once/],
      [`ts=1;h1=${h};x`, /malformed/],
      [`ts=1;h1=${h};`, /malformed/],
      [`ts=1; h1=${h}`, /malformed/],
      [`ts=1;h1=${h}=`, /malformed/],
      [`ts=1;h2=${h}`, /malformed/],
      [`ts=1.5;h1=${h}`, /whole number/],
      [`ts=-1;h1=${h}`, /whole number/],
      [`ts=1;h1=${h.toUpperCase()}`, /lowercase hex/],
      [`ts=1;h1=abc`, /lowercase hex/],
      [`h1=${h}`, /no ts=/],
      [`ts=1`, /no h1=/],
      [`ts=1;${Array.from({ length: 5 }, () => `h1=${h}`).join(";")}`, /more than 4/],
    ];
    for (const [header, reason] of cases) {
      let caught: unknown = null;
      try {
        parseSignatureHeader(header);
      } catch (error) {
        caught = error;
      }
      expect(caught, header).toBeInstanceOf(WebhookSignatureError);
      expect((caught as WebhookSignatureError).reason, header).toMatch(reason);
    }
  });
});
