-- Glitch mode (docs/decisions/018): a user's revealed glitches, each with a snapshot of the numbers
-- at reveal time, and the index that ranks qualifying products by their spread.

-- CreateTable
CREATE TABLE "Glitch" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "productObjectID" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "supplierName" TEXT,
    "supplierUrl" TEXT,
    "amazonPriceCents" INTEGER NOT NULL,
    "costCents" INTEGER NOT NULL,
    "shippingCents" INTEGER NOT NULL,
    "spreadCents" INTEGER NOT NULL,
    "numbersUpdatedAt" DATETIME NOT NULL,
    "revealedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ledgerId" INTEGER,
    CONSTRAINT "Glitch_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Glitch_userId_productObjectID_key" ON "Glitch"("userId", "productObjectID");

-- CreateIndex
CREATE INDEX "Glitch_userId_revealedAt_idx" ON "Glitch"("userId", "revealedAt");

-- The ranked list: qualifying products (Amazon price >= $19.00, app/domain/glitch.ts) by spread,
-- largest first. A partial expression index, which Prisma's schema cannot express: it lives here only.
-- Queries must repeat the expression and the literal 1900 (a bound parameter would not match the
-- index's WHERE), see app/services/glitch-mode.server.ts. With it a page reads 12 index entries and a
-- count reads only the qualifying ones, never the whole catalogue.
CREATE INDEX "Product_glitchSpread_idx" ON "Product"(("amazonPriceCents" - "costCents" - "shippingCents") DESC)
    WHERE "amazonPriceCents" >= 1900;
