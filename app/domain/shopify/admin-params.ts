// What Shopify admin adds to the URL when it opens a page of the embedded app: the shop, the admin
// host, the session token and a few more. They are for Shopify's library to read, never part of a
// page's own query (a search, a saved search), and are left out of the links a page builds.
export const SHOPIFY_ADMIN_PARAMS = ["embedded", "hmac", "host", "id_token", "locale", "session", "shop", "timestamp"] as const;

export function withoutShopifyAdminParams(params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of SHOPIFY_ADMIN_PARAMS) next.delete(key);
  return next;
}
