-- Shopify Billing (docs/decisions/034): a subscription sold through Shopify belongs to one shop; the
-- shop is kept on the row so app/uninstalled can end that shop's subscription state.
ALTER TABLE "BillingSubscription" ADD COLUMN "shop" TEXT;

-- CreateIndex
CREATE INDEX "BillingSubscription_shop_idx" ON "BillingSubscription"("shop");
