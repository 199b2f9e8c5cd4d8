-- Decision 065: the grid's margin filter and sort read the margin after duty and fees. Added columns only (Product has
-- FTS triggers and is never rebuilt). The values need the tariff rules, so they are filled by the landed-margins
-- refresh (at start, daily and after a tariff import), not here.
ALTER TABLE "Product" ADD COLUMN "landedMarginBps" INTEGER;

ALTER TABLE "CatalogState" ADD COLUMN "landedMarginAsOf" TEXT;
ALTER TABLE "CatalogState" ADD COLUMN "landedMarginKey" TEXT;

CREATE INDEX "Product_landedMarginBps_idx" ON "Product"("landedMarginBps");
