-- Landed cost (docs/decisions/052): dated US duty layers as data, and the seller's own HTS code and origin
-- per saved product. The starter table (content/tariffs/) is loaded by the tariffs service when this table is
-- empty; `npm run tariffs -- import FILE` adds a USITC revision or new layers.
-- AlterTable
ALTER TABLE "SavedProduct" ADD COLUMN "htsCode" TEXT;
ALTER TABLE "SavedProduct" ADD COLUMN "originCountry" TEXT;

-- CreateTable
CREATE TABLE "TariffLayer" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "kind" TEXT NOT NULL,
    "series" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "htsPrefix" TEXT NOT NULL,
    "origins" TEXT NOT NULL,
    "exemptPrefixes" TEXT NOT NULL DEFAULT '[]',
    "rateBp" INTEGER,
    "perItemCents" INTEGER,
    "validFrom" TEXT NOT NULL,
    "validTo" TEXT,
    "source" TEXT NOT NULL,
    "revision" TEXT NOT NULL,
    "importedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "TariffLayer_kind_htsPrefix_idx" ON "TariffLayer"("kind", "htsPrefix");

-- CreateIndex
CREATE INDEX "TariffLayer_revision_idx" ON "TariffLayer"("revision");
