-- The measured catalogue (docs/decisions/046): stores the operator lists beside the ones users follow, each
-- listing's main picture fingerprint, which measured product a listing belongs to (with its evidence), the
-- operator's split/merge decisions, and each measured product's daily signals. Columns are added with
-- ALTER TABLE (not a table rebuild) so Product keeps its search triggers (migrations 004, 014).
ALTER TABLE "CompetitorStore" ADD COLUMN "operatorListed" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "CompetitorStore" ADD COLUMN "paused" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "CompetitorStore" ADD COLUMN "parkedAt" DATETIME;
CREATE INDEX "CompetitorStore_operatorListed_idx" ON "CompetitorStore"("operatorListed");

ALTER TABLE "Product" ADD COLUMN "storesAdded7d" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Product" ADD COLUMN "storesAdded30d" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Product" ADD COLUMN "thinEvidence" TEXT;
CREATE INDEX "Product_source_storesAdded7d_idx" ON "Product"("source", "storesAdded7d");
-- CreateTable
CREATE TABLE "ListingPicture" (
    "listingId" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "imageUrl" TEXT NOT NULL,
    "hash" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "error" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ListingPicture_listingId_fkey" FOREIGN KEY ("listingId") REFERENCES "CompetitorProduct" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CatalogueMember" (
    "listingId" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "productId" INTEGER NOT NULL,
    "via" TEXT NOT NULL,
    "evidence" TEXT,
    "matchedAt" DATETIME NOT NULL,
    CONSTRAINT "CatalogueMember_listingId_fkey" FOREIGN KEY ("listingId") REFERENCES "CompetitorProduct" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "CatalogueMember_productId_fkey" FOREIGN KEY ("productId") REFERENCES "Product" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CatalogueDecision" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "kind" TEXT NOT NULL,
    "listingA" INTEGER NOT NULL,
    "listingB" INTEGER NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "ProductSignals" (
    "productId" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "startDay" TEXT NOT NULL,
    "endDay" TEXT NOT NULL,
    "series" TEXT NOT NULL,
    "computedAt" DATETIME NOT NULL,
    CONSTRAINT "ProductSignals_productId_fkey" FOREIGN KEY ("productId") REFERENCES "Product" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);


-- CreateIndex
CREATE INDEX "ListingPicture_status_idx" ON "ListingPicture"("status");

-- CreateIndex
CREATE INDEX "ListingPicture_hash_idx" ON "ListingPicture"("hash");

-- CreateIndex
CREATE INDEX "CatalogueMember_productId_idx" ON "CatalogueMember"("productId");

-- CreateIndex
CREATE INDEX "CatalogueDecision_listingA_idx" ON "CatalogueDecision"("listingA");

-- CreateIndex
CREATE INDEX "CatalogueDecision_listingB_idx" ON "CatalogueDecision"("listingB");

-- CreateIndex
CREATE UNIQUE INDEX "CatalogueDecision_kind_listingA_listingB_key" ON "CatalogueDecision"("kind", "listingA", "listingB");

