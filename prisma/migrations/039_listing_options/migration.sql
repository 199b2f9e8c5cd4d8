-- The measured catalogue's look-alike rules (docs/decisions/087): a listing's options ("Size": ["S", "M"]) as its
-- store publishes them, so two versions of one line told apart only by their options stay two products.
ALTER TABLE "CompetitorProduct" ADD COLUMN "options" TEXT NOT NULL DEFAULT '[]';
