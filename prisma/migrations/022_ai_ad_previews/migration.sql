-- Free preview renders of AI ads (docs/decisions/036): a small (540x960, 15 fps) video of the saved script,
-- marked "Preview", made without credits. One row per preview asked for: the newest row of an ad is its
-- preview, and the rows of the last 24 hours are the user's daily allowance (kept when the ad is deleted,
-- so deleting and re-creating an ad does not reset it).
CREATE TABLE "AiAdPreview" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "adId" INTEGER,
    "status" TEXT NOT NULL DEFAULT 'rendering',
    "progress" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "scriptHash" TEXT,
    "storageKey" TEXT,
    "bytes" INTEGER,
    "durationMs" INTEGER,
    "width" INTEGER,
    "height" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "renderedAt" DATETIME,
    CONSTRAINT "AiAdPreview_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "AiAdPreview_adId_fkey" FOREIGN KEY ("adId") REFERENCES "AiAd" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "AiAdPreview_userId_createdAt_idx" ON "AiAdPreview"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "AiAdPreview_adId_id_idx" ON "AiAdPreview"("adId", "id");

-- CreateIndex
CREATE INDEX "AiAdPreview_status_idx" ON "AiAdPreview"("status");
