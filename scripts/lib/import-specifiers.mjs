// Import specifiers as the bundler reads them, for the scripts that walk the app's imports as text
// (scripts/move-paths.mjs rewrites them; scripts/check-cycles.mjs looks for circles, type imports included).
// `~/` is app/ (tsconfig.json's paths); a bare specifier is a package and resolves to null.
import path from "node:path";

/** Every import, export-from, dynamic import, require and vi.importActual specifier: [whole, lead, quote, spec]. */
export const IMPORT_SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*|\bvi\.importActual\s*\(\s*)(["'])([^"'\n]+)\2/g;

/** The file an import specifier names, among `known` files (repository paths), or null for a package. */
export function resolveSpecifier(importer, spec, known) {
  let base;
  if (spec.startsWith("~/")) base = path.posix.join("app", spec.slice(2));
  else if (spec.startsWith("./") || spec.startsWith("../")) base = path.posix.join(path.posix.dirname(importer), spec);
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}.mjs`, `${base}.js`, `${base}/index.ts`, `${base}/index.tsx`])
    if (known.has(candidate)) return candidate;
  return null;
}
