-- Trend stage rules (docs/decisions/025): the stage and the growth the page shows are read from the same
-- two 7-day counts, so the week before is stored beside orders7d. Existing rows get -1, meaning "computed
-- by the old rules": recomputeStaleInsights (app/services/product-import.server.ts), run by
-- prisma/seed.ts on every `npm start`, recomputes their stage, growth and reasons from their history;
-- a re-import recomputes them too.
ALTER TABLE "Product" ADD COLUMN "ordersPrev7d" INTEGER NOT NULL DEFAULT -1;
-- Finds the rows still to recompute without scanning the catalogue; empty once they are done, and rows
-- written by an import never enter it.
CREATE INDEX "Product_stale_insights_idx" ON "Product"("id") WHERE "ordersPrev7d" < 0;
