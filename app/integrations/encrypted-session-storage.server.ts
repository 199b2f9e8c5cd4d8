// Shopify's session storage with the tokens encrypted at rest. It wraps PrismaSessionStorage (or any
// SessionStorage): Session.accessToken and Session.refreshToken are sealed by token-crypto before a
// row is written and opened after it is read, so the Session table never holds a usable token
// (docs/decisions/014). Everything else (ids, shop, scopes, expiry) is stored as the library wants it.
import { Session } from "@shopify/shopify-app-remix/server";
import type { SessionStorage } from "@shopify/shopify-app-session-storage";
import { childLogger } from "~/logger.server";
import { isSealed, TokenDecryptError, type TokenCrypto } from "~/integrations/token-crypto.server";

const log = childLogger("session-storage");

export class EncryptedSessionStorage implements SessionStorage {
  constructor(
    private readonly inner: SessionStorage,
    private readonly crypto: TokenCrypto,
  ) {}

  async storeSession(session: Session): Promise<boolean> {
    return this.inner.storeSession(this.seal(session));
  }

  async loadSession(id: string): Promise<Session | undefined> {
    const stored = await this.inner.loadSession(id);
    return stored ? this.open(stored) : undefined;
  }

  async deleteSession(id: string): Promise<boolean> {
    return this.inner.deleteSession(id);
  }

  async deleteSessions(ids: string[]): Promise<boolean> {
    return this.inner.deleteSessions(ids);
  }

  async findSessionsByShop(shop: string): Promise<Session[]> {
    const sessions = await this.inner.findSessionsByShop(shop);
    return sessions.map((s) => this.open(s)).filter((s): s is Session => s !== undefined);
  }

  /** A copy of the session with its tokens sealed; the library keeps using its own (plain) object. */
  private seal(session: Session): Session {
    const params = session.toObject();
    return new Session({
      ...params,
      accessToken: params.accessToken ? this.crypto.encrypt(params.accessToken) : params.accessToken,
      refreshToken: params.refreshToken ? this.crypto.encrypt(params.refreshToken) : params.refreshToken,
    });
  }

  /**
   * A copy with its tokens opened. A row written before encryption existed holds plaintext and is
   * read as it is (`npm run tokens:reencrypt` seals it). A row that cannot be opened (its key was
   * removed, or it was altered) is treated as absent: the library then exchanges a fresh session
   * token for a new offline token, which is stored sealed with the current key.
   */
  private open(session: Session): Session | undefined {
    try {
      const params = session.toObject();
      return new Session({
        ...params,
        accessToken: params.accessToken ? this.openToken(params.accessToken) : params.accessToken,
        refreshToken: params.refreshToken ? this.openToken(params.refreshToken) : params.refreshToken,
      });
    } catch (error) {
      if (!(error instanceof TokenDecryptError)) throw error;
      log.warn(
        { sessionId: session.id, shop: session.shop, reason: error.message },
        "stored session unreadable; ignored",
      );
      return undefined;
    }
  }

  private openToken(value: string): string {
    return isSealed(value) ? this.crypto.decrypt(value) : value;
  }
}
