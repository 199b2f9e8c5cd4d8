// The secrets a public deployment refuses (docs/decisions/042, 080), asked by app/env.server.ts: a value written in
// this repository, one too easy to guess by its characters, and one made of the product's name and dictionary words.
// The words are found by zxcvbn (@zxcvbn-ts/core with its common and English dictionaries), loaded only when a public
// deployment's secrets are checked: a local demo, the tests and the benchmarks never pay for its ~100 MB of tables.
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import type { ZxcvbnFactory as Zxcvbn } from "@zxcvbn-ts/core";
import { PRODUCT_WORDS, secretWeakness, type GuessEstimate } from "~/domain/accounts/secret-strength";
import repoSecretHashes from "~/repo-secret-hashes.json";

/**
 * SHA-256 of every secret-looking literal in the repository's files (scripts/repo-secret-hashes.mjs writes the
 * file; tests/unit/architecture/repo-secret-hashes.test.ts fails when it is stale). Hashes only: never the literals.
 */
const REPO_SECRET_HASHES: ReadonlySet<string> = new Set(repoSecretHashes);

/** The secrets a public deployment checks (docs/decisions/042); public keys (Paddle client token, Firebase web key) are not. */
export const CHECKED_SECRETS = [
  "SESSION_SECRET",
  "SHOPIFY_API_SECRET",
  "PADDLE_API_KEY",
  "PADDLE_WEBHOOK_SECRET",
  "DISCORD_CLIENT_SECRET",
  "ALGOLIA_SEARCH_KEY",
  "ALGOLIA_ADMIN_KEY",
  "AI_API_KEY",
  "DATABASE_AUTH_TOKEN",
  "KLAVIYO_API_KEY",
  "HYROS_API_KEY",
] as const;

const HOW = "set a long random value (e.g. openssl rand -hex 32)";

/** Why a value cannot be a production secret, or null: written in the repository, or too easy to guess. */
export function weakSecret(value: string): string | null {
  if (REPO_SECRET_HASHES.has(createHash("sha256").update(value, "utf8").digest("hex"))) {
    return "is a value written in this repository, not a secret: set a new random value (e.g. openssl rand -hex 32)";
  }
  const weakness = secretWeakness(value, guessEstimate);
  if (!weakness) return null;
  const { kind, bits, floor } = weakness;
  return kind === "words"
    ? `is too easy to guess: made of words, names or patterns an attacker tries first (about ${bits} bits, at least ${floor} needed): ${HOW}`
    : `is too easy to guess (about ${bits} bits, at least ${floor} needed): ${HOW}`;
}

// The tables are built once for a run of checks (a start-up checks up to a dozen values, a test file many more) and
// let go a little later, instead of staying in every server process for its whole life.
let estimator: Zxcvbn | undefined;
const KEEP_ESTIMATOR_MS = 30_000;
const WORD_LISTS = [
  "passwords-common",
  "diceware-common",
  "commonWords-en",
  "firstnames-en",
  "lastnames-en",
  "wikipedia-en",
];

function zxcvbn(): Zxcvbn {
  if (estimator) return estimator;
  // Loaded on first use, synchronously (the environment is checked synchronously): the CommonJS builds.
  const require = createRequire(import.meta.url);
  const { ZxcvbnFactory } = require("@zxcvbn-ts/core") as typeof import("@zxcvbn-ts/core");
  const common = require("@zxcvbn-ts/language-common") as typeof import("@zxcvbn-ts/language-common");
  const english = require("@zxcvbn-ts/language-en") as typeof import("@zxcvbn-ts/language-en");
  // The word lists, not the short ones of days, months or colours zxcvbn reads as sequences of words: each list is
  // searched at every position of the value, and these six hold all but ~200 of the words.
  const lists = [common.dictionary, english.dictionary].flatMap((set) => Object.entries(set));
  const dictionary = Object.fromEntries(lists.filter(([name]) => WORD_LISTS.includes(name)));
  estimator = new ZxcvbnFactory({
    dictionary: { ...dictionary, product: [...PRODUCT_WORDS] },
    graphs: common.adjacencyGraphs,
    // l33t spellings (W1nn1ngPr0ducts) with up to 3 substitutions: the default 100 costs seconds on a random key.
    l33tMaxSubstitutions: 3,
    // A longer value (a JWT) is judged by its first 128 characters: its words would have to be there.
    maxLength: 128,
  });
  setTimeout(() => (estimator = undefined), KEEP_ESTIMATOR_MS).unref();
  return estimator;
}

/** zxcvbn's guesses for a value, and how much of it its patterns (not brute force) explain. */
function guessEstimate(value: string): GuessEstimate {
  const { guesses, sequence } = zxcvbn().check(value);
  const length = (matches: typeof sequence) => matches.reduce((sum, match) => sum + match.token.length, 0);
  // Words and keyboard runs make a value "made of words"; digits zxcvbn reads as dates, years, repeats or counting
  // runs do not (a random hex key holds some by chance, and 1 in 300 of them was refused when they counted).
  const explained = length(sequence.filter((match) => match.pattern === "dictionary" || match.pattern === "spatial"));
  // The sequence covers what zxcvbn read: the first 256 characters of a longer value.
  return { bits: Math.log2(guesses), patternShare: explained / Math.max(1, length(sequence)) };
}
