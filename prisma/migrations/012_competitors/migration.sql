-- Competitor tracking (docs/decisions/023, 024): shared store rows checked by the job system, per-user follows,
-- the current catalogue, measured changes, one row per read, followed products, check-now requests, and the
-- in-app notification list. Generated with `prisma migrate diff` from the schema before these models to the
-- schema with them.
-- CreateTable
CREATE TABLE "CompetitorStore" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "domain" TEXT NOT NULL,
    "fetchDomain" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "currency" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "lastCheckedAt" DATETIME,
    "nextCheckAt" DATETIME,
    "lastError" TEXT,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Competitor" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "storeId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Competitor_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Competitor_storeId_fkey" FOREIGN KEY ("storeId") REFERENCES "CompetitorStore" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CompetitorProduct" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "storeId" INTEGER NOT NULL,
    "productId" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "productType" TEXT NOT NULL,
    "vendor" TEXT NOT NULL,
    "tags" TEXT NOT NULL,
    "images" TEXT NOT NULL,
    "variants" TEXT NOT NULL,
    "priceMinCents" INTEGER,
    "priceMaxCents" INTEGER,
    "available" BOOLEAN,
    "createdAt" DATETIME,
    "publishedAt" DATETIME,
    "firstSeenAt" DATETIME NOT NULL,
    "lastSeenAt" DATETIME NOT NULL,
    "removedAt" DATETIME,
    CONSTRAINT "CompetitorProduct_storeId_fkey" FOREIGN KEY ("storeId") REFERENCES "CompetitorStore" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CompetitorChange" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "storeId" INTEGER NOT NULL,
    "at" DATETIME NOT NULL,
    "kind" TEXT NOT NULL,
    "productId" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "detail" TEXT NOT NULL,
    CONSTRAINT "CompetitorChange_storeId_fkey" FOREIGN KEY ("storeId") REFERENCES "CompetitorStore" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CompetitorCheck" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "storeId" INTEGER NOT NULL,
    "takenAt" DATETIME NOT NULL,
    "products" INTEGER NOT NULL DEFAULT 0,
    "variants" INTEGER NOT NULL DEFAULT 0,
    "inStock" INTEGER NOT NULL DEFAULT 0,
    "outOfStock" INTEGER NOT NULL DEFAULT 0,
    "truncated" BOOLEAN NOT NULL DEFAULT false,
    "ok" BOOLEAN NOT NULL,
    "error" TEXT,
    CONSTRAINT "CompetitorCheck_storeId_fkey" FOREIGN KEY ("storeId") REFERENCES "CompetitorStore" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CompetitorProductFollow" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "competitorId" INTEGER NOT NULL,
    "storeId" INTEGER NOT NULL,
    "productId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "CompetitorProductFollow_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "CompetitorProductFollow_competitorId_fkey" FOREIGN KEY ("competitorId") REFERENCES "Competitor" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CompetitorCheckRequest" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "storeId" INTEGER NOT NULL,
    "at" DATETIME NOT NULL,
    CONSTRAINT "CompetitorCheckRequest_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Notification" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "url" TEXT,
    "dedupeKey" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "readAt" DATETIME,
    CONSTRAINT "Notification_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "CompetitorStore_domain_key" ON "CompetitorStore"("domain");

-- CreateIndex
CREATE INDEX "CompetitorStore_nextCheckAt_idx" ON "CompetitorStore"("nextCheckAt");

-- CreateIndex
CREATE INDEX "CompetitorStore_fetchDomain_idx" ON "CompetitorStore"("fetchDomain");

-- CreateIndex
CREATE INDEX "Competitor_storeId_idx" ON "Competitor"("storeId");

-- CreateIndex
CREATE INDEX "Competitor_userId_createdAt_idx" ON "Competitor"("userId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Competitor_userId_storeId_key" ON "Competitor"("userId", "storeId");

-- CreateIndex
CREATE INDEX "CompetitorProduct_storeId_removedAt_idx" ON "CompetitorProduct"("storeId", "removedAt");

-- CreateIndex
CREATE UNIQUE INDEX "CompetitorProduct_storeId_productId_key" ON "CompetitorProduct"("storeId", "productId");

-- CreateIndex
CREATE INDEX "CompetitorChange_storeId_at_idx" ON "CompetitorChange"("storeId", "at");

-- CreateIndex
CREATE INDEX "CompetitorChange_storeId_kind_at_idx" ON "CompetitorChange"("storeId", "kind", "at");

-- CreateIndex
CREATE INDEX "CompetitorCheck_storeId_takenAt_idx" ON "CompetitorCheck"("storeId", "takenAt");

-- CreateIndex
CREATE INDEX "CompetitorProductFollow_storeId_productId_idx" ON "CompetitorProductFollow"("storeId", "productId");

-- CreateIndex
CREATE UNIQUE INDEX "CompetitorProductFollow_competitorId_productId_key" ON "CompetitorProductFollow"("competitorId", "productId");

-- CreateIndex
CREATE INDEX "CompetitorCheckRequest_userId_at_idx" ON "CompetitorCheckRequest"("userId", "at");

-- CreateIndex
CREATE INDEX "Notification_userId_createdAt_idx" ON "Notification"("userId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Notification_userId_dedupeKey_key" ON "Notification"("userId", "dedupeKey");

