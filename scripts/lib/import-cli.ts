// What the two product scripts share: the database they write to (DATABASE_URL, like the app, with
// migrations applied first), progress lines on stderr, and the import summary.
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { formatCount } from "~/domain/products/insights";
import type { ImportProgress, ImportSummary } from "~/services/products/import.server";

export const DEFAULT_DATABASE_URL = "file:./data/app.db";

/** Migrates DATABASE_URL (default file:./data/app.db) and opens it; app modules load only after that. */
export async function openImportDb() {
  const url = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  process.env.DATABASE_URL = url;
  const { prepareDbOrExit } = (await import("../prepare-db.mjs")) as { prepareDbOrExit: (env: NodeJS.ProcessEnv) => Promise<void> };
  await prepareDbOrExit(process.env);
  const { createDb, tuneSqlite } = await import("~/db.server");
  const { createJobSystemFor } = await import("~/services/jobs.server");
  const db = createDb(url, process.env.DATABASE_AUTH_TOKEN || undefined);
  await tuneSqlite(db, url);
  /** Where an import's jobs go (pictures, alert checks): our queue on SQLite, pg-boss on PostgreSQL (decision 102). */
  const jobs = createJobSystemFor({ db, url });
  /** Folds the write-ahead log into the database file (a tidy file, an honest size), then disconnects. */
  const close = async () => {
    await jobs.stop();
    if (url.startsWith("file:")) await db.$queryRawUnsafe("PRAGMA wal_checkpoint(TRUNCATE)").catch(() => undefined);
    await db.$disconnect();
  };
  return { db, url, jobs, close };
}

/** "imported 120,000 / ~1,000,000 rows (12%)" at most once a second, on stderr. */
export function progressPrinter(total: () => number | null, { intervalMs = 1000, exact = false } = {}) {
  const started = Date.now();
  let last = started;
  return (p: ImportProgress) => {
    const now = Date.now();
    if (now - last < intervalMs) return;
    last = now;
    const expected = total();
    const done = p.imported + p.updated;
    const of = expected ? ` / ${exact ? "" : "~"}${formatCount(expected)}` : "";
    const pct = expected ? ` (${Math.min(100, Math.floor((p.processed * 100) / expected))}%)` : "";
    const rejected = p.rejected ? `, ${formatCount(p.rejected)} rejected` : "";
    const rate = Math.round((p.processed * 1000) / Math.max(1, now - started));
    process.stderr.write(`imported ${formatCount(done)}${of} rows${pct}${rejected}, ${formatCount(rate)} rows/s\n`);
  };
}

export function rowsPerSecond(rows: number, ms: number): string {
  return formatCount(Math.round((rows * 1000) / Math.max(1, ms)));
}

/** Prints the summary; writes every rejection to a file next to the input when there are any. */
export function printSummary(
  summary: ImportSummary,
  { source, elapsedMs, rejectionsFile }: { source: string; elapsedMs: number; rejectionsFile: string },
) {
  const out = (s: string) => process.stdout.write(`${s}\n`);
  out(
    `${source}: ${formatCount(summary.processed)} rows in ${(elapsedMs / 1000).toFixed(1)} s ` +
      `(${rowsPerSecond(summary.processed, elapsedMs)} rows/s)`,
  );
  out(`  imported: ${formatCount(summary.imported)} new`);
  out(`  updated:  ${formatCount(summary.updated)}`);
  out(`  rejected: ${formatCount(summary.rejected.length)}`);
  if (summary.rejected.length === 0) {
    // A rejections file from an earlier run of the same file would now be misleading.
    try {
      rmSync(rejectionsFile, { force: true });
    } catch {
      // not ours to remove (e.g. a read-only folder): leave it
    }
  } else {
    for (const r of summary.rejected.slice(0, 20)) out(`    line ${r.line}: ${r.reason}`);
    let where = rejectionsFile;
    const text = summary.rejected.map((r) => `line ${r.line}: ${r.reason}\n`).join("");
    try {
      writeFileSync(rejectionsFile, text);
    } catch {
      where = path.join(process.env.TMPDIR || "/tmp", path.basename(rejectionsFile));
      writeFileSync(where, text);
    }
    const shown = Math.min(20, summary.rejected.length);
    out(`  (${shown === summary.rejected.length ? "all" : `first ${shown} of ${formatCount(summary.rejected.length)}`} shown; every rejection is in ${where})`);
  }
  if (summary.catalogVersion !== null) out(`  catalogue version: ${summary.catalogVersion}`);
  const images = summary.images;
  if (images.urls > 0) {
    out(
      `  image URLs: ${formatCount(images.urls)} on ${formatCount(images.products)} products: ` +
        `${formatCount(images.alreadyStored)} already stored, ${formatCount(images.toFetch)} to fetch` +
        (images.jobIds.length ? ` (job ${images.jobIds.join(", ")})` : ""),
    );
  }
}

/**
 * Fetches the images an import queued (docs/decisions/028), in this process, with a progress line, then
 * reports each image that could not be fetched and why (its product keeps its category drawing). The
 * products are already imported: this only waits for the "images.fetch" jobs (a server's worker may run
 * some of them; they are waited for too). Files go where the app serves them from: VIDEO_STORAGE_DIR/images.
 */
