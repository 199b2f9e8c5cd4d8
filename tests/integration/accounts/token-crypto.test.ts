// Encryption at rest of stored tokens (docs/decisions/014): AES-256-GCM with the key id in each value,
// key rotation, and `npm run tokens:reencrypt` run for real as a child process on a copy of the test DB.
import { execFile } from "node:child_process";
import { copyFileSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { createDb } from "~/db.server";
import { parseEnv } from "~/env.server";
import {
  createTokenCrypto,
  deriveTokenKey,
  parseTokenKeys,
  TokenDecryptError,
  tokenKeysFromEnv,
  type TokenKey,
} from "~/integrations/token-crypto.server";
import { offlineSessionRow, uniqueShop } from "../../helpers/shopify";
import { TEST_SESSION_SECRET } from "../../helpers/test-env";

const run = promisify(execFile);

function key(id: string): TokenKey {
  return { id, key: randomBytes(32) };
}
const spec = (...keys: TokenKey[]) => keys.map((k) => `${k.id}:${k.key.toString("base64")}`).join(",");

/** Replaces one base64url part of a sealed value with the same bytes, one bit flipped. */
function flip(sealed: string, part: 2 | 3 | 4): string {
  const parts = sealed.split(":");
  const bytes = Buffer.from(parts[part], "base64url");
  bytes[0] ^= 0x01;
  parts[part] = bytes.toString("base64url");
  return parts.join(":");
}

describe("token encryption", () => {
  const k1 = key("k1");
  const crypto = createTokenCrypto([k1]);

  it("round-trips a token, in the v1:keyId:iv:tag:data format, with a fresh IV each time", () => {
    const token = "shpat_0123456789abcdef";
    const a = crypto.encrypt(token);
    const b = crypto.encrypt(token);
    expect(a).toMatch(/^v1:k1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain(token);
    expect(crypto.decrypt(a)).toBe(token);
    expect(crypto.decrypt(b)).toBe(token);
    expect(crypto.keyIdOf(a)).toBe("k1");
    expect(crypto.isCurrent(a)).toBe(true);
    expect(crypto.decrypt(crypto.encrypt(""))).toBe("");
    expect(crypto.decrypt(crypto.encrypt("ü🔑"))).toBe("ü🔑");
  });

  it.each([
    ["the IV", 2],
    ["the tag", 3],
    ["the ciphertext", 4],
  ] as const)("refuses a value whose %s was altered (GCM authentication)", (_name, part) => {
    const sealed = crypto.encrypt("shpat_secret");
    expect(() => crypto.decrypt(flip(sealed, part))).toThrow(TokenDecryptError);
    expect(() => crypto.decrypt(flip(sealed, part))).toThrow(/failed authentication/);
  });

  it("refuses a value relabelled with another key id, even one it has (the key id is authenticated)", () => {
    const k2 = key("k2");
    const both = createTokenCrypto([k1, k2]);
    const sealed = both.encrypt("shpat_secret");
    const relabelled = sealed.replace(/^v1:k1:/, "v1:k2:");
    expect(() => both.decrypt(relabelled)).toThrow(/failed authentication/);
  });

  it("refuses a value truncated, malformed, or sealed with a key it does not have", () => {
    const sealed = crypto.encrypt("shpat_secret");
    expect(() => crypto.decrypt(sealed.slice(0, -4))).toThrow(TokenDecryptError);
    expect(() => crypto.decrypt("shpat_plaintext")).toThrow(/not an encrypted token/);
    expect(() => crypto.decrypt(createTokenCrypto([key("other")]).encrypt("x"))).toThrow(/no key "other"/);
    // Same id, different key material: authentication fails rather than returning garbage.
    expect(() => createTokenCrypto([key("k1")]).decrypt(sealed)).toThrow(/failed authentication/);
  });

  it("rotates: a keyring with a new current key still opens values of the old one, and seals with the new", () => {
    const k2 = key("k2");
    const old = createTokenCrypto([k1]).encrypt("shpat_before_rotation");
    const rotated = createTokenCrypto([k2, k1]);
    expect(rotated.currentKeyId).toBe("k2");
    expect(rotated.decrypt(old)).toBe("shpat_before_rotation");
    expect(rotated.isCurrent(old)).toBe(false);
    const fresh = rotated.encrypt("shpat_after_rotation");
    expect(rotated.keyIdOf(fresh)).toBe("k2");
    // Once the old key is gone, its values can no longer be read.
    expect(() => createTokenCrypto([k2]).decrypt(old)).toThrow(/no key "k1"/);
  });

  it("without TOKEN_ENCRYPTION_KEYS uses a key derived from SESSION_SECRET (key id derived), stable across restarts", () => {
    const env = parseEnv({ SESSION_SECRET: TEST_SESSION_SECRET });
    const keys = tokenKeysFromEnv(env);
    expect(keys.map((k) => k.id)).toEqual(["derived"]);
    const sealed = createTokenCrypto(keys).encrypt("shpat_dev");
    expect(sealed.startsWith("v1:derived:")).toBe(true);
    expect(createTokenCrypto([deriveTokenKey(TEST_SESSION_SECRET)]).decrypt(sealed)).toBe("shpat_dev");
    expect(() => createTokenCrypto([deriveTokenKey("another-session-secret-xyz")]).decrypt(sealed)).toThrow(
      TokenDecryptError,
    );
  });

  it("with TOKEN_ENCRYPTION_KEYS seals with the first key, and still opens values sealed with the derived key", () => {
    const k2 = key("k2");
    const env = parseEnv({ SESSION_SECRET: TEST_SESSION_SECRET, TOKEN_ENCRYPTION_KEYS: spec(k2, k1) });
    const crypto = createTokenCrypto(tokenKeysFromEnv(env));
    expect(crypto.currentKeyId).toBe("k2");
    const fromDev = createTokenCrypto([deriveTokenKey(TEST_SESSION_SECRET)]).encrypt("shpat_dev");
    expect(crypto.decrypt(fromDev)).toBe("shpat_dev");
    expect(parseTokenKeys(spec(k2, k1)).map((k) => k.id)).toEqual(["k2", "k1"]);
  });
});

describe("TOKEN_ENCRYPTION_KEYS validation", () => {
  const problems = (source: Record<string, string>) => {
    try {
      parseEnv(source);
      return [];
    } catch (error) {
      return (error as { problems: string[] }).problems;
    }
  };
  const production = {
    NODE_ENV: "production",
    SESSION_SECRET: "a-long-production-secret",
    // A local demo (docs/decisions/042): no Paddle keys needed.
    APP_URL: "http://localhost:3000",
    SHOPIFY_APP: "off",
  };

  it("is required in production, and enough there", () => {
    expect(problems(production)).toEqual([expect.stringMatching(/^TOKEN_ENCRYPTION_KEYS is required in production/)]);
    expect(problems({ ...production, TOKEN_ENCRYPTION_KEYS: spec(key("k1")) })).toEqual([]);
  });

  it.each([
    ["a key that is not 32 bytes", `k1:${randomBytes(16).toString("base64")}`],
    ["a bare key without an id", randomBytes(32).toString("base64")],
    ["the reserved id derived", `derived:${randomBytes(32).toString("base64")}`],
    ["an id with a colon", `k:1:${randomBytes(32).toString("base64")}`],
  ])("refuses %s, without echoing the key", (_name, value) => {
    const found = problems({ TOKEN_ENCRYPTION_KEYS: value });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^TOKEN_ENCRYPTION_KEYS entry 1 must be keyId:base64-of-32-bytes/);
    expect(found[0]).not.toContain(value.split(":").pop()!.slice(0, 12));
  });

  it("refuses the same key id twice", () => {
    expect(problems({ TOKEN_ENCRYPTION_KEYS: spec(key("k1"), key("k1")) })).toEqual([
      'TOKEN_ENCRYPTION_KEYS key id "k1" appears twice',
    ]);
  });
});

describe("npm run tokens:reencrypt", () => {
  const copies: string[] = [];
  afterAll(() => {
    for (const file of copies) for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
  });

  /** A copy of this test file's (migrated) database, so the script runs on a file of its own. */
  function copyOfTestDb(): string {
    const file = path.join(path.dirname(process.env.TEST_DB_FILE!), `reencrypt-${randomBytes(4).toString("hex")}.db`);
    copyFileSync(path.join(path.dirname(process.env.TEST_DB_FILE!), "template.db"), file);
    copies.push(file);
    return file;
  }

  function runScript(file: string, keys: string) {
    const tsx = path.resolve("node_modules/tsx/dist/cli.mjs");
    return run(process.execPath, [tsx, "scripts/reencrypt-tokens.ts"], {
      env: {
        ...process.env,
        DATABASE_URL: `file:${file}`,
        TOKEN_ENCRYPTION_KEYS: keys,
        NODE_ENV: "test",
        LOG_LEVEL: "silent",
      },
    }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );
  }

  it("rewrites every stored token under the current key, prints the counts, and changes nothing on a second run", async () => {
    const k0 = key("k0");
    const k1 = key("k1");
    const oldCrypto = createTokenCrypto([k0]);
    const file = copyOfTestDb();
    const shop = uniqueShop();
    const legacyShop = uniqueShop();
    const sealedSession = offlineSessionRow(shop);
    const plainSession = { ...offlineSessionRow(legacyShop), id: `offline_${legacyShop}` };

    const db = createDb(`file:${file}`);
    try {
      await db.session.create({
        data: {
          ...sealedSession,
          accessToken: oldCrypto.encrypt(sealedSession.accessToken),
          refreshToken: oldCrypto.encrypt(sealedSession.refreshToken),
        },
      });
      // Written before encryption existed: plaintext.
      await db.session.create({ data: plainSession });
      const user = await db.user.create({
        data: {
          email: `reencrypt-${randomBytes(3).toString("hex")}@example.com`,
          shopifyStoreName: "legacy.myshopify.com",
          legacyEncryptedShopifyToken: oldCrypto.encrypt("shpat_legacy_token"),
        },
      });
      await db.shopifyStore.create({
        data: {
          userId: user.id,
          shop,
          store_name: shop,
          shopify_admin_url: "https://admin.shopify.com/store/x",
          encrypted_app_token: oldCrypto.encrypt(sealedSession.accessToken),
        },
      });
    } finally {
      await db.$disconnect();
    }

    const first = await runScript(file, spec(k1, k0));
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('under key "k1"');
    expect(first.stdout).toContain(
      "Session.accessToken: 1 re-encrypted, 1 plaintext encrypted, 0 already current, 0 unreadable",
    );
    expect(first.stdout).toContain(
      "Session.refreshToken: 1 re-encrypted, 1 plaintext encrypted, 0 already current, 0 unreadable",
    );
    expect(first.stdout).toContain(
      "ShopifyStore.encrypted_app_token: 1 re-encrypted, 0 plaintext encrypted, 0 already current, 0 unreadable",
    );
    expect(first.stdout).toContain(
      "User.legacyEncryptedShopifyToken: 1 re-encrypted, 0 plaintext encrypted, 0 already current, 0 unreadable",
    );
    expect(first.stdout).toContain("total: 4 re-encrypted, 2 plaintext encrypted, 0 already current, 0 unreadable");

    // Everything now opens with the new key alone.
    const onlyNew = createTokenCrypto([k1]);
    const check = createDb(`file:${file}`);
    try {
      const sessions = await check.session.findMany({ select: { id: true, accessToken: true, refreshToken: true } });
      const byId = Object.fromEntries(sessions.map((s) => [s.id, s]));
      expect(onlyNew.decrypt(byId[sealedSession.id].accessToken)).toBe(sealedSession.accessToken);
      expect(onlyNew.decrypt(byId[sealedSession.id].refreshToken!)).toBe(sealedSession.refreshToken);
      expect(onlyNew.decrypt(byId[plainSession.id].accessToken)).toBe(plainSession.accessToken);
      expect(onlyNew.decrypt(byId[plainSession.id].refreshToken!)).toBe(plainSession.refreshToken);
      const store = await check.shopifyStore.findUniqueOrThrow({
        where: { shop },
        select: { encrypted_app_token: true },
      });
      expect(onlyNew.decrypt(store.encrypted_app_token!)).toBe(sealedSession.accessToken);
      const legacy = await check.user.findFirstOrThrow({
        where: { legacyEncryptedShopifyToken: { not: null } },
        select: { legacyEncryptedShopifyToken: true },
      });
      expect(onlyNew.decrypt(legacy.legacyEncryptedShopifyToken!)).toBe("shpat_legacy_token");
    } finally {
      await check.$disconnect();
    }

    const second = await runScript(file, spec(k1));
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("total: 0 re-encrypted, 0 plaintext encrypted, 6 already current, 0 unreadable");
  });

  it("reports values sealed with a key it no longer has, leaves them as they are, and exits 1", async () => {
    const lost = key("lost");
    const file = copyOfTestDb();
    const shop = uniqueShop();
    const row = offlineSessionRow(shop);
    const sealed = createTokenCrypto([lost]).encrypt(row.accessToken);
    const db = createDb(`file:${file}`);
    try {
      await db.session.create({ data: { ...row, accessToken: sealed, refreshToken: null } });
    } finally {
      await db.$disconnect();
    }

    const result = await runScript(file, spec(key("k1")));

    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      "Session.accessToken: 0 re-encrypted, 0 plaintext encrypted, 0 already current, 1 unreadable",
    );
    expect(result.stderr).toMatch(/1 value\(s\) could not be decrypted/);
    const check = createDb(`file:${file}`);
    try {
      expect((await check.session.findUniqueOrThrow({ where: { id: row.id } })).accessToken).toBe(sealed);
    } finally {
      await check.$disconnect();
    }
  });
});
