-- Reference exchange rates as dated data (docs/decisions/089): one row a day of the European Central Bank's euro
-- reference rates, written by `npm run rates -- import FILE` or the daily "rates.refresh" job. Prices compared
-- across stores convert through the newest row (or the committed starter, content/exchange-rates/, when none).
CREATE TABLE "ExchangeRateTable" (
    "date" TEXT NOT NULL PRIMARY KEY,
    "source" TEXT NOT NULL,
    "base" TEXT NOT NULL,
    "rates" TEXT NOT NULL,
    "importedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
