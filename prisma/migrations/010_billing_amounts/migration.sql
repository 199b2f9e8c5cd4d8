-- Paddle events in any order end in one state (docs/decisions/009, "Update: event order"): the
-- subscription's current amount is derived from the newest charge for its current price, by billing
-- period, and follows the price's own amount once a discounted cycle has ended. Nullable columns
-- only: no table is rebuilt, so the credit triggers of migration 002 are untouched.
ALTER TABLE "BillingSubscription" ADD COLUMN "priceAmountCents" INTEGER;
ALTER TABLE "BillingSubscription" ADD COLUMN "priceCurrencyCode" TEXT;
ALTER TABLE "BillingTransaction" ADD COLUMN "billingPeriodStart" DATETIME;
ALTER TABLE "BillingTransaction" ADD COLUMN "discountId" TEXT;
