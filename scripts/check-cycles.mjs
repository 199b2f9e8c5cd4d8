#!/usr/bin/env node
// `npm run lint`'s second half: no import circle in app/, type imports included. ESLint's import-x/no-cycle
// skips `import type`, so two modules that each own half of one type (video-frames and video-render once did) pass
// it; this walks every specifier as text (scripts/lib/import-specifiers.mjs) and prints each circle it finds, one
// strongly connected group of modules at a time. Exit 1 when there is one.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { IMPORT_SPECIFIER, resolveSpecifier } from "./lib/import-specifiers.mjs";

const root = process.argv[2] ?? "app/";
const listed = (args) => execFileSync("git", ["ls-files", "-z", ...args], { encoding: "utf8" }).split("\0").filter(Boolean);
const files = [...listed([]), ...listed(["--others", "--exclude-standard"])].filter((f) => existsSync(f));
const known = new Set(files);
const modules = files.filter((f) => f.startsWith(root) && /\.(ts|tsx)$/.test(f));

const edges = new Map();
for (const file of modules) {
  const targets = new Set();
  for (const [, , , spec] of readFileSync(file, "utf8").matchAll(IMPORT_SPECIFIER)) {
    const target = resolveSpecifier(file, spec, known);
    if (target !== null && target !== file && target.startsWith(root)) targets.add(target);
  }
  edges.set(file, [...targets]);
}

// Tarjan's strongly connected components, iteratively (the graph has hundreds of modules).
let counter = 0;
const index = new Map();
const low = new Map();
const onStack = new Set();
const stack = [];
const groups = [];
for (const start of modules) {
  if (index.has(start)) continue;
  const work = [[start, 0]];
  index.set(start, counter);
  low.set(start, counter++);
  stack.push(start);
  onStack.add(start);
  while (work.length > 0) {
    const frame = work[work.length - 1];
    const [node, i] = frame;
    const next = edges.get(node) ?? [];
    if (i < next.length) {
      frame[1]++;
      const target = next[i];
      if (!index.has(target)) {
        index.set(target, counter);
        low.set(target, counter++);
        stack.push(target);
        onStack.add(target);
        work.push([target, 0]);
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node), index.get(target)));
      continue;
    }
    work.pop();
    if (work.length > 0) {
      const parent = work[work.length - 1][0];
      low.set(parent, Math.min(low.get(parent), low.get(node)));
    }
    if (low.get(node) === index.get(node)) {
      const group = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) groups.push(group.sort());
    }
  }
}

if (groups.length === 0) {
  console.log(`check-cycles: no import circle among ${modules.length} modules under ${root} (type imports included)`);
  process.exit(0);
}
for (const group of groups) {
  console.error(`An import circle (type imports included) among ${group.length} modules; move the shared part into its own module:`);
  for (const file of group) console.error(`  ${file} -> ${edges.get(file).filter((t) => group.includes(t)).join(", ")}`);
}
process.exit(1);
