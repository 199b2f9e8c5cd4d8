// Reads a product file (JSON array, NDJSON or CSV) as a stream of { line, row } for importProducts.
// NDJSON and CSV are streamed line by line (node:readline), so a file of any size uses little memory;
// a JSON array is read whole up to MAX_JSON_ARRAY_BYTES. Rows are reported with the line where they
// start. Problems with the file as a whole (missing, empty, not JSON, CSV header without required
// columns) throw ProductFileError; problems with one row become an unreadable row, rejected with its line.
import { createReadStream } from "node:fs";
import { open, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { checkCsvHeader, csvRecordToRow, CsvLineReader, unreadableRow } from "~/domain/products/product-import";

export type ProductFileFormat = "json" | "ndjson" | "csv";

export const MAX_JSON_ARRAY_BYTES = 256 * 1024 * 1024;

/** The file cannot be imported at all (exit code 1 in the CLI). */
export class ProductFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProductFileError";
  }
}

export interface ProductFile {
  path: string;
  format: ProductFileFormat;
  sizeBytes: number;
  /** Notes about the file that do not stop the import (e.g. ignored CSV columns). */
  warnings: string[];
  rows: AsyncIterable<{ line: number; row: unknown }>;
  /** Rows expected in the whole file: exact for JSON, extrapolated from bytes read otherwise. */
  estimatedRows(): number | null;
}

/** .json/.ndjson/.jsonl/.csv by extension; otherwise (or a .json holding NDJSON) by the first character. */
export async function detectFormat(file: string): Promise<ProductFileFormat> {
  const ext = path.extname(file).toLowerCase();
  if (ext === ".ndjson" || ext === ".jsonl") return "ndjson";
  if (ext === ".csv") return "csv";
  const first = await firstCharacter(file);
  if (first === null) throw new ProductFileError(`${file} is empty`);
  if (first === "[") return "json";
  if (first === "{") return "ndjson";
  if (ext === ".json") throw new ProductFileError(`${file} is not JSON: it should start with [ (an array) or { (NDJSON)`);
  return "csv";
}

async function firstCharacter(file: string): Promise<string | null> {
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, bytesRead).toString("utf8").replace(/^\uFEFF/, "");
    const match = /\S/.exec(text);
    return match ? match[0] : null;
  } finally {
    await handle.close();
  }
}

export async function openProductFile(file: string): Promise<ProductFile> {
  let sizeBytes: number;
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new ProductFileError(`${file} is not a file`);
    sizeBytes = info.size;
  } catch (error) {
    if (error instanceof ProductFileError) throw error;
    throw new ProductFileError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  if (sizeBytes === 0) throw new ProductFileError(`${file} is empty`);
  const format = await detectFormat(file);
  if (format === "json") return openJsonArray(file, sizeBytes);
  return format === "ndjson" ? openNdjson(file, sizeBytes) : openCsv(file, sizeBytes);
}

// ---- JSON array ---------------------------------------------------------------------------------------

async function openJsonArray(file: string, sizeBytes: number): Promise<ProductFile> {
  if (sizeBytes > MAX_JSON_ARRAY_BYTES) {
    throw new ProductFileError(
      `${file} is ${Math.round(sizeBytes / 1024 / 1024)} MB; JSON arrays are read whole up to ` +
        `${MAX_JSON_ARRAY_BYTES / 1024 / 1024} MB. Write it as NDJSON (one product object per line) instead.`,
    );
  }
  const text = (await readFile(file, "utf8")).replace(/^\uFEFF/, "");
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ProductFileError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(data)) {
    throw new ProductFileError(`${file} must hold a JSON array of products (or one product object per line, as NDJSON)`);
  }
  const lines = arrayElementLines(text);
  const items = data;
  return {
    path: file,
    format: "json",
    sizeBytes,
    warnings: [],
    estimatedRows: () => items.length,
    rows: (async function* () {
      for (let i = 0; i < items.length; i++) yield { line: lines[i] ?? 1, row: items[i] };
    })(),
  };
}

