// Fetches URLs whose host a user typed (rival stores, later TikTok oEmbed) without letting them reach our own
// network: the classic SSRF hole. The check sits in the `lookup` that node:http(s) uses to open the socket, so the
// address we vet is the address we connect to (no gap between a check and the connect for DNS rebinding to use),
// and it runs again on every redirect hop. Refused: every address ipaddr.js does not class as public unicast
// (loopback, private, link-local, multicast, unspecified, CGNAT, reserved, unique-local, ...), IPv6 outside
// 2000::/3, the cloud metadata endpoints, the IPv4-mapped and NAT64 forms of any of those, and the tunnelling
// forms whatever they embed (IPv4-compatible ::a.b.c.d, SIIT, 6to4, Teredo); zone ids and any text that is not a
// plain IP address too. Classifying never throws, and nothing escapes the lookup callback: a throw there would be
// an unhandled rejection outside every request (issue 21). An allow-list of
// "host:port" entries (TRACKER_ALLOW_HOSTS) lets tests and local development reach a server on 127.0.0.1.
// Politeness and robustness: a User-Agent naming us and a contact URL, connect and total timeouts, a response size
// cap counted on the decompressed bytes (reading stops at the cap, so an endless or gzip-bomb body cannot grow
// memory), a redirect limit, only http/https, never a cookie or credentials.
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import zlib from "node:zlib";
import type { Transform } from "node:stream";
import ipaddr from "ipaddr.js";

export type SafeFetchErrorKind =
  | "invalid-url"
  | "refused"
  | "unreachable"
  | "timeout"
  | "too-large"
  | "too-many-redirects"
  | "bad-response";

