// What a checkout says is charged when (decision 051): due today, the trial's end and first charge, the renewal,
// and the short refund terms the refund policy (/refunds) sets out in full. Pure, so the checkout and the tests
// compute the same dates.
import type { Plan } from "~/domain/billing/plans";

const DAY_MS = 24 * 3600_000;

/** "December 3, 2026" (UTC, so the server and the page agree). */
export function chargeDate(date: Date): string {
  return date.toLocaleDateString("en-US", { timeZone: "UTC", year: "numeric", month: "long", day: "numeric" });
}

export interface ChargeSchedule {
  /** Lines in order: today, the first charge, the renewal, how to stop it. */
  lines: string[];
  refundTerms: string;
}

export const REFUND_SUMMARY =
  "Refunds: cancel during the trial and you pay nothing. A monthly charge is refunded in full if you ask within 14 days of it and have not used that month's credits; one-time purchases within 14 days if you have not used what they unlock. Paddle, our reseller, handles every refund.";

export function chargeSchedule(plan: Pick<Plan, "billing" | "trialDays" | "name">, price: string, now: Date): ChargeSchedule {
  if (plan.billing !== "monthly") {
    return {
      lines: [`Today: ${price}, charged once. Nothing renews.`],
      refundTerms: REFUND_SUMMARY,
    };
  }
  if (plan.trialDays > 0) {
    const first = new Date(now.getTime() + plan.trialDays * DAY_MS);
    return {
      lines: [
        `Today: $0.00. Your ${plan.trialDays}-day free trial starts now, with trial credits.`,
        `${chargeDate(first)}: your trial ends and your card is charged ${price} for the first month.`,
        `Then ${price} every month on that day, until you cancel.`,
        `Cancel before ${chargeDate(first)} on Billing & credits and you are never charged.`,
      ],
      refundTerms: REFUND_SUMMARY,
    };
  }
  return {
    lines: [`Today: ${price} for the first month.`, `Then ${price} every month on that day, until you cancel.`],
    refundTerms: REFUND_SUMMARY,
  };
}