export async function fetchImportedImages(
  db: import("~/db.server").Db,
  jobs: import("~/services/jobs.server").Jobs,
  summary: ImportSummary,
  options: { timeoutMs?: number } = {},
) {
  const ids = summary.images.jobIds;
  if (ids.length === 0) return { stored: 0, failed: [] as { url: string; reason: string }[], pending: 0 };
  const { createStoredImages, imageFetchReport, IMAGES_FETCH_JOB } = await import("~/services/stored-images.server");
  const { createImageFetcher } = await import("~/integrations/image-fetch.server");
  const { createFileStorage } = await import("~/integrations/file-storage.server");
  const { createSafeFetcher, parseAllowHosts } = await import("~/integrations/safe-fetch.server");
  const env = process.env;
  const fetcher = createSafeFetcher({
    contactUrl: new URL("/", env.APP_URL || `http://localhost:${env.PORT || 3000}`).toString(),
    appName: env.TRACKER_USER_AGENT || undefined,
    allowHosts: parseAllowHosts(env.TRACKER_ALLOW_HOSTS),
  });
  createStoredImages({
    db,
    fetcher: createImageFetcher({ fetcher }),
    storage: createFileStorage(path.join(env.VIDEO_STORAGE_DIR || "./data/videos", "images")),
    // The fetched images reach the Algolia records too (decision 037), as the import's rows did.
    onImagesApplied: await algoliaSyncFromEnv(db),
  }).registerJobs(jobs);
  const started = Date.now();
  const deadline = started + (options.timeoutMs ?? 60 * 60_000);
  const objectIDs: string[] = [];
  const progress = setInterval(() => {
    void Promise.all(ids.map((id) => jobs.get(id))).then((rows) => {
      const pct = Math.floor(rows.reduce((s, r) => s + (r?.status === "done" ? 100 : (r?.progress ?? 0)), 0) / ids.length);
      process.stderr.write(`fetching images: ${pct}%\n`);
    });
  }, 2000);
  try {
    for (;;) {
      await jobs.runDue({ kinds: [IMAGES_FETCH_JOB] });
      const rows = await Promise.all(ids.map((id) => jobs.get(id)));
      if (rows.every((r) => !r || r.status === "done" || r.status === "parked") || Date.now() > deadline) {
        for (const r of rows) if (r) objectIDs.push(...(JSON.parse(r.payload) as { objectIDs: string[] }).objectIDs);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  } finally {
    clearInterval(progress);
    fetcher.close();
  }
  const report = await imageFetchReport(db, objectIDs);
  const out = (s: string) => process.stdout.write(`${s}\n`);
  out(`  images: ${formatCount(report.stored)} stored, ${formatCount(report.failed.length)} not fetched, ${formatCount(report.pending)} still waiting`);
  for (const f of report.failed.slice(0, 20)) out(`    not fetched ${f.url}: ${f.reason}`);
  if (report.failed.length > 0) out("    (those products show their category drawing instead)");
  return report;
}

/**
 * With ALGOLIA_APP_ID, ALGOLIA_ADMIN_KEY and ALGOLIA_INDEX set, each committed batch is pushed to the
 * Algolia index (docs/decisions/012); otherwise undefined and imports touch only the database.
 */
export async function algoliaSyncFromEnv(db: import("~/db.server").Db) {
  const env = process.env;
  const appId = env.ALGOLIA_APP_ID?.trim();
  const adminApiKey = env.ALGOLIA_ADMIN_KEY?.trim();
  const indexName = env.ALGOLIA_INDEX?.trim();
  if (!appId || !adminApiKey || !indexName) return undefined;
  const { createAlgoliaEngine, parseAlgoliaHosts } = await import("~/integrations/algolia.server");
  const { algoliaRowSource } = await import("~/services/search/algolia-rows.server");
  const engine = createAlgoliaEngine({
    appId,
    apiKey: env.ALGOLIA_SEARCH_KEY?.trim() || adminApiKey,
    adminApiKey,
    indexName,
    hosts: parseAlgoliaHosts(env.ALGOLIA_HOSTS),
    rows: algoliaRowSource(db),
  });
  process.stderr.write(`Syncing imported products to the Algolia index "${indexName}"\n`);
  return async (objectIDs: string[]) => {
    await engine.syncProducts(objectIDs);
  };
}

/**
 * After a product import (decision 065): the stored margins after duty and fees of every product are figured again
 * when the layers they were figured with are not the ones in force (a catalogue from before migration 034, or a
 * tariff import while this import ran: `used` is the table its rows were figured with). Prints what it did.
 */
export async function refreshLandedMarginsAfterImport(
  db: import("~/db.server").Db,
  used: import("~/domain/landed-cost/margin").LandedMarginTable,
  onChanged?: (objectIDs: string[]) => Promise<unknown>,
): Promise<void> {
  const { landedMarginKey, landedMarginTable, refreshLandedMargins } = await import("~/services/landed-cost/margins.server");
  const force = landedMarginKey(used) !== landedMarginKey(await landedMarginTable(db));
  const done = await refreshLandedMargins(db, { force, onChanged });
  if (done.refigured) {
    process.stdout.write(
      `  margins after duty and fees: ${formatCount(done.products)} products figured again as of ${done.asOf} in ${(done.ms / 1000).toFixed(1)} s ` +
        `(${rowsPerSecond(done.products, done.ms)} products/s), ${formatCount(done.changed)} changed\n`,
    );
  }
}

/**
 * New products may enter saved searches' results: queue the alert check (docs/decisions/030) for the app's
 * job worker. One check waits at a time however many imports ask; nothing is queued when nothing is new.
 */
export async function queueSavedSearchAlerts(jobs: import("~/services/jobs.server").Jobs, summary: ImportSummary): Promise<void> {
  if (summary.imported === 0) return;
  const { ALERT_CHECK_JOB, ALERT_CHECK_KEY } = await import("~/services/products/saved-search-alerts.server");
  await jobs.enqueue(ALERT_CHECK_JOB, {}, { key: ALERT_CHECK_KEY });
  process.stdout.write("  saved-search alerts: check queued\n");
}