/** The line on which each top-level element of a (valid) JSON array starts. */
export function arrayElementLines(text: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let expecting = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\n") line++;
    if (inString) {
      if (escaped) escaped = false;
      else if (c === "\\") escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r" || c === "\n") continue;
    if (depth === 1 && expecting && c !== "]") {
      lines.push(line);
      expecting = false;
    }
    if (c === '"') inString = true;
    else if (c === "[" || c === "{") {
      depth++;
      if (depth === 1) expecting = true;
    } else if (c === "]" || c === "}") depth--;
    else if (c === "," && depth === 1) expecting = true;
  }
  return lines;
}

// ---- NDJSON and CSV (streamed) ------------------------------------------------------------------------

function lineStream(file: string) {
  const stream = createReadStream(file, { encoding: "utf8", highWaterMark: 1024 * 1024 });
  const reader = createInterface({ input: stream, crlfDelay: Infinity });
  return { stream, lines: reader[Symbol.asyncIterator](), close: () => reader.close() };
}

function estimator(sizeBytes: number, stream: { bytesRead: number }, rowsSoFar: () => number) {
  return () => {
    const read = stream.bytesRead;
    const rows = rowsSoFar();
    if (read === 0 || rows === 0) return null;
    return Math.max(rows, Math.round((rows * sizeBytes) / read));
  };
}

async function openNdjson(file: string, sizeBytes: number): Promise<ProductFile> {
  const { stream, lines, close } = lineStream(file);
  let count = 0;
  return {
    path: file,
    format: "ndjson",
    sizeBytes,
    warnings: [],
    estimatedRows: estimator(sizeBytes, stream, () => count),
    rows: (async function* () {
      let line = 0;
      try {
        for (let next = await lines.next(); !next.done; next = await lines.next()) {
          line++;
          const text = line === 1 ? next.value.replace(/^\uFEFF/, "") : next.value;
          if (text.trim() === "") continue;
          count++;
          let row: unknown;
          try {
            row = JSON.parse(text);
          } catch (error) {
            row = unreadableRow(`not valid JSON: ${(error as Error).message}`);
          }
          yield { line, row };
        }
      } finally {
        close();
      }
    })(),
  };
}

async function openCsv(file: string, sizeBytes: number): Promise<ProductFile> {
  const { stream, lines, close } = lineStream(file);
  const csv = new CsvLineReader();
  let line = 0;
  let header: string[] | null = null;
  // The header is read now, so a file without the required columns fails before anything is imported.
  while (!header) {
    const next = await lines.next();
    if (next.done) {
      close();
      throw new ProductFileError(`${file} has no CSV header line`);
    }
    line++;
    const text = line === 1 ? next.value.replace(/^\uFEFF/, "") : next.value;
    if (!csv.open && text.trim() === "") continue;
    header = csv.push(text)?.map((h) => h.trim()) ?? null;
  }
  const check = checkCsvHeader(header);
  if (check.missing.length > 0 || check.duplicate.length > 0) {
    close();
    const problems = [
      check.missing.length ? `lacks required column${check.missing.length > 1 ? "s" : ""} ${check.missing.join(", ")}` : "",
      check.duplicate.length ? `repeats column${check.duplicate.length > 1 ? "s" : ""} ${check.duplicate.join(", ")}` : "",
    ].filter(Boolean);
    throw new ProductFileError(`${file}: the CSV header ${problems.join(" and ")} (see docs/decisions/011-product-data.md)`);
  }
  const warnings = check.unknown.length ? [`ignored unknown CSV column${check.unknown.length > 1 ? "s" : ""}: ${check.unknown.join(", ")}`] : [];
  const columns = header;
  let count = 0;
  return {
    path: file,
    format: "csv",
    sizeBytes,
    warnings,
    estimatedRows: estimator(sizeBytes, stream, () => count),
    rows: (async function* () {
      let recordStart = 0;
      try {
        for (let next = await lines.next(); !next.done; next = await lines.next()) {
          line++;
          if (!csv.open) {
            if (next.value.trim() === "") continue;
            recordStart = line;
          }
          const fields = csv.push(next.value);
          if (!fields) continue;
          count++;
          yield { line: recordStart, row: csvRecordToRow(columns, fields) };
        }
        if (csv.open) {
          count++;
          yield { line: recordStart, row: unreadableRow("has a quoted field that is never closed") };
        }
      } finally {
        close();
      }
    })(),
  };
}
