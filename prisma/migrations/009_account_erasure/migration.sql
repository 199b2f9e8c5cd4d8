-- Account erasure (dashboard/account, "delete my account"): the credit ledger stays append-only while its
-- user exists; once the user row is gone (deleted in the same transaction), that user's ledger rows may be
-- deleted too, so nothing about an erased account is kept. Written by hand (Prisma cannot express triggers).
DROP TRIGGER "CreditLedger_no_delete";
CREATE TRIGGER "CreditLedger_no_delete" BEFORE DELETE ON "CreditLedger"
WHEN EXISTS (SELECT 1 FROM "User" WHERE "id" = OLD."userId")
BEGIN
    SELECT RAISE(ABORT, 'CreditLedger is append-only');
END;
