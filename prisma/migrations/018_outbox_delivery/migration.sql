-- Outbox delivery (docs/decisions/032): each row gets what it does (operation), a delivery state
-- (status, attempts, nextAttemptAt, a lease), the key the service deduplicates by, and the person it
-- concerns when it has no user (for erasure). Existing rows keep their state: sent ones stay sent,
-- the rest are pending from their creation time. SQLite cannot add a column defaulting to
-- CURRENT_TIMESTAMP, so the table is redefined, as `prisma migrate diff` writes it.
-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_OutboxEvent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "service" TEXT NOT NULL,
    "operation" TEXT NOT NULL DEFAULT 'capture',
    "name" TEXT NOT NULL,
    "userId" TEXT,
    "email" TEXT,
    "payload" TEXT NOT NULL,
    "dedupeKey" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leaseOwner" TEXT,
    "leaseExpiresAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sentAt" DATETIME,
    "error" TEXT
);
INSERT INTO "new_OutboxEvent" ("id", "service", "name", "userId", "payload", "createdAt", "sentAt", "error", "status", "nextAttemptAt")
SELECT "id", "service", "name", "userId", "payload", "createdAt", "sentAt", "error",
       CASE WHEN "sentAt" IS NOT NULL THEN 'sent' ELSE 'pending' END, "createdAt"
FROM "OutboxEvent";
DROP TABLE "OutboxEvent";
ALTER TABLE "new_OutboxEvent" RENAME TO "OutboxEvent";
CREATE INDEX "OutboxEvent_service_createdAt_idx" ON "OutboxEvent"("service", "createdAt");
CREATE INDEX "OutboxEvent_service_status_nextAttemptAt_idx" ON "OutboxEvent"("service", "status", "nextAttemptAt");
CREATE INDEX "OutboxEvent_userId_idx" ON "OutboxEvent"("userId");
CREATE INDEX "OutboxEvent_email_idx" ON "OutboxEvent"("email");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
