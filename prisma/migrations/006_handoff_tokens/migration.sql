-- CreateTable
CREATE TABLE "HandoffToken" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "tokenHash" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL,
    "usedAt" DATETIME,
    CONSTRAINT "HandoffToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "HandoffToken_tokenHash_key" ON "HandoffToken"("tokenHash");

-- CreateIndex
CREATE INDEX "HandoffToken_userId_idx" ON "HandoffToken"("userId");

-- CreateIndex
CREATE INDEX "HandoffToken_expiresAt_idx" ON "HandoffToken"("expiresAt");

