-- Currencies at the source, per listing, and prices compared across stores through dated reference rates
-- (docs/decisions/089). A listing carries the currency its store published when it was read (null: none published,
-- never dollars); existing listings take their store's. A product's price in US dollars at a dated reference rate is
-- what the grid's price filter and price sorts read for a price in another currency.
ALTER TABLE "CompetitorProduct" ADD COLUMN "currency" TEXT;
UPDATE "CompetitorProduct" SET "currency" = (SELECT "currency" FROM "CompetitorStore" WHERE "CompetitorStore"."id" = "CompetitorProduct"."storeId");
ALTER TABLE "Product" ADD COLUMN "priceUsdCents" INTEGER;
ALTER TABLE "Product" ADD COLUMN "priceRateDate" TEXT;