export class SafeFetchError extends Error {
  constructor(
    readonly kind: SafeFetchErrorKind,
    message: string,
    /** The URL of the hop that failed. */
    readonly url: string,
  ) {
    super(message);
    this.name = "SafeFetchError";
  }
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has; the default is the system resolver (dns.lookup). */
export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

export interface SafeFetcherOptions {
  /** A contact page for site owners who see us in their logs (goes into the User-Agent). */
  contactUrl: string;
  /** Product token in the User-Agent. */
  appName?: string;
  /** "host:port" entries reachable even when private (IP literal, or a host name as typed). Empty by default. */
  allowHosts?: readonly string[];
  /** Tests resolve made-up hosts ("store.test") to 127.0.0.1 here; the address check still applies. */
  lookup?: HostLookup;
  connectTimeoutMs?: number;
  /** For the whole fetch: every redirect hop, headers and body. */
  timeoutMs?: number;
  /** Cap on a response body, counted after decompression. */
  maxBytes?: number;
  maxRedirects?: number;
}

export interface SafeFetchInit {
  headers?: Record<string, string>;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  /** At maxBytes, stop reading and answer with what came so far (`truncated: true`) instead of failing (robots.txt). */
  truncate?: boolean;
}

export interface SafeResponse {
  status: number;
  /** The URL that answered (after redirects). */
  url: string;
  /** Every URL requested, in order, the first being the one asked for. */
  hops: string[];
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  /** True when `truncate` cut the body at maxBytes. */
  truncated?: boolean;
  text(): string;
}

export interface SafeFetcher {
  readonly userAgent: string;
  fetch(url: string, init?: SafeFetchInit): Promise<SafeResponse>;
  /** Closes kept-alive connections. */
  close(): void;
}

export const SAFE_FETCH_DEFAULTS = {
  appName: "WinningProductsStoreTracker",
  connectTimeoutMs: 5_000,
  timeoutMs: 20_000,
  maxBytes: 10 * 1024 * 1024,
  maxRedirects: 5,
} as const;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Headers a caller may not set: we send no cookies or credentials and own the rest. */
const FORBIDDEN_HEADERS = new Set(["cookie", "cookie2", "authorization", "proxy-authorization", "host", "user-agent", "accept-encoding", "connection"]);

/** Cloud metadata endpoints, named so a refusal says what it protected (their ranges are refused anyway). */
const METADATA_ADDRESSES = new Set(["169.254.169.254", "169.254.170.2", "fd00:ec2::254", "100.100.100.200", "192.0.0.192"]);

const NOT_AN_IP = "not an IP address";
const METADATA = "a cloud metadata address";

/** ipaddr.js range names, as the end of "it is …". */
const IPV4_RANGES: Record<string, string> = {
  unspecified: "an unspecified address",
  broadcast: "the broadcast address",
  multicast: "a multicast address",
  linkLocal: "a link-local address",
  loopback: "a loopback address",
  carrierGradeNat: "a carrier-grade NAT (shared) address",
  private: "a private address",
  reserved: "a reserved address",
  as112: "a reserved (AS112) address",
  amt: "a reserved (AMT) address",
};
const IPV6_RANGES: Record<string, string> = {
  linkLocal: "a link-local address",
  multicast: "a multicast address",
  uniqueLocal: "a unique-local (private) address",
  deprecatedSiteLocal: "a site-local address (a deprecated form)",
  discard: "a reserved (discard) address",
  benchmarking: "a reserved (benchmarking) address",
  amt: "a reserved (AMT) address",
  as112v6: "a reserved (AS112) address",
  deprecatedOrchid: "a reserved (ORCHID) address",
  orchid2: "a reserved (ORCHID) address",
  droneRemoteIdProtocolEntityTags: "a reserved (DRIP) address",
  segmentRouting: "a reserved (segment routing) address",
  reserved: "a reserved (documentation or protocol) address",
};

function ipv4Reason(ip: ipaddr.IPv4): string | null {
  if (METADATA_ADDRESSES.has(ip.toString())) return METADATA;
  const range = ip.range();
  return range === "unicast" ? null : (IPV4_RANGES[range] ?? `a special-purpose address (${range})`);
}

/**
 * IPv6 is public only as ordinary global unicast (2000::/3, less its special blocks), as an IPv4-mapped form of a
 * public IPv4 address, or as the well-known NAT64 form of one (64:ff9b::/96). The forms that tunnel to an IPv4
 * address elsewhere (IPv4-compatible, SIIT, 6to4, Teredo, local-use NAT64) are refused whatever they embed.
 */
function ipv6Reason(ip: ipaddr.IPv6): string | null {
  const p = ip.parts;
  const zeros = (from: number, to: number) => p.slice(from, to).every((part) => part === 0);
  const embedded = () => new ipaddr.IPv4([p[6] >> 8, p[6] & 0xff, p[7] >> 8, p[7] & 0xff]);
  if (METADATA_ADDRESSES.has(ip.toRFC5952String())) return METADATA;
  if (zeros(0, 8)) return "an unspecified address";
  if (zeros(0, 7) && p[7] === 1) return "a loopback address";
  if (zeros(0, 5) && p[5] === 0xffff) {
    const inner = ipv4Reason(embedded());
    return inner && `${inner} (${embedded().toString()}) in IPv4-mapped form`;
  }
  if (zeros(0, 6)) return `an IPv4-compatible IPv6 address (::${embedded().toString()}, a deprecated form)`;
  if (zeros(0, 4) && p[4] === 0xffff && p[5] === 0) return "an IPv4-translated (SIIT) address";
  if (p[0] === 0x64 && p[1] === 0xff9b && zeros(2, 6)) {
    const inner = ipv4Reason(embedded());
    return inner && `a NAT64 form of ${inner} (${embedded().toString()})`;
  }
  if (p[0] === 0x64 && p[1] === 0xff9b && p[2] === 1) return "a local-use NAT64 address";
  if (p[0] === 0x2002) return "a 6to4 tunnel address (a deprecated form)";
  if (p[0] === 0x2001 && p[1] === 0) return "a Teredo tunnel address";
  const range = ip.range();
  if (range !== "unicast") return IPV6_RANGES[range] ?? `a special-purpose address (${range})`;
  if ((p[0] & 0xe000) !== 0x2000) return "a reserved address (outside the global unicast block 2000::/3)";
  return null;
}

/** The eight parts of a valid IPv6 text, through the URL parser (the form a redirect's literal takes), or null. */
function parseIPv6(text: string): ipaddr.IPv6 | null {
  let canonical: string;
  try {
    canonical = new URL(`http://[${text}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  return ipaddr.IPv6.isValid(canonical) ? ipaddr.IPv6.parse(canonical) : null;
}

function classify(address: string): string | null {
  const bare = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  // A zone id ("fe80::1%eth0") names one of our own network interfaces: never a public server.
  if (bare.includes("%")) return net.isIPv6(bare) ? "an address tied to one of our network interfaces" : NOT_AN_IP;
  // Only the plain forms the resolver and the URL parser produce: "127.1" or "0x7f.1" are for the URL parser to
  // normalise first, never something to connect to as they are.
  if (net.isIPv4(bare)) return ipv4Reason(ipaddr.IPv4.parse(bare));
  if (!net.isIPv6(bare)) return NOT_AN_IP;
  const ip = parseIPv6(bare);
  return ip ? ipv6Reason(ip) : NOT_AN_IP;
}

/**
 * Why connecting to this IP address is refused (the end of a sentence "it is …"), or null when it is public
 * unicast. Never throws: whatever cannot be read or classified is refused.
 */
export function blockedAddressReason(address: string): string | null {
  if (typeof address !== "string") return NOT_AN_IP;
  try {
    return classify(address);
  } catch {
    return "an address we could not classify";
  }
}

/** "127.0.0.1:4010, [::1]:4011, store.test:8080" → normalised entries; throws on an entry without a port. */
export function parseAllowHosts(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(",")
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean)
    .map((entry) => {
      const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):(\d{1,5})$/.exec(entry);
      if (!match || Number(match[2]) > 65535) {
        throw new Error(`"${entry}" is not a host:port entry (for example 127.0.0.1:4010).`);
      }
      return `${match[1].replace(/^\[|\]$/g, "")}:${Number(match[2])}`;
    });
}

const systemLookup: HostLookup = async (hostname) => {
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

function networkError(error: unknown, url: string): SafeFetchError {
  if (error instanceof SafeFetchError) return error;
  const e = error as NodeJS.ErrnoException;
  const host = safeHost(url);
  switch (e.code) {
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EAI_NONAME":
    case "EAI_NODATA":
      return new SafeFetchError("unreachable", `${host} could not be found (no such domain).`, url);
    case "ECONNREFUSED":
      return new SafeFetchError("unreachable", `${host} refused the connection.`, url);
    case "ETIMEDOUT":
      return new SafeFetchError("timeout", `${host} did not answer in time.`, url);
    default:
      return new SafeFetchError("unreachable", `${host} could not be reached (${e.code ?? e.message}).`, url);
  }
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function flattenHeaders(raw: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

export function createSafeFetcher(options: SafeFetcherOptions): SafeFetcher {
  const allow = new Set(parseAllowHosts((options.allowHosts ?? []).join(",")));
  const lookupHost = options.lookup ?? systemLookup;
  const connectTimeoutMs = options.connectTimeoutMs ?? SAFE_FETCH_DEFAULTS.connectTimeoutMs;
  const defaultTimeoutMs = options.timeoutMs ?? SAFE_FETCH_DEFAULTS.timeoutMs;
  const defaultMaxBytes = options.maxBytes ?? SAFE_FETCH_DEFAULTS.maxBytes;
  const defaultMaxRedirects = options.maxRedirects ?? SAFE_FETCH_DEFAULTS.maxRedirects;
  const userAgent = `${options.appName ?? SAFE_FETCH_DEFAULTS.appName}/1.0 (+${options.contactUrl})`;
  const agents = {
    "http:": new http.Agent({ keepAlive: true, maxSockets: 4 }),
    "https:": new https.Agent({ keepAlive: true, maxSockets: 4 }),
  };

  const isAllowed = (host: string, port: number) => allow.has(`${host.toLowerCase()}:${port}`);

  function refusal(host: string, address: string, reason: string, url: string): SafeFetchError {
    const what = host === address ? address : `${host} (${address})`;
    return new SafeFetchError("refused", `Refused to connect to ${what}: it is ${reason}; we only fetch from public web servers.`, url);
  }

  type Verdict = { error: NodeJS.ErrnoException } | { addresses: ResolvedAddress[] };

  /** What to hand node:net for a DNS answer: its addresses, or why not. Never throws. */
  function judgeAnswer(found: unknown, hostname: string, host: string, port: number, family: number, url: string): Verdict {
    const unreadable = (what: unknown) =>
      new SafeFetchError("refused", `Refused to connect to ${host}: its DNS answer (${String(what).slice(0, 80)}) is not an IP address.`, url);
    if (!Array.isArray(found)) return { error: unreadable(found) };
    const addresses: ResolvedAddress[] = [];
    for (const entry of found as unknown[]) {
      const address: unknown = (entry as { address?: unknown } | null)?.address;
      const kind = typeof address === "string" ? net.isIP(address) : 0;
      if (typeof address !== "string" || kind === 0) return { error: unreadable(address) };
      if (family === 0 || kind === family) addresses.push({ address, family: kind === 6 ? 6 : 4 });
    }
    if (addresses.length === 0) {
      const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
      err.code = "ENOTFOUND";
      return { error: err };
    }
    if (!isAllowed(host, port)) {
      for (const a of addresses) {
        if (isAllowed(a.address, port)) continue;
        const reason = blockedAddressReason(a.address);
        // Refuse the whole answer when any address is private: a mixed answer is a rebinding attempt.
        if (reason) return { error: refusal(host, a.address, reason, url) };
      }
    }
    return { addresses };
  }

  /**
   * The lookup node:net calls to open the socket: resolve, then refuse any non-public answer. It runs outside
   * any request's promise chain, so nothing may escape it: a resolver that throws or rejects, or a check that
   * fails, becomes an error handed to node:net (the request then fails), and anything thrown past that ends
   * the request through `onEscape` rather than as an unhandled rejection that would stop the process.
   */
  function guardedLookup(host: string, port: number, url: string, onEscape: (error: unknown) => void): net.LookupFunction {
    return (hostname, lookupOptions, callback) => {
      const family = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : 0;
      Promise.resolve()
        .then(() => lookupHost(hostname))
        .then(
          (found): Verdict => {
            try {
              return judgeAnswer(found, hostname, host, port, family, url);
            } catch {
              return { error: refusal(host, hostname, "an address we could not classify", url) };
            }
          },
          (error: unknown): Verdict => ({
            error: error instanceof Error ? error : new Error(`the resolver failed: ${String(error)}`),
          }),
        )
        .then((verdict) => {
          if ("error" in verdict) return callback(verdict.error, "", 4);
          const { addresses } = verdict;
          if (lookupOptions.all) {
            (callback as unknown as (e: null, list: ResolvedAddress[]) => void)(null, addresses);
          } else {
            callback(null, addresses[0].address, addresses[0].family);
          }
        })
        .catch(onEscape);
    };
  }

  interface Hop {
    status: number;
    headers: Record<string, string>;
    res: http.IncomingMessage;
  }

  function requestOnce(url: URL, headers: Record<string, string>, deadline: number): Promise<Hop> {
    const href = url.toString();
    const https_ = url.protocol === "https:";
    const host = url.hostname.replace(/^\[|\]$/g, "");
    const port = url.port ? Number(url.port) : https_ ? 443 : 80;
    if (net.isIP(host)) {
      // An IP literal skips the lookup, so it is judged here.
      const reason = isAllowed(host, port) ? null : blockedAddressReason(host);
      if (reason) return Promise.reject(refusal(host, host, reason, href));
    }
    return new Promise<Hop>((resolve, reject) => {
      let settled = false;
      const req = (https_ ? https : http).request({
        protocol: url.protocol,
        hostname: host,
        port,
        path: `${url.pathname}${url.search}`,
        method: "GET",
        headers,
        agent: agents[https_ ? "https:" : "http:"],
        lookup: net.isIP(host) ? undefined : guardedLookup(host, port, href, (error) => fail(error)),
        servername: net.isIP(host) ? undefined : host,
      });
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(totalTimer);
        req.destroy();
        reject(networkError(error, href));
      };
      const totalTimer = setTimeout(
        () => fail(new SafeFetchError("timeout", `${url.host} did not answer in time.`, href)),
        Math.max(0, deadline - Date.now()),
      );
      req.on("socket", (socket) => {
        if (!socket.connecting) return;
        const connectTimer = setTimeout(
          () => fail(new SafeFetchError("timeout", `${url.host} did not accept a connection in time.`, href)),
          connectTimeoutMs,
        );
        socket.once("connect", () => clearTimeout(connectTimer));
        socket.once("close", () => clearTimeout(connectTimer));
      });
      req.on("error", fail);
      req.on("response", (res) => {
        if (settled) {
          res.destroy();
          return;
        }
        settled = true;
        clearTimeout(totalTimer);
        resolve({ status: res.statusCode ?? 0, headers: flattenHeaders(res.headers), res });
      });
      req.end();
    });
  }

  function readBody(res: http.IncomingMessage, href: string, maxBytes: number, deadline: number, truncate = false): Promise<{ body: Buffer; truncated: boolean }> {
    return new Promise<{ body: Buffer; truncated: boolean }>((resolve, reject) => {
      const encoding = (res.headers["content-encoding"] ?? "identity").trim().toLowerCase();
      let decoder: Transform | null = null;
      if (encoding === "gzip" || encoding === "x-gzip") decoder = zlib.createGunzip();
      else if (encoding === "deflate") decoder = zlib.createInflate();
      else if (encoding === "br") decoder = zlib.createBrotliDecompress();
      else if (encoding !== "identity" && encoding !== "") {
        res.destroy();
        reject(new SafeFetchError("bad-response", `${safeHost(href)} answered with an encoding we cannot read (${encoding}).`, href));
        return;
      }
      const tooLarge = () =>
        new SafeFetchError("too-large", `${safeHost(href)} sent more than ${maxBytes} bytes; we stopped reading.`, href);
      const declared = Number(res.headers["content-length"]);
      if (!truncate && !decoder && Number.isFinite(declared) && declared > maxBytes) {
        res.destroy();
        reject(tooLarge());
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let raw = 0;
      let done = false;
      let cut = false;
      const finish = (error: SafeFetchError | null) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        if (error) {
          res.destroy();
          decoder?.destroy();
          reject(error);
        } else {
          if (cut) {
            res.destroy();
            decoder?.destroy();
          }
          resolve({ body: Buffer.concat(chunks, size), truncated: cut });
        }
      };
      // With `truncate`, the cap ends the read with what came so far: the first maxBytes bytes.
      const cutHere = (chunk: Buffer | null) => {
        if (chunk) {
          const room = maxBytes - size;
          if (room > 0) {
            chunks.push(chunk.subarray(0, room));
            size += room;
          }
        }
        cut = true;
        finish(null);
      };
      const timer = setTimeout(
        () => finish(new SafeFetchError("timeout", `${safeHost(href)} did not finish sending in time.`, href)),
        Math.max(0, deadline - Date.now()),
      );
      const onData = (chunk: Buffer) => {
        if (done) return;
        if (truncate && size + chunk.length > maxBytes) return cutHere(chunk);
        size += chunk.length;
        if (size > maxBytes) return finish(tooLarge());
        chunks.push(chunk);
      };
      res.on("error", (error) => finish(networkError(error, href)));
      res.on("close", () => {
        if (!res.complete && !cut) finish(new SafeFetchError("unreachable", `${safeHost(href)} closed the connection mid-answer.`, href));
      });
      if (decoder) {
        res.on("data", (chunk: Buffer) => {
          raw += chunk.length;
          if (raw > maxBytes) return truncate ? cutHere(null) : finish(tooLarge());
        });
        res.pipe(decoder);
        decoder.on("data", onData);
        decoder.on("end", () => finish(null));
        decoder.on("error", () =>
          finish(new SafeFetchError("bad-response", `${safeHost(href)} sent a compressed answer we could not read.`, href)),
        );
      } else {
        res.on("data", onData);
        res.on("end", () => finish(null));
      }
    });
  }

  async function safeFetch(input: string, init: SafeFetchInit = {}): Promise<SafeResponse> {
    const timeoutMs = init.timeoutMs ?? defaultTimeoutMs;
    const maxBytes = init.maxBytes ?? defaultMaxBytes;
    const maxRedirects = init.maxRedirects ?? defaultMaxRedirects;
    const deadline = Date.now() + timeoutMs;
    const headers: Record<string, string> = { accept: "*/*" };
    for (const [name, value] of Object.entries(init.headers ?? {})) {
      if (!FORBIDDEN_HEADERS.has(name.toLowerCase())) headers[name.toLowerCase()] = value;
    }
    headers["user-agent"] = userAgent;
    headers["accept-encoding"] = "gzip, deflate, br";

    const hops: string[] = [];
    let url: URL;
    try {
      url = new URL(input);
    } catch {
      throw new SafeFetchError("invalid-url", `"${input}" is not a web address.`, input);
    }
    for (;;) {
      const href = url.toString();
      if (url.protocol !== "http:" && url.protocol !== "https:") {
        throw new SafeFetchError("refused", `Only http and https addresses are fetched, not ${url.protocol}`, href);
      }
      if (url.username || url.password) {
        throw new SafeFetchError("refused", "Addresses with a user name or password in them are not fetched.", href);
      }
      hops.push(href);
      const hop = await requestOnce(url, headers, deadline);
      const location = hop.headers.location;
      if (REDIRECTS.has(hop.status) && location) {
        hop.res.destroy();
        if (hops.length > maxRedirects) {
          throw new SafeFetchError("too-many-redirects", `${url.host} redirected more than ${maxRedirects} times.`, href);
        }
        try {
          url = new URL(location, url);
        } catch {
          throw new SafeFetchError("bad-response", `${url.host} redirected to something that is not a web address.`, href);
        }
        continue;
      }
      const { body, truncated } = await readBody(hop.res, href, maxBytes, deadline, init.truncate);
      return { status: hop.status, url: href, hops, headers: hop.headers, body, truncated, text: () => body.toString("utf8") };
    }
  }

  return {
    userAgent,
    fetch: safeFetch,
    close() {
      agents["http:"].destroy();
      agents["https:"].destroy();
    },
  };
}
