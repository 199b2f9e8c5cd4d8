// Where stores come from besides follows and the operator's list (decision 101): public sources name candidate
// Shopify stores, each one is verified politely, and the verified ones join the operator's list as "discovered",
// at most the operator's budget a run. This file holds the port a source implements and the pure readers of each
// source's documented answer shape; the adapters (app/integrations/store-sources.server.ts) fetch, and
// app/services/crawl/discovery.server.ts verifies and adds. Nothing a source sends crashes a run: a line or an
// answer we cannot use is a skip with its reason.
import { normaliseStoreDomain } from "~/domain/crawl/store-url";
import { AppError } from "~/domain/errors";

export const DISCOVERY_RULES = {
  /** Probes a run may spend per store it may add (some candidates are closed, gone or not Shopify). */
  verifyPerAdd: 3,
  /** Candidates asked of each source per store the run may add. */
  candidatesPerAdd: 10,
  /** Largest budget one run accepts. */
  maxBudget: 5_000,
} as const;

/** A budget from the operator (CLI, page): a whole number 0..maxBudget, or a 400 with a sentence. */
export function parseBudget(value: unknown): number {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || n > DISCOVERY_RULES.maxBudget) {
    throw new AppError(400, `The budget is how many stores one run may add: a whole number from 0 to ${DISCOVERY_RULES.maxBudget.toLocaleString("en-US")}.`);
  }
  return n;
}

/** A candidate a source named, or why a piece of its answer was not one. */
export interface SourceSkip {
  /** What was skipped: a host, a line's start, or the source's name for a whole answer. */
  what: string;
  reason: string;
}

export interface SourceAnswer {
  /** Candidate hosts, normalised, each once, in the source's order. */
  hosts: string[];
  skipped: SourceSkip[];
}

/** The port: one public source of candidate stores. */
export interface StoreSource {
  /** Short name shown to the operator ("common-crawl", "certificate-transparency"). */
  readonly name: string;
  /** Up to `limit` candidate hosts; never throws for what the source sent (an unusable answer is one skip). */
  candidates(limit: number): Promise<SourceAnswer>;
}

const MYSHOPIFY = /^[a-z0-9][a-z0-9-]{0,62}\.myshopify\.com$/;
/** Shopify's own hosts under myshopify.com that are not a store. */
const NOT_A_STORE = new Set(["www", "cdn", "checkout", "admin", "accounts", "partners", "help", "shop", "apps"]);

/** A myshopify.com store host from a name, or why it is not one (wildcards, deeper names, Shopify's own hosts). */
export function myshopifyHost(name: string): { ok: true; host: string } | { ok: false; reason: string } {
  const text = name.trim().toLowerCase().replace(/\.$/, "");
  if (text.startsWith("*.")) return { ok: false, reason: "a wildcard name, not one store" };
  if (!MYSHOPIFY.test(text)) return { ok: false, reason: "not a store's *.myshopify.com address" };
  if (NOT_A_STORE.has(text.split(".")[0])) return { ok: false, reason: "one of Shopify's own hosts, not a store" };
  return { ok: true, host: text };
}

/** Collects hosts in order, each once, up to `limit`. */
function collector(limit: number) {
  const seen = new Set<string>();
  const answer: SourceAnswer = { hosts: [], skipped: [] };
  return {
    answer,
    full: () => answer.hosts.length >= limit,
    add(host: string) {
      if (seen.has(host)) return;
      seen.add(host);
      if (answer.hosts.length < limit) answer.hosts.push(host);
    },
    skip(what: string, reason: string) {
      // The operator sees reasons, not ten thousand of them.
      if (answer.skipped.length < 200) answer.skipped.push({ what: what.slice(0, 120), reason });
    },
  };
}

/** Whether a captured URL marks its host as a Shopify store: a *.myshopify.com page, or a store's /products.json. */
function hostOfCapture(url: string): { ok: true; host: string } | { ok: false; reason: string } {
  if (!URL.canParse(url)) return { ok: false, reason: "its url is not a URL" };
  const u = new URL(url);
  const onMyshopify = myshopifyHost(u.hostname);
  if (onMyshopify.ok) return onMyshopify;
  if (u.pathname.replace(/\/+$/, "") === "/products.json" || u.pathname.startsWith("/cdn/shop/")) {
    const r = normaliseStoreDomain(u.hostname);
    return r.ok ? { ok: true, host: r.domain } : { ok: false, reason: r.error };
  }
  return { ok: false, reason: "neither a *.myshopify.com page nor a store's /products.json" };
}

/**
 * The Common Crawl URL index's answer to `output=json` (a pywb CDX server): one JSON object a line, with urlkey,
 * timestamp, url, mime, status, digest, length, offset and filename. A capture names its host when it is a
 * *.myshopify.com page or a /products.json (or a theme's /cdn/shop/ asset) on any host, and it answered 200.
 */
export function readCdxLines(text: string, limit: number): SourceAnswer {
  const c = collector(limit);
  for (const raw of text.split("\n")) {
    if (c.full()) break;
    const line = raw.trim();
    if (line === "") continue;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      c.skip(line, "a line that is not JSON");
      continue;
    }
    if (typeof row !== "object" || row === null || Array.isArray(row) || typeof (row as { url?: unknown }).url !== "string") {
      c.skip(line, "a line without a url");
      continue;
    }
    const { url, status } = row as { url: string; status?: unknown };
    if (status !== undefined && String(status) !== "200") {
      c.skip(url, `a capture that answered ${String(status).slice(0, 5)}, not 200`);
      continue;
    }
    const host = hostOfCapture(url);
    if (host.ok) c.add(host.host);
    else c.skip(url, host.reason);
  }
  return c.answer;
}

/**
 * crt.sh's answer to `output=json`: an array of certificates with issuer_ca_id, issuer_name, common_name,
 * name_value (the certificate's names, one a line), id, entry_timestamp, not_before, not_after and serial_number.
 * Every *.myshopify.com store name in common_name or name_value is a candidate; wildcards are not one store.
 */
export function readCrtShJson(value: unknown, limit: number): SourceAnswer {
  const c = collector(limit);
  if (!Array.isArray(value)) {
    c.skip("answer", "not a JSON array of certificates");
    return c.answer;
  }
  for (const cert of value) {
    if (c.full()) break;
    if (typeof cert !== "object" || cert === null) {
      c.skip(String(cert), "an entry that is not a certificate");
      continue;
    }
    const { common_name, name_value } = cert as { common_name?: unknown; name_value?: unknown };
    const names = [common_name, ...(typeof name_value === "string" ? name_value.split("\n") : [])].filter((n): n is string => typeof n === "string" && n.trim() !== "");
    if (names.length === 0) c.skip(String((cert as { id?: unknown }).id ?? "certificate"), "a certificate without names");
    for (const name of names) {
      const host = myshopifyHost(name);
      if (host.ok) c.add(host.host);
      else c.skip(name, host.reason);
    }
  }
  return c.answer;
}

/**
 * The Common Crawl index's list of collections (collinfo.json: id, name, timegate, cdx-api), newest first: the
 * newest collection's CDX endpoint, or null when the answer has none.
 */
export function newestCdxApi(value: unknown): string | null {
  if (!Array.isArray(value)) return null;
  for (const entry of value) {
    const api = typeof entry === "object" && entry !== null ? (entry as Record<string, unknown>)["cdx-api"] : undefined;
    if (typeof api === "string" && URL.canParse(api)) return api;
  }
  return null;
}
