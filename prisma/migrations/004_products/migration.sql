-- CreateTable
CREATE TABLE "Product" (
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
    "costCents" INTEGER NOT NULL,
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
    "marginBps" INTEGER NOT NULL,
    "orders7d" INTEGER NOT NULL,
    "ordersGrowth7d" INTEGER,
    "trendingScore" INTEGER NOT NULL,
    "reasons" TEXT NOT NULL,
    "insightsAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "ProductHistory" (
    "productId" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "startDay" TEXT NOT NULL,
    "days" INTEGER NOT NULL,
    "orders" TEXT NOT NULL,
    "revenueCents" TEXT NOT NULL,
    "views" TEXT NOT NULL,
    "likes" TEXT NOT NULL,
    "comments" TEXT NOT NULL,
    "shares" TEXT NOT NULL,
    "storesSelling" TEXT NOT NULL,
    CONSTRAINT "ProductHistory_productId_fkey" FOREIGN KEY ("productId") REFERENCES "Product" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CatalogState" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT DEFAULT 1,
    "version" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "SavedProduct" (
    "userId" TEXT NOT NULL,
    "productId" INTEGER NOT NULL,
    "savedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("userId", "productId")
);

-- CreateTable
CREATE TABLE "TrackedProduct" (
    "userId" TEXT NOT NULL,
    "productId" INTEGER NOT NULL,
    "trackedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ordersAtTrack" INTEGER NOT NULL,
    "revenueCentsAtTrack" BIGINT NOT NULL,
    "priceCentsAtTrack" INTEGER NOT NULL,
    "storesSellingAtTrack" INTEGER NOT NULL,
    "winningScoreAtTrack" INTEGER NOT NULL,

    PRIMARY KEY ("userId", "productId")
);

-- CreateTable
CREATE TABLE "SavedSearch" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "query" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastVisitedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE UNIQUE INDEX "Product_objectID_key" ON "Product"("objectID");

-- CreateIndex
CREATE INDEX "Product_winningScore_idx" ON "Product"("winningScore");

-- CreateIndex
CREATE INDEX "Product_orders_idx" ON "Product"("orders");

-- CreateIndex
CREATE INDEX "Product_revenueCents_idx" ON "Product"("revenueCents");

-- CreateIndex
CREATE INDEX "Product_marginBps_idx" ON "Product"("marginBps");

-- CreateIndex
CREATE INDEX "Product_priceCents_idx" ON "Product"("priceCents");

-- CreateIndex
CREATE INDEX "Product_firstSeenAt_idx" ON "Product"("firstSeenAt");

-- CreateIndex
CREATE INDEX "Product_trendingScore_idx" ON "Product"("trendingScore");

-- CreateIndex
CREATE INDEX "Product_randomSortKey_idx" ON "Product"("randomSortKey");

-- CreateIndex
CREATE INDEX "Product_primaryNiche_winningScore_idx" ON "Product"("primaryNiche", "winningScore");

-- CreateIndex
CREATE INDEX "Product_lifecycleStage_winningScore_idx" ON "Product"("lifecycleStage", "winningScore");

-- CreateIndex
CREATE INDEX "SavedProduct_userId_savedAt_idx" ON "SavedProduct"("userId", "savedAt");

-- CreateIndex
CREATE INDEX "TrackedProduct_userId_trackedAt_idx" ON "TrackedProduct"("userId", "trackedAt");

-- CreateIndex
CREATE INDEX "SavedSearch_userId_idx" ON "SavedSearch"("userId");


-- Hand-written (Prisma's schema cannot express virtual tables or triggers; docs/decisions/011):
-- full-text search over the product database with SQLite FTS5 (BM25), stored as an external-content
-- index of Product, kept in sync by triggers.
CREATE VIRTUAL TABLE "ProductSearch" USING fts5(
    title, description, niches, tags,
    content='Product', content_rowid='id',
    tokenize='porter unicode61 remove_diacritics 2'
);

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

-- How many products contain each term: lets the search pick a plan before reading any posting list.
CREATE VIRTUAL TABLE "ProductSearchVocab" USING fts5vocab('ProductSearch', 'row');

INSERT INTO "CatalogState" ("id", "version") VALUES (1, 0);
