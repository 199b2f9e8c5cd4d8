// `npm run tariffs -- import FILE [--valid-from YYYY-MM-DD] [--revision NAME]`: loads US duty layers into
// DATABASE_URL (default file:./data/app.db, migrated first), decision 052. FILE is a full USITC revision of the
// HTS as USITC publishes it (JSON with htsno/general, or CSV with "HTS Number"/"General Rate of Duty"): one MFN
// row per line with a general rate, valid from --valid-from (default today), closing earlier MFN rows that day;
// or a layers file like content/tariffs/us-starter-2026-12-07.json (new surcharges, Section 301 rows ...).
// Exit codes: 0 imported, 1 the file or the arguments could not be used.
import { algoliaSyncFromEnv, openImportDb } from "./lib/import-cli";

const USAGE = `Usage: npm run tariffs -- import FILE [--valid-from YYYY-MM-DD] [--revision NAME]

FILE: a USITC HTS export (.json or .csv, as hts.usitc.gov publishes it) or a layers file (JSON: { edition, layers }).
--valid-from  the first day the revision's rates apply (default: today, UTC)
--revision    the name its rows carry as their source (default: the file's name, or a layers file's edition)`;

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

async function main(): Promise<number> {
  const args = process.argv.slice(2).filter((a) => a !== "--");
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const validFrom = option(args, "--valid-from") ?? new Date().toISOString().slice(0, 10);
  const revision = option(args, "--revision");
  const positional = args.filter((a, i) => !a.startsWith("--") && !["--valid-from", "--revision"].includes(args[i - 1]));
  if (positional[0] !== "import" || positional.length !== 2 || !/^\d{4}-\d{2}-\d{2}$/.test(validFrom)) {
    process.stderr.write(`${USAGE}\n`);
    return 1;
  }
  const file = positional[1];
  const { db, url, close } = await openImportDb();
  const { importTariffFile, TariffFileError } = await import("~/services/landed-cost/tariffs.server");
  const { refreshLandedMargins } = await import("~/services/landed-cost/margins.server");
  const { isAppError } = await import("~/domain/errors");
  try {
    const summary = await importTariffFile(db, file, { validFrom, revision });
    const skipped = summary.skipped.length;
    process.stdout.write(
      `Imported ${summary.inserted} rows from ${file} (${summary.format}, ${summary.revision}) into ${url}` +
        (summary.format === "layers" ? "" : `, valid from ${validFrom}; ${summary.closed} earlier MFN rows closed that day`) +
        `; ${skipped} line${skipped === 1 ? "" : "s"} skipped (a rate per kilogram, dozen or part cannot be applied per order)\n`,
    );
    for (const s of summary.skipped.slice(0, 10)) process.stdout.write(`  skipped ${s.htsno}: ${s.general}\n`);
    // The grid's margin filter and sort read each product's margin after duty and fees (decision 065): figured again
    // now when the new layers change any guessed code's duty (pushed to Algolia when it is configured).
    const margins = await refreshLandedMargins(db, { onChanged: await algoliaSyncFromEnv(db) });
    process.stdout.write(
      margins.refigured
        ? `Margins after duty and fees figured again as of ${margins.asOf}: ${margins.products} products in ${(margins.ms / 1000).toFixed(1)} s ` +
            `(${Math.round((margins.products * 1000) / Math.max(1, margins.ms))} products/s), ${margins.changed} changed\n`
        : `Margins after duty and fees unchanged: the new layers change no guessed code's duty as of ${margins.asOf}\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof TariffFileError || isAppError(error)) {
      process.stderr.write(`tariffs: ${(error as Error).message}\n`);
      return 1;
    }
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      process.stderr.write(`tariffs: ${file} does not exist\n`);
      return 1;
    }
    throw error;
  } finally {
    await close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`tariffs: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
