-- AlterTable
ALTER TABLE "User" ADD COLUMN "legacyEncryptedShopifyToken" TEXT;
ALTER TABLE "User" ADD COLUMN "legacyShopifyAdminUrl" TEXT;

-- CreateTable
CREATE TABLE "ShopifyStore" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "store_name" TEXT NOT NULL,
    "shopify_admin_url" TEXT NOT NULL,
    "encrypted_app_token" TEXT,
    "connected" BOOLEAN NOT NULL DEFAULT true,
    "linkedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "disconnectedAt" DATETIME
);

-- CreateTable
CREATE TABLE "ThemeToken" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "themeId" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "selectedStore" TEXT NOT NULL,
    "whitelistedUrls" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "blockMessage" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" DATETIME
);

-- CreateTable
CREATE TABLE "ProductPage" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "objectID" TEXT NOT NULL,
    "storeId" INTEGER,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "title" TEXT NOT NULL,
    "descriptionHtml" TEXT NOT NULL,
    "bullets" TEXT NOT NULL,
    "seoTitle" TEXT NOT NULL,
    "seoDescription" TEXT NOT NULL,
    "priceCents" INTEGER NOT NULL,
    "compareAtPriceCents" INTEGER,
    "writer" TEXT NOT NULL,
    "shopifyProductId" TEXT,
    "error" TEXT,
    "creditLedgerId" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "pushedAt" DATETIME
);

-- CreateIndex
CREATE UNIQUE INDEX "ShopifyStore_shop_key" ON "ShopifyStore"("shop");

-- CreateIndex
CREATE INDEX "ShopifyStore_userId_idx" ON "ShopifyStore"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "ThemeToken_tokenHash_key" ON "ThemeToken"("tokenHash");

-- CreateIndex
CREATE INDEX "ThemeToken_userId_themeId_idx" ON "ThemeToken"("userId", "themeId");

-- CreateIndex
CREATE INDEX "ThemeToken_themeId_idx" ON "ThemeToken"("themeId");

-- CreateIndex
CREATE INDEX "ProductPage_userId_createdAt_idx" ON "ProductPage"("userId", "createdAt");

