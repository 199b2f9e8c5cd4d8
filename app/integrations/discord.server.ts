// Discord OAuth2 (authorization code grant, scope "identify"): the link that asks the user to allow
// us, the code exchange at the token endpoint, and the user behind the token (/users/@me).
// https://discord.com/developers/docs/topics/oauth2. Only used when DISCORD_CLIENT_ID and
// DISCORD_CLIENT_SECRET are set; without them the community is the invite link alone.
// baseUrl points tests at a local server that speaks the same shapes.

export const DISCORD_BASE_URL = "https://discord.com";
const API_VERSION = "v10";

export interface DiscordOAuthConfig {
  clientId: string;
  clientSecret: string;
  /** Our callback, exactly as registered in the Discord application's OAuth2 redirects. */
  redirectUri: string;
  baseUrl?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export interface DiscordUser {
  id: string;
  /** The unique handle (e.g. "seller_jane"); legacy accounts may also have a discriminator. */
  username: string;
  globalName: string | null;
  discriminator: string | null;
}

export class DiscordError extends Error {
  constructor(
    message: string,
    public readonly status: number | null = null,
  ) {
    super(message);
    this.name = "DiscordError";
  }
}

export interface DiscordOAuth {
  authorizeUrl(state: string): string;
  exchangeCode(code: string): Promise<{ accessToken: string; tokenType: string; scope: string }>;
  fetchUser(accessToken: string): Promise<DiscordUser>;
}

export function createDiscordOAuth(config: DiscordOAuthConfig): DiscordOAuth {
  const base = (config.baseUrl ?? DISCORD_BASE_URL).replace(/\/+$/, "");
  const doFetch = config.fetch ?? fetch;
  const timeoutMs = config.timeoutMs ?? 10_000;

  async function request(url: string, init: RequestInit, what: string): Promise<unknown> {
    let res: Response;
    try {
      res = await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new DiscordError(`Discord did not answer the ${what} request (${(error as Error).message}).`);
    }
    const text = await res.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      throw new DiscordError(`Discord answered the ${what} request with something that is not JSON.`, res.status);
    }
    if (!res.ok) {
      const b = body as { error?: string; error_description?: string; message?: string } | null;
      const reason = b?.error_description ?? b?.message ?? b?.error ?? `HTTP ${res.status}`;
      throw new DiscordError(`Discord refused the ${what} request: ${reason}`, res.status);
    }
    return body;
  }

  return {
    authorizeUrl(state) {
      const url = new URL(`${base}/oauth2/authorize`);
      url.searchParams.set("response_type", "code");
      url.searchParams.set("client_id", config.clientId);
      url.searchParams.set("scope", "identify");
      url.searchParams.set("redirect_uri", config.redirectUri);
      url.searchParams.set("state", state);
      url.searchParams.set("prompt", "consent");
      return url.toString();
    },

    async exchangeCode(code) {
      const body = (await request(
        `${base}/api/${API_VERSION}/oauth2/token`,
        {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            accept: "application/json",
            // Client credentials by HTTP Basic, as Discord's documentation shows.
            authorization: `Basic ${Buffer.from(`${config.clientId}:${config.clientSecret}`).toString("base64")}`,
          },
          body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: config.redirectUri }),
        },
        "token",
      )) as { access_token?: unknown; token_type?: unknown; scope?: unknown } | null;
      if (typeof body?.access_token !== "string" || body.access_token === "") {
        throw new DiscordError("Discord's token answer has no access_token.");
      }
      return {
        accessToken: body.access_token,
        tokenType: typeof body.token_type === "string" ? body.token_type : "Bearer",
        scope: typeof body.scope === "string" ? body.scope : "",
      };
    },

    async fetchUser(accessToken) {
      const body = (await request(
        `${base}/api/${API_VERSION}/users/@me`,
        { method: "GET", headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" } },
        "user",
      )) as { id?: unknown; username?: unknown; global_name?: unknown; discriminator?: unknown } | null;
      if (typeof body?.id !== "string" || !/^\d{1,25}$/.test(body.id) || typeof body.username !== "string") {
        throw new DiscordError("Discord's user answer has no id or username.");
      }
      return {
        id: body.id,
        username: body.username,
        globalName: typeof body.global_name === "string" ? body.global_name : null,
        discriminator: typeof body.discriminator === "string" && body.discriminator !== "0" ? body.discriminator : null,
      };
    },
  };
}
