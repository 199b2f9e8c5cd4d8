#!/usr/bin/env node
// `npm run secrets:hashes`: writes app/repo-secret-hashes.json, the SHA-256 of every secret-looking literal in
// the repository's tracked files, so a public deployment refuses a secret anyone with the repository can read
// (docs/decisions/042). Hashes only, never the literals. `--check` exits 1 when the committed file is stale
// (tests/unit/architecture/repo-secret-hashes.test.ts runs the same comparison).
//
// Secret-looking: on a line that mentions a secret (secret, token, password, api key, hmac, salt, signing,
// credential, auth, encryption key), each quoted literal and each NAME=value of 8 to 512 characters without
// spaces; also its parts around ":" and "," (a keyId:key entry, a list). Paths, URLs, template strings and
// CONSTANT_NAMES are left out.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const HASHES_FILE = "app/repo-secret-hashes.json";
const SKIP = new Set(["package-lock.json", HASHES_FILE]);
const SECRET_LINE = /secret|token|passw|api[_-]?key|private[_-]?key|credential|hmac|signing|salt|encryption[_-]?key|auth/i;
const LITERAL = /(["'`])([^"'`\s]{8,512})\1|\b[A-Z][A-Z0-9_]*=([^"'`\s]{8,512})/g;
const NOT_A_VALUE = /^(\.{0,2}\/|~\/|node:|[a-z][a-z0-9+.-]*:\/\/)|^[A-Z][A-Z0-9_]*$|\$\{/;

export const sha256 = (value) => createHash("sha256").update(value, "utf8").digest("hex");

/** The secret-looking literals of one file's text. */
export function secretLiterals(text) {
  const found = new Set();
  for (const line of text.split("\n")) {
    if (!SECRET_LINE.test(line)) continue;
    for (const match of line.matchAll(LITERAL)) {
      const value = match[2] ?? match[3];
      if (NOT_A_VALUE.test(value)) continue;
      found.add(value);
      for (const part of value.split(/[:,]/)) if (part.length >= 8 && part !== value) found.add(part);
    }
  }
  return found;
}

/** Sorted SHA-256 hashes of the secret-looking literals in the files git tracks (or would) under root. */
export function repoSecretHashes(root) {
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" }).split("\0").filter(Boolean);
  const hashes = new Set();
  for (const file of files) {
    if (SKIP.has(file)) continue;
    let bytes;
    try {
      bytes = readFileSync(path.join(root, file));
    } catch {
      continue; // deleted in the work tree
    }
    if (bytes.includes(0)) continue; // binary
    for (const literal of secretLiterals(bytes.toString("utf8"))) hashes.add(sha256(literal));
  }
  return [...hashes].sort();
}

/** The file's text: one hash per line, so a merge conflict is rare and rerunning the script resolves it. */
export function hashesFileText(hashes) {
  return `${JSON.stringify(hashes, null, 1).replace(/^ /gm, "  ")}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const text = hashesFileText(repoSecretHashes(root));
  const file = path.join(root, HASHES_FILE);
  if (process.argv.includes("--check")) {
    let current = "";
    try {
      current = readFileSync(file, "utf8");
    } catch {
      // missing: stale
    }
    if (current !== text) {
      console.error(`${HASHES_FILE} is out of date: run npm run secrets:hashes and commit it.`);
      process.exit(1);
    }
    console.log(`${HASHES_FILE} is current.`);
  } else {
    writeFileSync(file, text);
    console.log(`${HASHES_FILE}: ${JSON.parse(text).length} hashes of secret-looking literals.`);
  }
}
