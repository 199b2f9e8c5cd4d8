-- A listing's picture failure classified (docs/decisions/091): its code, and when a transient one is tried again.
ALTER TABLE "ListingPicture" ADD COLUMN "failure" TEXT;
ALTER TABLE "ListingPicture" ADD COLUMN "retryAt" DATETIME;
