-- Where stores come from (decision 101): a store on the operator's list is "listed" (typed by the operator) or
-- "discovered" (found by the discovery job in a public source and verified), with the source that named it.
-- lastChangedAt, the moment its catalogue last changed, sets how often an operator-only store is read (read tiers).
ALTER TABLE "CompetitorStore" ADD COLUMN "origin" TEXT NOT NULL DEFAULT 'listed';
ALTER TABLE "CompetitorStore" ADD COLUMN "discoveredFrom" TEXT;
ALTER TABLE "CompetitorStore" ADD COLUMN "lastChangedAt" DATETIME;
UPDATE "CompetitorStore" SET "lastChangedAt" = (SELECT MAX("at") FROM "CompetitorChange" WHERE "CompetitorChange"."storeId" = "CompetitorStore"."id");
CREATE INDEX "CompetitorStore_origin_idx" ON "CompetitorStore"("origin");
