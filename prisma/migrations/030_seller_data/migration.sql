-- Issue 25, item 10 (docs/decisions/056): a shown percentage needs 20 orders the week before (was 10),
-- "Rising" needs 10 orders this week, "Emerging" at most 19 stores selling, and "Declining" never stands
-- next to orders going up. Rows with a sales history were computed by the old rules: -1 marks them stale
-- (as migration 013 did), and recomputeStaleInsights, run by prisma/seed.ts on every `npm start`,
-- recomputes their stage, growth, reasons and score from their history.
UPDATE "Product" SET "ordersPrev7d" = -1 WHERE "id" IN (SELECT "productId" FROM "ProductHistory");
