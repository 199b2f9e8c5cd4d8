-- The rate limiter's counters for rate-limiter-flexible's SQLite store (docs/decisions/063): one row a limit and
-- subject, points in the current window, its end in epoch milliseconds. Each try is one upsert on the primary key.
-- CreateTable
CREATE TABLE "RateLimitCounter" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "points" INTEGER NOT NULL DEFAULT 0,
    "expire" BIGINT
);

-- The windows still running in the Prisma store's table carry over (the monthly allowances above all); a DateTime
-- there is ISO text as Prisma writes it, or epoch milliseconds.
INSERT INTO "RateLimitCounter" ("key", "points", "expire")
SELECT "key", "points",
       CASE typeof("expire")
         WHEN 'integer' THEN "expire"
         ELSE CAST(round((julianday("expire") - 2440587.5) * 86400000.0) AS INTEGER)
       END
FROM "RateLimit"
WHERE "expire" IS NOT NULL;
