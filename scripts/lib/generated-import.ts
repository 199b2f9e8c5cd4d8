// Generated products into the database through the import (the same validation, insights and
// upserts as a file import: importProducts = prepareBatches + writeBatches). From WORKER_MIN_COUNT
// products the first half runs on a worker thread next to the generator, so preparing and writing
// use both cores; smaller counts run inline through importProducts.
import { Worker } from "node:worker_threads";
import type { Db } from "~/db.server";
import { landedMarginTable } from "~/services/landed-cost/margins.server";
import { importProducts, writeBatches, type ImportOptions, type ImportSummary, type PreparedBatch } from "~/services/products/import.server";
import type { GeneratorWorkerData, GeneratorWorkerMessage } from "./generator-worker";
import { releasingEvery } from "./native-memory";
import { generatedRows, type GenerateOptions } from "./product-generator";

export const WORKER_MIN_COUNT = 20_000;

/** Prepared batches of generated products from a worker thread, in order. */
export async function* workerBatches(count: number, options: GenerateOptions, data: Omit<GeneratorWorkerData, "count" | "options">): AsyncGenerator<PreparedBatch> {
  const worker = new Worker(new URL("./generator-worker.ts", import.meta.url), {
    // The worker holds a couple of batches at a time; a small heap makes V8 collect their garbage early.
    resourceLimits: { maxOldGenerationSizeMb: 512 },
    workerData: { count, options, ...data } satisfies GeneratorWorkerData,
  });
  const queue: GeneratorWorkerMessage[] = [];
  let failure: unknown = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  worker.on("message", (m: GeneratorWorkerMessage) => {
    queue.push(m);
    notify();
  });
  worker.on("error", (error) => {
    failure = error;
    notify();
  });
  worker.on("exit", (code) => {
    if (code !== 0 && !failure) failure = new Error(`generator worker exited with code ${code}`);
    notify();
  });
  try {
    for (;;) {
      if (queue.length === 0 && !failure) await new Promise<void>((resolve) => (wake = resolve));
      const message = queue.shift();
      if (!message) {
        if (failure) throw failure;
        continue;
      }
      if ("done" in message) return;
      worker.postMessage("more");
      yield message.batch;
    }
  } finally {
    await worker.terminate();
  }
}

/** threads: 1 = all on this thread, 2 = generate and prepare on a worker, absent = a worker from WORKER_MIN_COUNT. */
export async function importGeneratedProducts(
  db: Db,
  count: number,
  generate: GenerateOptions,
  options: ImportOptions & { threads?: 1 | 2 } = {},
): Promise<ImportSummary> {
  const useWorker = options.threads === 2 || (options.threads === undefined && count >= WORKER_MIN_COUNT);
  const inline = () => importProducts(db, releasingEvery(generatedRows(count, generate), 20_000), options);
  if (!useWorker) return inline();
  const now = options.now ?? new Date();
  const landed = options.landed ?? (await landedMarginTable(db, now));
  const batches = workerBatches(count, generate, { now, statementRows: options.statementRows, transactionRows: options.transactionRows, landed });
  let first: IteratorResult<PreparedBatch>;
  try {
    first = await batches.next();
  } catch (error) {
    // Nothing is written yet: a worker that cannot start (e.g. a Node whose workers lack the
    // TypeScript loader) only costs speed.
    process.stderr.write(`products: generating on the main thread (worker failed: ${error instanceof Error ? error.message : String(error)})\n`);
    return inline();
  }
  async function* all() {
    if (!first.done) yield first.value;
    yield* batches;
  }
  return writeBatches(db, releasingEvery(all(), 4), { now, onProgress: options.onProgress, onCommitted: options.onCommitted });
}
