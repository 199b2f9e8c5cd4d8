-- Fetched product images (docs/decisions/028). An import keeps each product's external http(s) image URLs in
-- ProductImageSource (by position); StoredImage is one row per distinct URL, fetched once by the
-- "images.fetch" job: "pending", then "stored" (the file, named by its content's hash, is in file storage and
-- takes the URL's place in Product.images) or "failed" with the reason a person reads in the import summary
-- (the product then shows its category drawing at that place).
CREATE TABLE "StoredImage" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "url" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "reason" TEXT,
    "fileName" TEXT,
    "contentType" TEXT,
    "bytes" INTEGER,
    "width" INTEGER,
    "height" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "fetchedAt" DATETIME
);
CREATE UNIQUE INDEX "StoredImage_url_key" ON "StoredImage"("url");
CREATE INDEX "StoredImage_fileName_idx" ON "StoredImage"("fileName");

CREATE TABLE "ProductImageSource" (
    "objectID" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "url" TEXT NOT NULL,

    PRIMARY KEY ("objectID", "position")
);
CREATE INDEX "ProductImageSource_url_idx" ON "ProductImageSource"("url");

-- The demo catalogue's suppliers were made-up companies at https://suppliers.example/...: they are sample
-- data and now say so, with no link (new generated catalogues are written this way).
UPDATE "Product" SET "supplierName" = 'Demo supplier (sample data)', "supplierUrl" = NULL
WHERE "supplierUrl" LIKE 'https://suppliers.example/%';
UPDATE "Glitch" SET "supplierName" = 'Demo supplier (sample data)', "supplierUrl" = NULL
WHERE "supplierUrl" LIKE 'https://suppliers.example/%';
