// The local stand-in for Paddle's API (no PADDLE_API_KEY): each change is made the way Paddle makes
// it, by a signed notification through the billing service's webhook handler, so the local checkout
// exercises the production code path. Prices are the catalogue's, in USD.
import { randomUUID } from "node:crypto";
import { OFFERS, PLANS, formatUsd } from "~/domain/plans";
import { subscriptionJson, transactionJson, type PaddlePort } from "~/integrations/paddle.server";
import type { Billing, PriceIds } from "~/services/billing.server";

export function createLocalPaddle(getBilling: () => Billing, prices: PriceIds): PaddlePort {
  const priceCents = new Map([
    [prices.basic, PLANS[0].priceCents],
    [prices.pro, PLANS[1].priceCents],
    [prices.innerCircle, PLANS[2].priceCents],
  ]);
  return {
    mode: "local",
    async previewPrices({ priceIds }) {
      return priceIds.map((priceId) => ({
        priceId,
        formattedTotal: formatUsd(priceCents.get(priceId) ?? 0),
        currencyCode: "USD",
      }));
    },
    async previewDiscount() {
      return { currencyCode: "USD", formattedTotal: formatUsd(OFFERS.retentionDiscount.priceCents) };
    },
    async cancelAtPeriodEnd(subscriptionId) {
      const billing = getBilling();
      const s = await billing.snapshotById(subscriptionId);
      const now = new Date();
      await billing.deliver(
        "subscription.updated",
        subscriptionJson({ ...s, scheduledChange: { action: "cancel", effectiveAt: s.currentPeriodEnd } }, now),
        now,
      );
    },
    async applyDiscountNextCycle({ subscriptionId, discountId }) {
      const billing = getBilling();
      const s = await billing.snapshotById(subscriptionId);
      const now = new Date();
      await billing.deliver("subscription.updated", subscriptionJson({ ...s, discountId, scheduledChange: null }, now), now);
    },
    async extendTrial({ subscriptionId, nextBilledAt }) {
      const billing = getBilling();
      const s = await billing.snapshotById(subscriptionId);
      const now = new Date();
      await billing.deliver(
        "subscription.updated",
        subscriptionJson({ ...s, nextBilledAt, currentPeriodEnd: nextBilledAt }, now),
        now,
      );
    },
    async paymentMethodChangeTransaction(subscriptionId) {
      const billing = getBilling();
      const s = await billing.snapshotById(subscriptionId);
      const now = new Date();
      const transactionId = `txn_local_${randomUUID().slice(0, 12)}`;
      await billing.deliver(
        "transaction.completed",
        transactionJson(
          {
            id: transactionId,
            status: "completed",
            customerId: s.customerId,
            userId: s.userId,
            subscriptionId,
            origin: "subscription_payment_method_change",
            price: s.price,
            totalCents: 0,
          },
          now,
        ),
        now,
      );
      if (s.status === "past_due") {
        // Paddle retries the failed charge with the new card; in the test checkout it succeeds.
        await billing.deliver("subscription.updated", subscriptionJson({ ...s, status: "active" }, now), new Date(now.getTime() + 1));
      }
      return { transactionId };
    },
  };
}
