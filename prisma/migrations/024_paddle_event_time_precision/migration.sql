-- Paddle's occurred_at carries microseconds; the order of two notifications is decided on that full
-- precision (docs/decisions/043), kept as text: UTC with nine fractional digits, fixed width, so it
-- orders as text ("2026-11-26T08:00:00.123456000Z"). Nullable columns only: no table is rebuilt, and a
-- row an older process writes without them orders by lastEventAt (milliseconds), as before.

-- AlterTable
ALTER TABLE "BillingSubscription" ADD COLUMN "lastEventAtExact" TEXT;

-- AlterTable
ALTER TABLE "BillingTransaction" ADD COLUMN "lastEventAtExact" TEXT;
ALTER TABLE "BillingTransaction" ADD COLUMN "lastEventType" TEXT;

-- AlterTable
ALTER TABLE "PaddleEvent" ADD COLUMN "occurredAtExact" TEXT;

-- Backfill from the millisecond values we have: Prisma stores DateTime as ISO text with an offset
-- ("2026-11-26T08:00:00.123+00:00"); an integer (milliseconds since the epoch) is read too.
UPDATE "BillingSubscription" SET "lastEventAtExact" = CASE typeof("lastEventAt")
  WHEN 'integer' THEN strftime('%Y-%m-%dT%H:%M:%S', "lastEventAt" / 1000, 'unixepoch') || '.' || substr('00' || ("lastEventAt" % 1000), -3) || '000000Z'
  ELSE strftime('%Y-%m-%dT%H:%M:%f', "lastEventAt") || '000000Z'
END
WHERE "lastEventAtExact" IS NULL;

UPDATE "BillingTransaction" SET "lastEventAtExact" = CASE typeof("lastEventAt")
  WHEN 'integer' THEN strftime('%Y-%m-%dT%H:%M:%S', "lastEventAt" / 1000, 'unixepoch') || '.' || substr('00' || ("lastEventAt" % 1000), -3) || '000000Z'
  ELSE strftime('%Y-%m-%dT%H:%M:%f', "lastEventAt") || '000000Z'
END
WHERE "lastEventAtExact" IS NULL;

UPDATE "PaddleEvent" SET "occurredAtExact" = CASE typeof("occurredAt")
  WHEN 'integer' THEN strftime('%Y-%m-%dT%H:%M:%S', "occurredAt" / 1000, 'unixepoch') || '.' || substr('00' || ("occurredAt" % 1000), -3) || '000000Z'
  ELSE strftime('%Y-%m-%dT%H:%M:%f', "occurredAt") || '000000Z'
END
WHERE "occurredAtExact" IS NULL;
