-- Shopify webhook deliveries (docs/decisions/041): the signed body's SHA-256 and X-Shopify-Event-Id beside the webhook id,
-- so a captured body sent again under a new webhook id is recognised; indexed for that look-up and for the 30-day prune.
-- AlterTable
ALTER TABLE "ShopifyWebhookDelivery" ADD COLUMN "bodySha256" TEXT;
ALTER TABLE "ShopifyWebhookDelivery" ADD COLUMN "eventId" TEXT;

-- CreateIndex
CREATE INDEX "ShopifyWebhookDelivery_topic_shop_bodySha256_idx" ON "ShopifyWebhookDelivery"("topic", "shop", "bodySha256");

-- CreateIndex
CREATE INDEX "ShopifyWebhookDelivery_receivedAt_idx" ON "ShopifyWebhookDelivery"("receivedAt");

