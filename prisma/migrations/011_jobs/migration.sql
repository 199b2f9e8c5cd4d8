-- The durable job system (docs/decisions/022): jobs are rows claimed with one atomic UPDATE under a
-- lease; a schedule's period is fired by whichever process inserts its JobScheduleRun row. Generated
-- with `prisma migrate diff` from the schema before these models to the schema with them.
-- CreateTable
CREATE TABLE "Job" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "kind" TEXT NOT NULL,
    "payload" TEXT NOT NULL DEFAULT '{}',
    "status" TEXT NOT NULL DEFAULT 'queued',
    "runAt" DATETIME NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "maxAttempts" INTEGER NOT NULL DEFAULT 5,
    "leaseOwner" TEXT,
    "leaseExpiresAt" DATETIME,
    "lastError" TEXT,
    "progress" INTEGER,
    "key" TEXT,
    "createdAt" DATETIME NOT NULL,
    "finishedAt" DATETIME
);

-- CreateTable
CREATE TABLE "JobScheduleRun" (
    "scheduleName" TEXT NOT NULL,
    "periodStart" DATETIME NOT NULL,
    "jobKey" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,

    PRIMARY KEY ("scheduleName", "periodStart")
);

-- CreateIndex
CREATE UNIQUE INDEX "Job_key_key" ON "Job"("key");

-- CreateIndex
CREATE INDEX "Job_status_runAt_idx" ON "Job"("status", "runAt");

