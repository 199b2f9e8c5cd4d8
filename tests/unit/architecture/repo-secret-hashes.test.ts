// The list of secret-looking literals a public deployment refuses (docs/decisions/042) must match the
// repository: a new test secret, sample key or documented value is refused in production only once
// `npm run secrets:hashes` has added it.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HASHES_FILE, hashesFileText, repoSecretHashes, secretLiterals } from "../../../scripts/repo-secret-hashes.mjs";
import { E2E_SESSION_SECRET } from "../../e2e/support/constants";
import { TEST_SHOPIFY_API_SECRET } from "../../helpers/test-env";

const committed = readFileSync(path.resolve(HASHES_FILE), "utf8");
const sha256 = (v: string) => createHash("sha256").update(v).digest("hex");

describe(HASHES_FILE, () => {
  it("is current: run npm run secrets:hashes and commit it when this fails", () => {
    expect(committed).toBe(hashesFileText(repoSecretHashes(path.resolve("."))));
  });

  it("holds the hashes of the repository's test secrets, and never a literal", () => {
    const hashes = JSON.parse(committed) as string[];
    for (const secret of [E2E_SESSION_SECRET, TEST_SHOPIFY_API_SECRET, "shpss_prod_secret_0123456789abcdef"]) {
      expect(hashes).toContain(sha256(secret));
      expect(committed).not.toContain(secret);
    }
    expect(hashes.every((h) => /^[0-9a-f]{64}$/.test(h))).toBe(true);
  });
});

describe("secretLiterals", () => {
  it("takes quoted values and NAME=value on lines about secrets, with the parts of key:value lists", () => {
    const text = [
      'export const E2E_SESSION_SECRET = "e2e-session-secret-0123456789abcdef";',
      "SESSION_SECRET=plain-env-file-value-42",
      "DISCORD_CLIENT_SECRET: '1234567890:discord-test-secret',",
      'const greeting = "hello-world-not-a-key";',
      'import { x } from "~/integrations/token-crypto.server";',
      "const token = `prefix-${value}`;",
      'const SESSION_SECRET_NAME = "SESSION_SECRET";',
    ].join("\n");
    expect([...secretLiterals(text)].sort()).toEqual(
      ["1234567890:discord-test-secret", "1234567890", "discord-test-secret", "e2e-session-secret-0123456789abcdef", "plain-env-file-value-42"].sort(),
    );
  });
});
