-- Brand kits, the TikTok library, and the brand kit an AI ad is rendered with (docs/decisions/033).
-- A kit's logo is kept in the row (at most 512 KB, always PNG or JPEG: an SVG upload is checked and
-- rasterised to PNG), so deleting a kit or its owner removes the logo with it.
-- CreateTable
CREATE TABLE "BrandKit" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "primaryColour" TEXT NOT NULL,
    "accentColour" TEXT NOT NULL,
    "textColour" TEXT NOT NULL DEFAULT '#ffffff',
    "font" TEXT NOT NULL,
    "tagline" TEXT NOT NULL DEFAULT '',
    "tone" TEXT NOT NULL DEFAULT '',
    "isDefault" BOOLEAN NOT NULL DEFAULT false,
    "logo" BLOB,
    "logoType" TEXT,
    "logoSource" TEXT,
    "logoWidth" INTEGER,
    "logoHeight" INTEGER,
    "logoBytes" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "BrandKit_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "TikTok" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "productObjectID" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "videoId" TEXT NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "metaStatus" TEXT NOT NULL DEFAULT 'pending',
    "title" TEXT,
    "authorName" TEXT,
    "authorUrl" TEXT,
    "thumbnailUrl" TEXT,
    "fetchError" TEXT,
    "fetchAttempts" INTEGER NOT NULL DEFAULT 0,
    "fetchedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "TikTok_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- AlterTable
ALTER TABLE "AiAd" ADD COLUMN "brandKitId" INTEGER;

-- CreateIndex
CREATE INDEX "BrandKit_userId_createdAt_idx" ON "BrandKit"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "TikTok_userId_createdAt_idx" ON "TikTok"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "TikTok_userId_productObjectID_idx" ON "TikTok"("userId", "productObjectID");

-- CreateIndex
CREATE UNIQUE INDEX "TikTok_userId_productObjectID_videoId_key" ON "TikTok"("userId", "productObjectID", "videoId");
