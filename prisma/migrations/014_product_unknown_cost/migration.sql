-- Unknown supplier cost and absent sales data (docs/decisions/026). A product added from a tracked store
-- has no known cost (costCents and marginBps become nullable) and no sales data (source = 'tracked-store';
-- its sales columns hold 0 placeholders that no reader shows). SQLite cannot drop NOT NULL in place, so
-- the table is redefined the way Prisma does it; ids are kept, so ProductHistory, SavedProduct,
-- TrackedProduct and the ProductSearch full-text rows (rowid = id) still point at the same products.
-- Dropping the old table drops its triggers and indexes: they are created again below, unchanged.
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Product" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "objectID" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "niches" TEXT NOT NULL,
    "primaryNiche" TEXT NOT NULL,
    "tags" TEXT NOT NULL,
    "images" TEXT NOT NULL,
    "supplierName" TEXT,
    "supplierUrl" TEXT,
    "costCents" INTEGER,
    "priceCents" INTEGER NOT NULL,
    "shippingCents" INTEGER NOT NULL DEFAULT 0,
    "amazonPriceCents" INTEGER,
    "orders" INTEGER NOT NULL,
    "revenueCents" BIGINT NOT NULL,
    "likes" INTEGER NOT NULL,
    "comments" INTEGER NOT NULL,
    "shares" INTEGER NOT NULL,
    "views" INTEGER NOT NULL,
    "storesSelling" INTEGER NOT NULL,
    "firstSeenAt" DATETIME NOT NULL,
    "lastUpdatedAt" DATETIME NOT NULL,
    "randomSortKey" INTEGER NOT NULL,
    "winningScore" INTEGER NOT NULL,
    "lifecycleStage" TEXT NOT NULL,
    "saturation" INTEGER NOT NULL,
    "marginBps" INTEGER,
    "orders7d" INTEGER NOT NULL,
    "ordersGrowth7d" INTEGER,
    "trendingScore" INTEGER NOT NULL,
    "reasons" TEXT NOT NULL,
    "insightsAt" DATETIME NOT NULL,
    "ordersPrev7d" INTEGER NOT NULL DEFAULT -1,
    "source" TEXT NOT NULL DEFAULT 'catalog',
    "sourceStore" TEXT,
    "sourceAddedAt" DATETIME
);
INSERT INTO "new_Product" ("id", "objectID", "title", "description", "niches", "primaryNiche", "tags", "images",
    "supplierName", "supplierUrl", "costCents", "priceCents", "shippingCents", "amazonPriceCents", "orders",
    "revenueCents", "likes", "comments", "shares", "views", "storesSelling", "firstSeenAt", "lastUpdatedAt",
    "randomSortKey", "winningScore", "lifecycleStage", "saturation", "marginBps", "orders7d", "ordersGrowth7d",
    "trendingScore", "reasons", "insightsAt", "ordersPrev7d")
SELECT "id", "objectID", "title", "description", "niches", "primaryNiche", "tags", "images",
    "supplierName", "supplierUrl", "costCents", "priceCents", "shippingCents", "amazonPriceCents", "orders",
    "revenueCents", "likes", "comments", "shares", "views", "storesSelling", "firstSeenAt", "lastUpdatedAt",
    "randomSortKey", "winningScore", "lifecycleStage", "saturation", "marginBps", "orders7d", "ordersGrowth7d",
    "trendingScore", "reasons", "insightsAt", "ordersPrev7d"
FROM "Product";
DROP TABLE "Product";
ALTER TABLE "new_Product" RENAME TO "Product";
-- Products added from a tracked store before this migration were stored with cost 0 and an all-zero
-- history (competitors.importProduct): their cost and sales were never measured.
-- (Their description starts "Seen on {domain}: ".) No stage, score or reasons are claimed for them.
UPDATE "Product" SET "costCents" = NULL, "marginBps" = NULL, "source" = 'tracked-store',
    "sourceStore" = substr("description", 9, instr("description", ':') - 9),
    "sourceAddedAt" = "insightsAt", "reasons" = '[]', "lifecycleStage" = '', "winningScore" = 0,
    "saturation" = 0, "trendingScore" = 0, "ordersGrowth7d" = NULL, "ordersPrev7d" = 0
WHERE "objectID" LIKE 'competitor:%' AND "costCents" = 0 AND "description" LIKE 'Seen on %';
DELETE FROM "ProductHistory" WHERE "productId" IN (SELECT "id" FROM "Product" WHERE "source" = 'tracked-store');
CREATE UNIQUE INDEX "Product_objectID_key" ON "Product"("objectID");
CREATE INDEX "Product_winningScore_idx" ON "Product"("winningScore");
CREATE INDEX "Product_orders_idx" ON "Product"("orders");
CREATE INDEX "Product_revenueCents_idx" ON "Product"("revenueCents");
CREATE INDEX "Product_marginBps_idx" ON "Product"("marginBps");
CREATE INDEX "Product_priceCents_idx" ON "Product"("priceCents");
CREATE INDEX "Product_firstSeenAt_idx" ON "Product"("firstSeenAt");
CREATE INDEX "Product_trendingScore_idx" ON "Product"("trendingScore");
CREATE INDEX "Product_randomSortKey_idx" ON "Product"("randomSortKey");
CREATE INDEX "Product_primaryNiche_winningScore_idx" ON "Product"("primaryNiche", "winningScore");
CREATE INDEX "Product_lifecycleStage_winningScore_idx" ON "Product"("lifecycleStage", "winningScore");
CREATE INDEX "Product_glitchSpread_idx" ON "Product"(("amazonPriceCents" - "costCents" - "shippingCents") DESC)
    WHERE "amazonPriceCents" >= 1900;
CREATE INDEX "Product_stale_insights_idx" ON "Product"("id") WHERE "ordersPrev7d" < 0;
CREATE TRIGGER "Product_search_insert" AFTER INSERT ON "Product" BEGIN
    INSERT INTO "ProductSearch"(rowid, title, description, niches, tags)
    VALUES (new."id", new."title", new."description", new."niches", new."tags");
END;
CREATE TRIGGER "Product_search_delete" AFTER DELETE ON "Product" BEGIN
    INSERT INTO "ProductSearch"("ProductSearch", rowid, title, description, niches, tags)
    VALUES ('delete', old."id", old."title", old."description", old."niches", old."tags");
END;
CREATE TRIGGER "Product_search_update" AFTER UPDATE OF "title", "description", "niches", "tags" ON "Product" BEGIN
    INSERT INTO "ProductSearch"("ProductSearch", rowid, title, description, niches, tags)
    VALUES ('delete', old."id", old."title", old."description", old."niches", old."tags");
    INSERT INTO "ProductSearch"(rowid, title, description, niches, tags)
    VALUES (new."id", new."title", new."description", new."niches", new."tags");
END;
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
