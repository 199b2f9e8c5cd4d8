-- Weekly product drops and saved-search alerts (docs/decisions/030). Seed: product-drops (documents keyed
-- by date, plus a next-drop document), user-product-drops.revealedDates.

-- AlterTable: alert state of each saved search. A search saved before this migration starts counting
-- "new" from the products that exist now, so no one gets an alert about the whole catalogue.
ALTER TABLE "SavedSearch" ADD COLUMN "alertsEnabled" BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE "SavedSearch" ADD COLUMN "alertedDay" TEXT;
ALTER TABLE "SavedSearch" ADD COLUMN "alertAfterProductId" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "SavedSearch" ADD COLUMN "alertCheckedAt" DATETIME;
UPDATE "SavedSearch" SET "alertAfterProductId" = (SELECT coalesce(max("id"), 0) FROM "Product");

-- CreateTable
CREATE TABLE "ProductDrop" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "date" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "publishedAt" DATETIME NOT NULL,
    "announcedAt" DATETIME
);

-- CreateTable
CREATE TABLE "ProductDropItem" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "dropId" INTEGER NOT NULL,
    "productId" INTEGER NOT NULL,
    "objectID" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    CONSTRAINT "ProductDropItem_dropId_fkey" FOREIGN KEY ("dropId") REFERENCES "ProductDrop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ProductDropSchedule" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT DEFAULT 1,
    "nextDropDate" TEXT NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "UserProductDrop" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "date" TEXT NOT NULL,
    "revealedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "UserProductDrop_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "ProductDrop_date_key" ON "ProductDrop"("date");

-- CreateIndex
CREATE INDEX "ProductDropItem_productId_idx" ON "ProductDropItem"("productId");

-- CreateIndex
CREATE UNIQUE INDEX "ProductDropItem_dropId_productId_key" ON "ProductDropItem"("dropId", "productId");

-- CreateIndex
CREATE UNIQUE INDEX "UserProductDrop_userId_date_key" ON "UserProductDrop"("userId", "date");
