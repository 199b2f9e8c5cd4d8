// Stands in for Shopify's OAuth token endpoint (https://<shop>/admin/oauth/access_token) at the
// fetch level, the way MSW would, and refuses every other outside request so no test reaches the
// internet. It must be installed before @shopify/shopify-api is imported, because the library keeps
// the fetch it finds at import time:
//
//   const oauth = await vi.hoisted(async () => (await import("../helpers/fake-shopify-oauth")).installFakeShopifyOAuth());
import { TEST_SCOPES } from "./shopify";

export interface TokenRequest {
  shop: string;
  body: Record<string, string>;
}

type Answer = (request: TokenRequest) => Response | Promise<Response>;

/** Shopify's answer to a successful token exchange or refresh for an expiring offline token. */
export function offlineTokenResponse(overrides: Record<string, unknown> = {}): Response {
  return Response.json({
    access_token: `shpat_fake_${Math.random().toString(36).slice(2)}`,
    scope: TEST_SCOPES,
    expires_in: 3600,
    refresh_token: `shprt_fake_${Math.random().toString(36).slice(2)}`,
    refresh_token_expires_in: 90 * 24 * 3600,
    ...overrides,
  });
}

export function installFakeShopifyOAuth() {
  const realFetch = globalThis.fetch;
  const requests: TokenRequest[] = [];
  const answers = new Map<string, Answer>();

  const fakeFetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (["127.0.0.1", "localhost", "::1"].includes(url.hostname)) return realFetch(input, init);
    if (url.pathname === "/admin/oauth/access_token" && request.method === "POST") {
      const tokenRequest = { shop: url.hostname, body: (await request.json()) as Record<string, string> };
      requests.push(tokenRequest);
      const answer = answers.get(url.hostname);
      if (answer) return answer(tokenRequest);
      return Response.json({ errors: "unknown shop in this test" }, { status: 404 });
    }
    throw new TypeError(`Outside request refused in tests: ${request.method} ${request.url}`);
  };
  globalThis.fetch = fakeFetch;

  return {
    /** Every request made to a token endpoint, oldest first. */
    requests,
    /** How the token endpoint of `shop` answers from now on. */
    answer(shop: string, answer: Answer) {
      answers.set(shop, answer);
    },
    reset() {
      requests.length = 0;
      answers.clear();
    },
  };
}
