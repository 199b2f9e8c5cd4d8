// `npm run tokens:reencrypt`: rewrites every stored token under the current key (the first of
// TOKEN_ENCRYPTION_KEYS), so an old key can then be removed (docs/decisions/014). Covers Shopify's
// Session table (accessToken, refreshToken), ShopifyStore.encrypted_app_token and
// User.legacyEncryptedShopifyToken; plaintext left from before encryption is sealed too. Runs against
// DATABASE_URL with the same environment as the server. Each value is replaced only if it did not
// change meanwhile, so it is safe while the server runs. Exit code 1 if any value could not be read.
import { db, dbReady } from "~/db.server";
import { getTokenCrypto, isSealed, TokenDecryptError, type TokenCrypto } from "~/integrations/token-crypto.server";

interface Counts {
  reencrypted: number;
  sealedPlaintext: number;
  alreadyCurrent: number;
  unreadable: number;
}

const PAGE = 500;

function emptyCounts(): Counts {
  return { reencrypted: 0, sealedPlaintext: 0, alreadyCurrent: 0, unreadable: 0 };
}

/** The value under the current key, or null when it already is (or cannot be read; counted). */
function rewrite(crypto: TokenCrypto, value: string | null, counts: Counts): string | null {
  if (!value) return null;
  if (crypto.isCurrent(value)) {
    counts.alreadyCurrent++;
    return null;
  }
  if (!isSealed(value)) {
    counts.sealedPlaintext++;
    return crypto.encrypt(value);
  }
  try {
    const plain = crypto.decrypt(value);
    counts.reencrypted++;
    return crypto.encrypt(plain);
  } catch (error) {
    if (!(error instanceof TokenDecryptError)) throw error;
    counts.unreadable++;
    return null;
  }
}

async function sessions(crypto: TokenCrypto, access: Counts, refresh: Counts) {
  let cursor: string | undefined;
  for (;;) {
    const rows = await db.session.findMany({
      take: PAGE,
      ...(cursor ? { skip: 1, cursor: { id: cursor } } : {}),
      orderBy: { id: "asc" },
      select: { id: true, accessToken: true, refreshToken: true },
    });
    if (rows.length === 0) return;
    for (const row of rows) {
      const accessToken = rewrite(crypto, row.accessToken, access);
      if (accessToken) {
        await db.session.updateMany({ where: { id: row.id, accessToken: row.accessToken }, data: { accessToken } });
      }
      const refreshToken = rewrite(crypto, row.refreshToken, refresh);
      if (refreshToken) {
        await db.session.updateMany({ where: { id: row.id, refreshToken: row.refreshToken }, data: { refreshToken } });
      }
    }
    cursor = rows[rows.length - 1].id;
  }
}

async function stores(crypto: TokenCrypto, counts: Counts) {
  let cursor: number | undefined;
  for (;;) {
    const rows = await db.shopifyStore.findMany({
      where: { encrypted_app_token: { not: null } },
      take: PAGE,
      ...(cursor ? { skip: 1, cursor: { id: cursor } } : {}),
      orderBy: { id: "asc" },
      select: { id: true, encrypted_app_token: true },
    });
    if (rows.length === 0) return;
    for (const row of rows) {
      const next = rewrite(crypto, row.encrypted_app_token, counts);
      if (next) {
        await db.shopifyStore.updateMany({
          where: { id: row.id, encrypted_app_token: row.encrypted_app_token },
          data: { encrypted_app_token: next },
        });
      }
    }
    cursor = rows[rows.length - 1].id;
  }
}

async function legacyUsers(crypto: TokenCrypto, counts: Counts) {
  let cursor: string | undefined;
  for (;;) {
    const rows = await db.user.findMany({
      where: { legacyEncryptedShopifyToken: { not: null } },
      take: PAGE,
      ...(cursor ? { skip: 1, cursor: { id: cursor } } : {}),
      orderBy: { id: "asc" },
      select: { id: true, legacyEncryptedShopifyToken: true },
    });
    if (rows.length === 0) return;
    for (const row of rows) {
      const next = rewrite(crypto, row.legacyEncryptedShopifyToken, counts);
      if (next) {
        await db.user.updateMany({
          where: { id: row.id, legacyEncryptedShopifyToken: row.legacyEncryptedShopifyToken },
          data: { legacyEncryptedShopifyToken: next },
        });
      }
    }
    cursor = rows[rows.length - 1].id;
  }
}

function line(name: string, c: Counts): string {
  return `${name}: ${c.reencrypted} re-encrypted, ${c.sealedPlaintext} plaintext encrypted, ${c.alreadyCurrent} already current, ${c.unreadable} unreadable`;
}

async function main(): Promise<number> {
  await dbReady;
  const crypto = getTokenCrypto();
  const table = {
    "Session.accessToken": emptyCounts(),
    "Session.refreshToken": emptyCounts(),
    "ShopifyStore.encrypted_app_token": emptyCounts(),
    "User.legacyEncryptedShopifyToken": emptyCounts(),
  };
  console.log(`Re-encrypting stored tokens under key "${crypto.currentKeyId}"`);
  await sessions(crypto, table["Session.accessToken"], table["Session.refreshToken"]);
  await stores(crypto, table["ShopifyStore.encrypted_app_token"]);
  await legacyUsers(crypto, table["User.legacyEncryptedShopifyToken"]);
  const total = emptyCounts();
  for (const [name, counts] of Object.entries(table)) {
    console.log(line(name, counts));
    for (const key of Object.keys(total) as (keyof Counts)[]) total[key] += counts[key];
  }
  console.log(line("total", total));
  if (total.unreadable > 0) {
    console.error(
      `${total.unreadable} value(s) could not be decrypted with any key of TOKEN_ENCRYPTION_KEYS: they were left as they are. Add the key they were sealed with (see their key id) and run again.`,
    );
    return 1;
  }
  return 0;
}

main()
  .then((code) => {
    process.exitCode = code;
  })
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  })
  .finally(() => db.$disconnect());
