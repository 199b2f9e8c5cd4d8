// The key adapter (local keys from the environment today; a KMS could stand behind the same interface).
// Encryption at rest for the access tokens we keep (Shopify offline and refresh tokens, a linked
// store's token, the legacy single-store token): AES-256-GCM, with the id of the key that sealed
// each value stored beside it, so keys can rotate (docs/decisions/014).
//
// Format: "v1:<keyId>:<iv>:<tag>:<ciphertext>" (iv, tag and ciphertext base64url). "v1:<keyId>" is
// also the additional authenticated data, so neither the version nor the key id can be altered.
// The keys come from TOKEN_ENCRYPTION_KEYS (first = current); without it, from a key derived from
// SESSION_SECRET with HKDF (key id "derived"), which production refuses (app/env.server.ts).
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { getEnv, sessionSecret, type Env } from "~/env.server";

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const DERIVED_KEY_ID = "derived";

export interface TokenKey {
  id: string;
  key: Buffer;
}

export class TokenDecryptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TokenDecryptError";
  }
}

export interface TokenCrypto {
  /** The id of the key new values are sealed with. */
  readonly currentKeyId: string;
  encrypt(plaintext: string): string;
  /** Throws TokenDecryptError for a malformed value, an unknown key id, or a value that fails authentication. */
  decrypt(sealed: string): string;
  /** The key id a sealed value names, or null when the value is not in our format (e.g. legacy plaintext). */
  keyIdOf(value: string): string | null;
  /** True when the value is sealed with the current key; false for another key or plaintext. */
  isCurrent(value: string): boolean;
}

/** True when the value has the shape of a sealed token (it may still fail to decrypt). */
export function isSealed(value: string): boolean {
  return value.startsWith(`${VERSION}:`) && value.split(":").length === 5;
}

/** "k1:base64,k0:base64" -> keys, first = current. The format is validated by app/env.server.ts. */
export function parseTokenKeys(spec: string): TokenKey[] {
  return spec
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [id, secret] = entry.split(":");
      const key = Buffer.from(secret ?? "", "base64");
      if (!id || key.length !== 32)
        throw new Error("TOKEN_ENCRYPTION_KEYS: each entry must be keyId:base64-of-32-bytes");
      return { id, key };
    });
}

/** The built-in key: HKDF-SHA256 of SESSION_SECRET, so a machine with no keys configured still encrypts. */
export function deriveTokenKey(secret: string): TokenKey {
  const key = Buffer.from(hkdfSync("sha256", secret, "winning-products", "stored-token-encryption/v1", 32));
  return { id: DERIVED_KEY_ID, key };
}

/**
 * keys[0] seals; every key opens values that name it. The derived key always opens too (never seals
 * when real keys are configured), so values sealed before TOKEN_ENCRYPTION_KEYS was set stay
 * readable until `npm run tokens:reencrypt` moves them to the current key.
 */
export function createTokenCrypto(keys: TokenKey[]): TokenCrypto {
  const current = keys[0];
  if (!current) throw new Error("createTokenCrypto needs at least one key");
  const byId = new Map(keys.map((k) => [k.id, k.key]));

  function keyIdOf(value: string): string | null {
    return isSealed(value) ? value.split(":")[1] : null;
  }

  return {
    currentKeyId: current.id,
    encrypt(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", current.key, iv);
      cipher.setAAD(Buffer.from(`${VERSION}:${current.id}`));
      const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [
        VERSION,
        current.id,
        iv.toString("base64url"),
        tag.toString("base64url"),
        data.toString("base64url"),
      ].join(":");
    },
    decrypt(sealed) {
      if (!isSealed(sealed)) throw new TokenDecryptError("not an encrypted token (expected v1:keyId:iv:tag:data)");
      const [, keyId, ivText, tagText, dataText] = sealed.split(":");
      const key = byId.get(keyId);
      if (!key) throw new TokenDecryptError(`no key "${keyId}" in TOKEN_ENCRYPTION_KEYS to decrypt this token`);
      const iv = Buffer.from(ivText, "base64url");
      const tag = Buffer.from(tagText, "base64url");
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new TokenDecryptError("malformed encrypted token");
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
        decipher.setAAD(Buffer.from(`${VERSION}:${keyId}`));
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(Buffer.from(dataText, "base64url")), decipher.final()]).toString("utf8");
      } catch {
        // GCM authentication failed: the value, its tag or its key id was altered, or the key is wrong.
        throw new TokenDecryptError("encrypted token failed authentication (tampered, or sealed with another key)");
      }
    },
    keyIdOf,
    isCurrent(value) {
      return keyIdOf(value) === current.id;
    },
  };
}

/** The keys the environment configures: TOKEN_ENCRYPTION_KEYS, plus the derived key for reading only. */
export function tokenKeysFromEnv(env: Env): TokenKey[] {
  const derived = deriveTokenKey(sessionSecret(env));
  if (!env.TOKEN_ENCRYPTION_KEYS) return [derived];
  return [...parseTokenKeys(env.TOKEN_ENCRYPTION_KEYS), derived];
}

let shared: TokenCrypto | undefined;

/** The process's token crypto, from app/env.server.ts. */
export function getTokenCrypto(): TokenCrypto {
  return (shared ??= createTokenCrypto(tokenKeysFromEnv(getEnv())));
}
