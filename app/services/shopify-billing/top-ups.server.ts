// Credit top-ups bought inside Shopify admin (docs/decisions/034): starting the one-time charge, and
// granting its credits once it is approved, once per purchase whichever of the webhook and the
// merchant's return is seen first.
import { AppError } from "~/domain/errors";
import { CREDIT_TOP_UPS, findTopUp } from "~/domain/billing/plans";
import { billingErrorSentence, decimalAmount, topUpPurchaseName } from "~/domain/billing/shopify-billing";
import type { DbClient } from "~/db.server";
import type { User } from "~/services/accounts/auth.server";
import { grantCreditPack } from "~/services/billing/allowances.server";
import { ask, type ShopifyBillingRuntime } from "~/services/shopify-billing/shared.server";

/**
 * Adds a top-up's credits once per purchase id: the ledger's unique idempotency key makes a second
 * grant (webhook and return both seen) a no-op. Returns whether anything was granted.
 */
export async function grantTopUp(tx: DbClient, userId: string, purchaseId: string, name: string): Promise<boolean> {
  const topUp = CREDIT_TOP_UPS.find((t) => topUpPurchaseName(t.name) === name);
  if (!topUp) return false;
  return grantCreditPack(tx, userId, topUp, `shopify-topup:${purchaseId}`, `Bought in Shopify: ${topUp.name}`);
}

/** Starts a top-up: Shopify's confirmation page for a one-time charge; credits come once it is approved. */
export async function buyTopUp(rt: ShopifyBillingRuntime, user: User, shop: string, topUpId: string): Promise<{ confirmationUrl: string }> {
  const topUp = findTopUp(topUpId);
  if (!topUp) throw new AppError(400, "Choose one of the credit packs.");
  if (user.innerCircle) throw new AppError(409, "Inner Circle credits are unlimited; there is nothing to top up.");
  const admin = await rt.adminFor(shop);
  const result = await ask("start the purchase", () =>
    rt.api.appPurchaseOneTimeCreate(admin, {
      name: topUpPurchaseName(topUp.name),
      priceAmount: decimalAmount(topUp.priceCents),
      currencyCode: "USD",
      returnUrl: rt.returnUrlFor(shop),
      test: rt.test,
    }),
  );
  if (result.userErrors.length > 0 || !result.confirmationUrl) {
    throw new AppError(422, billingErrorSentence(result.userErrors, "purchase"));
  }
  return { confirmationUrl: result.confirmationUrl };
}
