// Worker thread for `products:generate`: generates products and prepares them for the import
// (validation, insights, packed payloads: the first half of importProducts) while the main thread
// writes the batches, so both cores work. Flow control: the main thread grants one credit per batch
// it has taken; at most two batches wait.
import { parentPort, workerData } from "node:worker_threads";
import type { LandedMarginTable } from "~/domain/landed-cost/margin";
import { prepareBatches, type PreparedBatch } from "~/services/products/import-batches.server";
import { generatedRows, type GenerateOptions } from "./product-generator";

export interface GeneratorWorkerData {
  count: number;
  options: GenerateOptions;
  now: Date;
  statementRows?: number;
  transactionRows?: number;
  /** The duty layers read by the main thread (the worker has no database). */
  landed: LandedMarginTable;
}

export type GeneratorWorkerMessage = { batch: PreparedBatch } | { done: true };

const data = workerData as GeneratorWorkerData;
let credits = 2;
let wake: (() => void) | null = null;

parentPort!.on("message", () => {
  credits++;
  wake?.();
  wake = null;
});

async function run() {
  const batches = prepareBatches(generatedRows(data.count, data.options), {
    now: data.now,
    statementRows: data.statementRows,
    transactionRows: data.transactionRows,
    landed: data.landed,
  });
  for await (const batch of batches) {
    while (credits <= 0) await new Promise<void>((resolve) => (wake = resolve));
    credits--;
    parentPort!.postMessage({ batch } satisfies GeneratorWorkerMessage);
  }
  parentPort!.postMessage({ done: true } satisfies GeneratorWorkerMessage);
}

run().catch((error) => {
  // Surfaces as the worker's "error" event in the main thread.
  throw error;
});
