// `npm run rates -- import FILE`: stores one day of reference exchange rates (decision 089) in DATABASE_URL
// (default file:./data/app.db, migrated first). FILE is the ECB's daily XML (eurofxref-daily.xml), its CSV
// (eurofxref.csv from eurofxref.zip) or a JSON snapshot like content/exchange-rates/ECB-2022-07-18.json.
// `npm run rates -- refresh [URL]`: what the daily job does, now (default EXCHANGE_RATES_URL or the ECB's daily XML).
// `npm run rates -- show`: the table conversions use now. Exit codes: 0 done, 1 the file or the arguments could not be used.
import { openImportDb } from "./lib/import-cli";

const USAGE = `Usage: npm run rates -- import FILE | refresh [URL] | show

import FILE  the ECB's daily XML or CSV, or a JSON snapshot ({ source, date, base: "EUR", rates })
refresh URL  read the ECB's daily XML now (default: EXCHANGE_RATES_URL, else the ECB's address)
show         the day, source and rates conversions use now`;

async function main(): Promise<number> {
  const args = process.argv.slice(2).filter((a) => a !== "--");
  const [command, arg] = args;
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (!["import", "refresh", "show"].includes(command ?? "") || (command === "import" && args.length !== 2)) {
    process.stderr.write(`${USAGE}\n`);
    return 1;
  }
  const { db, url, close } = await openImportDb();
  const rates = await import("~/services/landed-cost/exchange-rates.server");
  const { RateFileError, ECB_DAILY_URL } = await import("~/domain/landed-cost/exchange-rates");
  try {
    if (command === "import") {
      const table = await rates.importRateFile(db, arg);
      process.stdout.write(`Imported the reference rates of ${table.date} (${Object.keys(table.rates).length} currencies for one euro, ${table.source}) from ${arg} into ${url}\n`);
      return 0;
    }
    if (command === "refresh") {
      const { createSafeFetcher, parseAllowHosts } = await import("~/integrations/safe-fetch.server");
      const source = arg ?? (process.env.EXCHANGE_RATES_URL && process.env.EXCHANGE_RATES_URL !== "off" ? process.env.EXCHANGE_RATES_URL : ECB_DAILY_URL);
      const fetcher = createSafeFetcher({ contactUrl: process.env.APP_URL ?? "http://localhost/", allowHosts: parseAllowHosts(process.env.TRACKER_ALLOW_HOSTS) });
      try {
        const outcome = await rates.refreshRates(db, { fetcher, url: source });
        process.stdout.write(
          outcome.kind === "imported"
            ? `Stored the reference rates of ${outcome.date} (${outcome.currencies} currencies) from ${source}\n`
            : `Not refreshed; the table of ${outcome.date} stays in use: ${outcome.reason}\n`,
        );
        return outcome.kind === "imported" ? 0 : 1;
      } finally {
        fetcher.close();
      }
    }
    const table = await rates.currentRateTable(db);
    process.stdout.write(`${JSON.stringify(table, null, 2)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof RateFileError) {
      process.stderr.write(`rates: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await close();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`${(error as Error).stack ?? error}\n`);
    process.exit(1);
  },
);
