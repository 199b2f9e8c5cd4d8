// The generated product catalogue the search, assistant and API benches share: bench/.data/products-1m.db (or
// products-N.db), made once by scripts/products-generate.ts (seed 1) and reused by every later run (a million
// products take several minutes and ~3 GB). A bench that writes to its database works on a copy of its own.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";

const DIR = path.resolve("bench/.data");
const ENV = { NODE_ENV: "test", LOG_LEVEL: "silent", SESSION_SECRET: "bench-secret-0123456789" } as const;

const label = (count: number) => (count === 1_000_000 ? "1m" : String(count));

/** The generated catalogue's file, generating it first when there is none. */
export function generatedCatalogue(count: number): string {
  mkdirSync(DIR, { recursive: true });
  const file = path.join(DIR, `products-${label(count)}.db`);
  if (existsSync(file)) return file;
  // Generated under another name and renamed when complete, so an interrupted run is not taken for a catalogue.
  const partial = `${file}.partial`;
  for (const suffix of ["", "-wal", "-shm"]) rmSync(partial + suffix, { force: true });
  console.log(`Generating ${count.toLocaleString("en-US")} products into ${file} (once; reused by later runs) …`);
  execFileSync(path.resolve("node_modules/.bin/tsx"), ["scripts/products-generate.ts", "--count", String(count), "--seed", "1"], {
    env: { ...process.env, ...ENV, DATABASE_URL: `file:${partial}` },
    stdio: "inherit",
  });
  renameSync(partial, file);
  return file;
}

/**
 * bench/.data/NAME-N.db: a copy of the generated catalogue made once for a bench that writes to it, migrated to
 * the current schema on every run (nothing to do after the first, until a new migration). `beforeMigrate` may
 * repair an old copy first.
 */
export function catalogueCopy(count: number, name: string, beforeMigrate?: (file: string) => void): string {
  const source = generatedCatalogue(count);
  const file = path.join(DIR, `${name}-${label(count)}.db`);
  if (!existsSync(file)) {
    console.log(`Copying ${source} to ${file} (once) …`);
    copyFileSync(source, file);
  }
  beforeMigrate?.(file);
  execFileSync(path.resolve("node_modules/.bin/prisma"), ["migrate", "deploy"], {
    env: { ...process.env, ...ENV, DATABASE_URL: `file:${file}`, PRISMA_SCHEMA_ENGINE_BINARY: "/bin/true" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return file;
}
