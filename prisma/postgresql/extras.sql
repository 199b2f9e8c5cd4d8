-- Hand-written (decision 098): what SQLite's migrations create beyond prisma/schema.prisma, in PostgreSQL's words.
-- `npm run db:schemas` appends this file to the PostgreSQL baseline; tests/integration/database/postgres-schema.test.ts
-- checks each object against its SQLite twin.

-- A balance can never go below zero, whatever writes it (002_billing_credits).
ALTER TABLE "CreditBalance" ADD CONSTRAINT "CreditBalance_balance_check" CHECK ("balance" >= 0);

-- The ledger keeps the balances (002_billing_credits): every insert adds its amount to the user's balance of that feature.
CREATE FUNCTION "CreditLedger_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO "CreditBalance" ("userId", "feature", "balance") VALUES (NEW."userId", NEW."feature", 0)
        ON CONFLICT ("userId", "feature") DO NOTHING;
    UPDATE "CreditBalance" SET "balance" = "balance" + NEW."amount"
        WHERE "userId" = NEW."userId" AND "feature" = NEW."feature";
    RETURN NULL;
END $$;
CREATE TRIGGER "CreditLedger_apply" AFTER INSERT ON "CreditLedger" FOR EACH ROW EXECUTE FUNCTION "CreditLedger_apply"();

-- Append-only (002_billing_credits, 009_account_erasure): no update; a delete only when the user is gone (erasure).
CREATE FUNCTION "CreditLedger_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' OR EXISTS (SELECT 1 FROM "User" WHERE "id" = OLD."userId") THEN
        RAISE EXCEPTION 'CreditLedger is append-only';
    END IF;
    RETURN OLD;
END $$;
CREATE TRIGGER "CreditLedger_no_update" BEFORE UPDATE ON "CreditLedger" FOR EACH ROW EXECUTE FUNCTION "CreditLedger_append_only"();
CREATE TRIGGER "CreditLedger_no_delete" BEFORE DELETE ON "CreditLedger" FOR EACH ROW EXECUTE FUNCTION "CreditLedger_append_only"();

-- Glitch mode's page: products by spread, only those priced high enough on Amazon (007_glitch_mode, 014).
CREATE INDEX "Product_glitchSpread_idx" ON "Product"(("amazonPriceCents" - "costCents" - "shippingCents") DESC)
    WHERE "amazonPriceCents" >= 1900;
-- Products whose insights wait to be recomputed (013_trend_stage_rules).
CREATE INDEX "Product_stale_insights_idx" ON "Product"("id") WHERE "ordersPrev7d" < 0;

-- Full-text search over products: SQLite's FTS5 table ProductSearch (porter stemming) is PostgreSQL's English text
-- search over the same four columns, one expression index kept by PostgreSQL itself (no triggers needed).
CREATE FUNCTION "product_search_document"(title TEXT, description TEXT, niches TEXT, tags TEXT) RETURNS tsvector
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN to_tsvector('english'::regconfig, title || ' ' || description || ' ' || niches || ' ' || tags);
CREATE INDEX "Product_search_idx" ON "Product" USING GIN ("product_search_document"("title", "description", "niches", "tags"));

-- The catalogue's one state row, which the search index's version is read from (004_products).
INSERT INTO "CatalogState" ("id", "version") VALUES (1, 0);
