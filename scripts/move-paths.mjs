#!/usr/bin/env node
// Moves files by a path map and rewrites every import of them, so a move is mechanical (docs/decisions/086).
//
//   node scripts/move-paths.mjs scripts/moves/domain.json [--dry-run] [--working-tree]
//
// --working-tree moves with a plain rename (nothing staged) and rewrites untracked files too: for carrying
// uncommitted work in a checkout across a move another checkout committed.
// The map is a JSON object { "app/domain/catalogue/hash.ts": "app/domain/catalogue/hash.ts", ... }. For each
// entry the file is moved with `git mv`; then every tracked source file (app/, server/, scripts/, tests/, bench/,
// prisma/, and the root's config files) has its import specifiers that resolved to a moved file rewritten:
// `~/...` specifiers stay `~/...`, relative ones stay relative (from the importing file's own new place, when it
// moved too). Paths written out in code and in the living documents (README.md, docs/architecture.md) are
// rewritten as text; decision records are history and keep the paths of their day (docs/decisions/README.md
// lists the moves). tsc, the lint and the tests prove the result.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { IMPORT_SPECIFIER, resolveSpecifier } from "./lib/import-specifiers.mjs";

const [mapFile, ...flags] = process.argv.slice(2);
if (!mapFile) {
  console.error("usage: node scripts/move-paths.mjs MAP.json [--dry-run]");
  process.exit(2);
}
const dryRun = flags.includes("--dry-run");
const workingTree = flags.includes("--working-tree");
const map = JSON.parse(readFileSync(mapFile, "utf8"));
const moves = new Map(Object.entries(map));

for (const [from, to] of moves) {
  if (!existsSync(from)) throw new Error(`${mapFile}: ${from} does not exist`);
  if (existsSync(to)) throw new Error(`${mapFile}: ${to} exists already`);
}

const SOURCE = /\.(ts|tsx|mts|mjs|js|cjs)$/;
const TEXT_DOCS = ["README.md", "docs/architecture.md"];
const listed = (args) => execFileSync("git", ["ls-files", "-z", ...args], { encoding: "utf8" }).split("\0").filter(Boolean);
const tracked = [...listed([]), ...(workingTree ? listed(["--others", "--exclude-standard"]) : [])];
const sources = tracked.filter((f) => SOURCE.test(f) && !f.startsWith("extensions/") && existsSync(f));
const known = new Set(tracked);

/** A specifier for `target` written from `importer`, in the style of `original` (alias or relative). */
function writeSpecifier(importer, target, original) {
  const ext = path.posix.extname(target);
  const keepsExt = path.posix.extname(original) === ext && ext !== "";
  const stem = keepsExt ? target : target.slice(0, -ext.length);
  if (original.startsWith("~/") && stem.startsWith("app/")) return `~/${stem.slice(4)}`;
  let rel = path.posix.relative(path.posix.dirname(importer), stem);
  if (!rel.startsWith(".")) rel = `./${rel}`;
  return rel;
}

const newPlace = (file) => moves.get(file) ?? file;
const textMoves = [...moves].sort((a, b) => b[0].length - a[0].length);

function rewriteText(text) {
  let out = text;
  for (const [from, to] of textMoves) out = out.split(from).join(to);
  return out;
}

let rewritten = 0;
const changes = new Map();
for (const file of sources) {
  const text = readFileSync(file, "utf8");
  const after = text.replace(IMPORT_SPECIFIER, (whole, lead, quote, spec) => {
    const target = resolveSpecifier(file, spec, known);
    if (target === null) return whole;
    const movedTarget = newPlace(target);
    if (movedTarget === target && newPlace(file) === file) return whole;
    const next = writeSpecifier(newPlace(file), movedTarget, spec);
    return next === spec ? whole : `${lead}${quote}${next}${quote}`;
  });
  const final = rewriteText(after);
  if (final !== text) {
    changes.set(file, final);
    rewritten++;
  }
}
for (const doc of TEXT_DOCS) {
  if (!existsSync(doc)) continue;
  const text = readFileSync(doc, "utf8");
  const final = rewriteText(text);
  if (final !== text) changes.set(doc, final);
}

if (dryRun) {
  for (const [from, to] of moves) console.log(`move ${from} -> ${to}`);
  console.log(`${moves.size} files to move; ${rewritten} source files and ${changes.size - rewritten} documents to rewrite`);
  process.exit(0);
}

for (const [file, text] of changes) writeFileSync(file, text);
for (const [from, to] of moves) {
  mkdirSync(path.dirname(to), { recursive: true });
  if (workingTree) renameSync(from, to);
  else execFileSync("git", ["mv", from, to]);
}
console.log(`moved ${moves.size} files; rewrote ${rewritten} source files and ${changes.size - rewritten} documents`);
