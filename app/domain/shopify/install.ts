// Installing the app on a Shopify store from the site (docs/decisions/029): what a seller types as their
// store's address ("mystore", "MyStore.myshopify.com", "https://mystore.myshopify.com/admin",
// "admin.shopify.com/store/mystore") becomes one myshopify.com domain, or a sentence saying what to type
// instead; and the URL that installs our app on it. That URL is the one @shopify/shopify-app-remix's
// login() sends a shop to with the embedded auth strategy we use (unstable_newEmbeddedAuthStrategy):
// Shopify admin's install page for our client id, which then opens the app inside the store's admin.
// Also the one check that a value already is a shop's myshopify.com domain (an API body's `shop`).
// Pure: no I/O, no environment.
import { z } from "zod";

export type ShopDomainResult = { ok: true; shop: string } | { ok: false; error: string };

/** Longest input we look at; a shop domain is far shorter. */
export const SHOP_INPUT_MAX_LENGTH = 255;

/** Shopify's store handles: letters, digits and hyphens, starting with a letter or digit. */
const HANDLE = /^[a-z0-9][a-z0-9-]{0,59}$/;

export const SHOP_DOMAIN_ERRORS = {
  empty: "Enter your store's address, for example mystore.myshopify.com.",
  tooLong: "That is too long to be a store's address. Enter it like mystore.myshopify.com.",
  invalid:
    "That does not look like a Shopify store's address. Enter it like mystore.myshopify.com (letters, digits and hyphens before .myshopify.com).",
  otherDomain:
    "Enter your store's myshopify.com address, not its public domain. You find it in Shopify admin under Settings > Domains, for example mystore.myshopify.com.",
} as const;

/** A shop's myshopify.com domain as Shopify writes it: "handle.myshopify.com", lower case. */
const MYSHOPIFY_DOMAIN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;

/** Whether `value` already is a shop's myshopify.com domain (lower case, nothing around it). */
export function isMyshopifyDomain(value: string): boolean {
  return MYSHOPIFY_DOMAIN.test(value);
}

/** A request field naming one of the user's shops: trimmed, lower-cased, then a myshopify.com domain. */
export const MyshopifyDomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(MYSHOPIFY_DOMAIN, "must be a myshopify.com domain");

function refuse(error: string): ShopDomainResult {
  return { ok: false, error };
}

/**
 * Normalises what a seller typed to "handle.myshopify.com" (lowercase), or says why it cannot be a
 * Shopify store's address. A bare handle gets .myshopify.com; a URL of the store or of its admin
 * (admin.shopify.com/store/handle) is read for its handle. Anything else (another domain, an IP,
 * spaces, a user name in the URL) is refused.
 */
export function normaliseShopDomain(input: unknown): ShopDomainResult {
  if (typeof input !== "string") return refuse(SHOP_DOMAIN_ERRORS.empty);
  let text = input.trim().toLowerCase();
  if (text === "") return refuse(SHOP_DOMAIN_ERRORS.empty);
  if (text.length > SHOP_INPUT_MAX_LENGTH) return refuse(SHOP_DOMAIN_ERRORS.tooLong);
  if (/\s/.test(text)) return refuse(SHOP_DOMAIN_ERRORS.invalid);
  text = text.replace(/^https?:\/\//, "");
  // Only a host, optionally followed by a path: never a user name, a port or another scheme.
  const m = /^([^/?#]+)([/?#].*)?$/.exec(text);
  if (!m) return refuse(SHOP_DOMAIN_ERRORS.invalid);
  const host = m[1].replace(/\.$/, "");
  const path = m[2] ?? "";
  if (/[@:\\]/.test(host)) return refuse(SHOP_DOMAIN_ERRORS.invalid);

  let handle: string | null = null;
  if (host === "admin.shopify.com") {
    handle = /^\/store\/([^/?#]+)/.exec(path)?.[1] ?? null;
    if (handle === null) return refuse(SHOP_DOMAIN_ERRORS.invalid);
  } else if (host.endsWith(".myshopify.com")) {
    handle = host.slice(0, -".myshopify.com".length);
  } else if (!host.includes(".")) {
    handle = host;
  } else {
    return refuse(/^\d+(\.\d+){3}$/.test(host) ? SHOP_DOMAIN_ERRORS.invalid : SHOP_DOMAIN_ERRORS.otherDomain);
  }
  if (!HANDLE.test(handle) || handle.endsWith("-")) return refuse(SHOP_DOMAIN_ERRORS.invalid);
  return { ok: true, shop: `${handle}.myshopify.com` };
}

/**
 * Where a store installs our app: Shopify admin's install page for our client id. The same URL the
 * library's login() redirects to (admin.shopify.com/store/{handle}/oauth/install?client_id=...), so the
 * site and /auth/login send a seller to one place. `shop` must come from normaliseShopDomain.
 */
export function shopifyInstallUrl(shop: string, clientId: string): string {
  const handle = shop.replace(/\.myshopify\.com$/, "");
  return `https://admin.shopify.com/store/${encodeURIComponent(handle)}/oauth/install?client_id=${encodeURIComponent(clientId)}`;
}
