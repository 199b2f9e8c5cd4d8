-- The polite crawler (docs/decisions/088): what the tracker remembers of a store between reads, whichever process
-- reads it: robots.txt per host (our rules, kept a day), the catalogue pages' validators for conditional requests,
-- and the moment before which no request may go to the store (one a second, or a long Retry-After).
ALTER TABLE "CompetitorStore" ADD COLUMN "robots" TEXT;
ALTER TABLE "CompetitorStore" ADD COLUMN "validators" TEXT;
ALTER TABLE "CompetitorStore" ADD COLUMN "nextRequestAt" DATETIME;
