-- Bad input in the measured catalogue, and prices in other currencies (docs/decisions/059): a store's last read
-- says what it left out (readNote), and a product says when its price is not in US dollars (priceCurrency, null
-- for dollars). Columns are added with ALTER TABLE (not a table rebuild) so Product keeps its search triggers
-- (migrations 004, 014).
ALTER TABLE "CompetitorStore" ADD COLUMN "readNote" TEXT;
ALTER TABLE "Product" ADD COLUMN "priceCurrency" TEXT;
