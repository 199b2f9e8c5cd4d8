// `npm run products:import -- FILE`: imports products from JSON (an array), NDJSON or CSV into
// DATABASE_URL (default file:./data/app.db, migrated first). Bad rows are reported with their line
// and reason and not imported; good rows are upserted by objectID. Formats: docs/decisions/011.
// Exit codes: 0 something was imported, 1 the file (or database) could not be used, 2 every row was
// rejected (or the file held no rows).
import { algoliaSyncFromEnv, refreshLandedMarginsAfterImport, fetchImportedImages, openImportDb, printSummary, progressPrinter, queueSavedSearchAlerts } from "./lib/import-cli";
import { releasingEvery } from "./lib/native-memory";
import { openProductFile, ProductFileError, type ProductFile } from "./lib/product-file";

const USAGE = `Usage: npm run products:import -- FILE [--no-wait-images]

FILE is a JSON array (.json, read whole up to 256 MB), NDJSON (.ndjson/.jsonl, one product per line)
or CSV (.csv, header in docs/decisions/011-product-data.md); the format is sniffed for other names.
Writes to DATABASE_URL (default file:./data/app.db). Image URLs (http/https) are fetched after the
products are imported (each once, at most 5 MB, JPEG/PNG/WebP/GIF) and kept in VIDEO_STORAGE_DIR/images;
--no-wait-images leaves that to the server's background worker (or npm run jobs -- run-due).`;

async function main(): Promise<number> {
  const noWaitImages = process.argv.includes("--no-wait-images");
  const args = process.argv.slice(2).filter((a) => a !== "--" && a !== "--no-wait-images");
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (args.length !== 1 || args[0].startsWith("-")) {
    process.stderr.write(`${USAGE}\n`);
    return 1;
  }
  const file = args[0];

  let source: ProductFile;
  try {
    source = await openProductFile(file);
  } catch (error) {
    if (error instanceof ProductFileError) {
      process.stderr.write(`products:import: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  for (const warning of source.warnings) process.stderr.write(`products:import: ${warning}\n`);

  const { db, url, jobs, close } = await openImportDb();
  const { importProducts, ImportAbortedError } = await import("~/services/products/import.server");
  const { landedMarginTable } = await import("~/services/landed-cost/margins.server");
  process.stderr.write(`Importing ${file} (${source.format}) into ${url}\n`);
  const started = Date.now();
  const rejectionsFile = `${file}.rejections.txt`;
  try {
    const landed = await landedMarginTable(db);
    const sync = await algoliaSyncFromEnv(db);
    const summary = await importProducts(db, releasingEvery(source.rows, 20_000), {
      onProgress: progressPrinter(() => source.estimatedRows(), { exact: source.format === "json" }),
      onCommitted: sync,
      landed,
      imageJobs: jobs,
    });
    printSummary(summary, { source: file, elapsedMs: Date.now() - started, rejectionsFile });
    await refreshLandedMarginsAfterImport(db, landed, sync);
    await queueSavedSearchAlerts(jobs, summary);
    // The products are in; their image URLs are fetched now unless a server's worker is left to do it.
    if (!noWaitImages) await fetchImportedImages(db, jobs, summary);
    if (summary.imported + summary.updated > 0) return 0;
    process.stderr.write(
      summary.processed === 0 ? "products:import: the file holds no product rows\n" : "products:import: every row was rejected\n",
    );
    return 2;
  } catch (error) {
    if (error instanceof ImportAbortedError) {
      printSummary(error.summary, { source: file, elapsedMs: Date.now() - started, rejectionsFile });
      process.stderr.write(
        `products:import: ${error.message}\nRows counted above as imported or updated were committed; the rest were not.\n`,
      );
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
    process.stderr.write(`products:import: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
