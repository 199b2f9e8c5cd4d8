-- A listing's review count from its product page's structured data (docs/decisions/094): the state of its reads
-- (at most one a day) and its daily series.
-- CreateTable
CREATE TABLE "ListingReviews" (
    "listingId" INTEGER NOT NULL PRIMARY KEY,
    "count" INTEGER,
    "countAt" DATETIME,
    "note" TEXT,
    "lastReadAt" DATETIME NOT NULL,
    "nextReadAt" DATETIME NOT NULL,
    CONSTRAINT "ListingReviews_listingId_fkey" FOREIGN KEY ("listingId") REFERENCES "CompetitorProduct" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ListingReviewCount" (
    "listingId" INTEGER NOT NULL,
    "day" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "at" DATETIME NOT NULL,

    PRIMARY KEY ("listingId", "day"),
    CONSTRAINT "ListingReviewCount_listingId_fkey" FOREIGN KEY ("listingId") REFERENCES "CompetitorProduct" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "ListingReviews_nextReadAt_idx" ON "ListingReviews"("nextReadAt");
