// What a seller types to follow a rival store ("https://store.com/products/x", "www.store.com/collections/y?z",
// "Store.COM.", "xyz.myshopify.com", an IDN) becomes one bare lowercase host ("store.com", "xn--bcher-kva.de"),
// with a port only when one was typed (local development and tests). Anything that cannot be a public store's
// address is refused here with a sentence, before the SSRF-safe fetcher (app/integrations/safe-fetch.server.ts)
// makes its own checks on the addresses the host resolves to. Parsing is the WHATWG URL parser (a global, so
// this stays pure): it lowercases, turns IDNs into punycode and canonicalises odd IPv4 forms ("0x7f.1").
import { z } from "zod";

export const STORE_INPUT_MAX_LENGTH = 2000;
/** RFC 1035: a host name is at most 253 characters, each label at most 63. */
export const STORE_HOST_MAX_LENGTH = 253;

export type StoreDomainResult = { ok: true; domain: string } | { ok: false; error: string };

const EXAMPLE = "for example rivalstore.com or rivalstore.myshopify.com";

export const STORE_URL_ERRORS = {
  empty: `Enter the address of the store you want to follow, ${EXAMPLE}.`,
  tooLong: "That address is too long to be a store's web address.",
  notUrl: `That does not look like a store's web address: enter its domain, ${EXAMPLE}.`,
  scheme: "Only web addresses (http:// or https://) can be followed.",
  pathOnly: `That is only a page path: enter the store's domain, ${EXAMPLE}.`,
  userinfo: "Web addresses with a user name or password in them cannot be followed: enter the store's domain alone.",
  ipAddress: `Enter the store's domain name, not an IP address, ${EXAMPLE}.`,
  localhost: "That address points to this computer, not to a public store.",
  singleLabel: `That address has no ending such as .com: enter the store's full domain, ${EXAMPLE}.`,
} as const;

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

function refuse(error: string): StoreDomainResult {
  return { ok: false, error };
}

/** Normalise what a seller typed to a bare lowercase host (with ":port" only when typed), or say why not. */
export function normaliseStoreDomain(input: string): StoreDomainResult {
  if (typeof input !== "string") return refuse(STORE_URL_ERRORS.empty);
  const text = input.trim();
  if (text === "") return refuse(STORE_URL_ERRORS.empty);
  if (text.length > STORE_INPUT_MAX_LENGTH) return refuse(STORE_URL_ERRORS.tooLong);
  if (/\s/.test(text)) return refuse(STORE_URL_ERRORS.notUrl);
  if (text.startsWith("/") && !text.startsWith("//")) return refuse(STORE_URL_ERRORS.pathOnly);
  if (text.startsWith("\\") || text.startsWith("?") || text.startsWith("#")) return refuse(STORE_URL_ERRORS.pathOnly);

  // "user:pass@store.com" would otherwise read as a scheme named "user".
  const authority = text.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "").replace(/^\/\//, "").split(/[/?#\\]/)[0];
  if (authority.includes("@")) return refuse(STORE_URL_ERRORS.userinfo);

  let candidate: string;
  if (text.startsWith("//")) {
    candidate = `https:${text}`;
  } else {
    const scheme = SCHEME.exec(text);
    // "store.com:8080" also matches the scheme pattern; a scheme is followed by something other than a port.
    const isPort = scheme !== null && /^\d+(?:[/?#]|$)/.test(text.slice(scheme[0].length));
    if (scheme && !isPort) {
      const name = scheme[1].toLowerCase();
      if (name !== "http" && name !== "https") return refuse(STORE_URL_ERRORS.scheme);
      if (!/^https?:\/\//i.test(text)) return refuse(STORE_URL_ERRORS.notUrl);
      candidate = text;
    } else {
      candidate = `https://${text}`;
    }
  }

  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return refuse(STORE_URL_ERRORS.notUrl);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return refuse(STORE_URL_ERRORS.scheme);
  if (url.username !== "" || url.password !== "") return refuse(STORE_URL_ERRORS.userinfo);

  let host = url.hostname;
  if (host === "") return refuse(STORE_URL_ERRORS.notUrl);
  if (host.startsWith("[") || IPV4.test(host)) return refuse(STORE_URL_ERRORS.ipAddress);
  host = host.replace(/\.$/, "");
  if (host.length > STORE_HOST_MAX_LENGTH) return refuse(STORE_URL_ERRORS.tooLong);
  if (host === "localhost" || host.endsWith(".localhost")) return refuse(STORE_URL_ERRORS.localhost);

  const labels = host.split(".");
  if (labels.some((label) => !LABEL.test(label))) return refuse(STORE_URL_ERRORS.notUrl);
  if (labels.length < 2) return refuse(STORE_URL_ERRORS.singleLabel);
  // A top-level domain is never all digits (the URL parser reads such hosts as IPv4 or refuses them).
  if (/^\d+$/.test(labels[labels.length - 1])) return refuse(STORE_URL_ERRORS.notUrl);

  return { ok: true, domain: url.port ? `${host}:${url.port}` : host };
}

/** For forms and JSON bodies: a store address, normalised, or a zod issue carrying the sentence. */
export const StoreDomainSchema = z.string().transform((value, ctx) => {
  const result = normaliseStoreDomain(value);
  if (!result.ok) {
    ctx.addIssue({ code: "custom", message: result.error });
    return z.NEVER;
  }
  return result.domain;
});
