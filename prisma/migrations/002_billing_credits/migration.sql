-- CreateTable
CREATE TABLE "BillingSubscription" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "provider" TEXT NOT NULL DEFAULT 'paddle',
    "userId" TEXT NOT NULL,
    "customerId" TEXT,
    "status" TEXT NOT NULL,
    "planId" TEXT,
    "priceId" TEXT,
    "billingInterval" TEXT,
    "currentPeriodStart" DATETIME,
    "currentPeriodEnd" DATETIME,
    "nextBilledAt" DATETIME,
    "scheduledChange" TEXT,
    "scheduledChangeAt" DATETIME,
    "discountId" TEXT,
    "recurringTotalCents" INTEGER,
    "currencyCode" TEXT,
    "trialExtended" BOOLEAN NOT NULL DEFAULT false,
    "lastEventAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "BillingSubscription_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "BillingTransaction" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "provider" TEXT NOT NULL DEFAULT 'paddle',
    "userId" TEXT NOT NULL,
    "subscriptionId" TEXT,
    "status" TEXT NOT NULL,
    "origin" TEXT,
    "priceIds" TEXT NOT NULL,
    "totalCents" INTEGER,
    "currencyCode" TEXT,
    "lastEventAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "PaddleEvent" (
    "eventId" TEXT NOT NULL PRIMARY KEY,
    "eventType" TEXT NOT NULL,
    "occurredAt" DATETIME NOT NULL,
    "entityId" TEXT,
    "userId" TEXT,
    "outcome" TEXT NOT NULL,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "CreditBalance" (
    "userId" TEXT NOT NULL,
    "feature" TEXT NOT NULL,
    "balance" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("userId", "feature"),
    -- Hand-written: a balance can never go below zero, whatever writes it.
    CHECK ("balance" >= 0)
);

-- CreateTable
CREATE TABLE "CreditLedger" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "feature" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "cost" INTEGER NOT NULL DEFAULT 0,
    "balanceAfter" INTEGER NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "reason" TEXT,
    "refundOf" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "email" TEXT NOT NULL,
    "passwordHash" TEXT,
    "googleUid" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "lastLoginAt" DATETIME,
    "popupTriggered" BOOLEAN NOT NULL DEFAULT false,
    "klaviyoId" TEXT,
    "paddleSubscriptionId" TEXT,
    "paddleCustomerId" TEXT,
    "boughtCaseStudy" BOOLEAN NOT NULL DEFAULT false,
    "userSubscribed" TEXT NOT NULL DEFAULT 'no',
    "chargeDeclined" BOOLEAN NOT NULL DEFAULT false,
    "subscriptionCancelled" BOOLEAN NOT NULL DEFAULT false,
    "subscription_id" TEXT,
    "trialing" BOOLEAN NOT NULL DEFAULT false,
    "shopifyStoreName" TEXT,
    "zendropConnected" BOOLEAN NOT NULL DEFAULT false,
    "usedGlitchModeOnTrial" BOOLEAN NOT NULL DEFAULT false,
    "claimedDiscount" BOOLEAN NOT NULL DEFAULT false,
    "extendedTrial" BOOLEAN NOT NULL DEFAULT false,
    "innerCircle" BOOLEAN NOT NULL DEFAULT false,
    "aiAdsFirstUse" BOOLEAN NOT NULL DEFAULT true
);
INSERT INTO "new_User" ("boughtCaseStudy", "chargeDeclined", "claimedDiscount", "createdAt", "email", "extendedTrial", "googleUid", "id", "innerCircle", "klaviyoId", "lastLoginAt", "paddleCustomerId", "paddleSubscriptionId", "passwordHash", "popupTriggered", "shopifyStoreName", "subscriptionCancelled", "subscription_id", "trialing", "updatedAt", "usedGlitchModeOnTrial", "userSubscribed", "zendropConnected") SELECT "boughtCaseStudy", "chargeDeclined", "claimedDiscount", "createdAt", "email", "extendedTrial", "googleUid", "id", "innerCircle", "klaviyoId", "lastLoginAt", "paddleCustomerId", "paddleSubscriptionId", "passwordHash", "popupTriggered", "shopifyStoreName", "subscriptionCancelled", "subscription_id", "trialing", "updatedAt", "usedGlitchModeOnTrial", "userSubscribed", "zendropConnected" FROM "User";
DROP TABLE "User";
ALTER TABLE "new_User" RENAME TO "User";
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");
CREATE UNIQUE INDEX "User_googleUid_key" ON "User"("googleUid");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "BillingSubscription_userId_idx" ON "BillingSubscription"("userId");

-- CreateIndex
CREATE INDEX "BillingTransaction_userId_idx" ON "BillingTransaction"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "CreditLedger_idempotencyKey_key" ON "CreditLedger"("idempotencyKey");

-- CreateIndex
CREATE INDEX "CreditLedger_userId_feature_createdAt_idx" ON "CreditLedger"("userId", "feature", "createdAt");


-- Hand-written (Prisma's schema cannot express triggers): the balance changes only by inserting a
-- ledger row, so the ledger and the balance can never disagree. A single INSERT ... SELECT that
-- checks the balance is one atomic statement under SQLite's write lock (docs/decisions/008).
CREATE TRIGGER "CreditLedger_apply" AFTER INSERT ON "CreditLedger"
BEGIN
    INSERT INTO "CreditBalance" ("userId", "feature", "balance") VALUES (NEW."userId", NEW."feature", 0)
        ON CONFLICT ("userId", "feature") DO NOTHING;
    UPDATE "CreditBalance" SET "balance" = "balance" + NEW."amount"
        WHERE "userId" = NEW."userId" AND "feature" = NEW."feature";
END;

-- The ledger is append-only.
CREATE TRIGGER "CreditLedger_no_update" BEFORE UPDATE ON "CreditLedger"
BEGIN
    SELECT RAISE(ABORT, 'CreditLedger is append-only');
END;
CREATE TRIGGER "CreditLedger_no_delete" BEFORE DELETE ON "CreditLedger"
BEGIN
    SELECT RAISE(ABORT, 'CreditLedger is append-only');
END;
