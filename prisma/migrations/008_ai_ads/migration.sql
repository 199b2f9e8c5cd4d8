-- AI video ads (docs/decisions/019): one row per ad, its scenes as JSON text, the render's status,
-- progress and errors, and where its MP4 is stored. Written by hand like 006.

-- CreateTable
CREATE TABLE "AiAd" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "productObjectID" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "scenes" TEXT NOT NULL,
    "writer" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'preview',
    "progress" INTEGER NOT NULL DEFAULT 0,
    "errors" TEXT NOT NULL DEFAULT '[]',
    "storageKey" TEXT,
    "bytes" INTEGER,
    "durationMs" INTEGER,
    "width" INTEGER,
    "height" INTEGER,
    "renderAttempt" INTEGER NOT NULL DEFAULT 0,
    "ledgerId" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "renderedAt" DATETIME,
    CONSTRAINT "AiAd_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "AiAd_userId_createdAt_idx" ON "AiAd"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "AiAd_status_idx" ON "AiAd"("status");
