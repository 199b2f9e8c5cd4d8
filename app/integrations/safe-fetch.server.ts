// Fetches URLs whose host a user typed (rival stores, later TikTok oEmbed) without letting them reach our own
// network: the classic SSRF hole. The check sits in the `lookup` that node:http(s) uses to open the socket, so the
// address we vet is the address we connect to (no gap between a check and the connect for DNS rebinding to use),
// and it runs again on every redirect hop. Refused: every address ipaddr.js does not class as public unicast
// (loopback, private, link-local, multicast, unspecified, CGNAT, reserved, unique-local, 6to4/Teredo/NAT64, ...),
// the cloud metadata endpoints, and IPv4-mapped/compatible IPv6 forms of any of those. An allow-list of
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

/**
 * Why connecting to this IP address is refused, or null when it is public unicast. IPv4-mapped
 * (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d) IPv6 addresses are judged by the IPv4 address inside.
 */
export function blockedAddressReason(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!ipaddr.isValid(bare)) return "not an IP address";
  let ip = ipaddr.parse(bare);
  if (ip.kind() === "ipv6") {
    const v6 = ip as ipaddr.IPv6;
    const range = v6.range();
    if (v6.isIPv4MappedAddress() || range === "rfc6145") {
      ip = ipaddr.IPv4.parse(`${v6.parts[6] >> 8}.${v6.parts[6] & 0xff}.${v6.parts[7] >> 8}.${v6.parts[7] & 0xff}`);
    } else if (range !== "unspecified" && range !== "loopback" && v6.parts.slice(0, 6).every((p) => p === 0)) {
      ip = v6.toIPv4Address();
    }
  }
  const canonical = ip.kind() === "ipv6" ? (ip as ipaddr.IPv6).toRFC5952String() : ip.toString();
  if (METADATA_ADDRESSES.has(canonical)) return "cloud metadata";
  const range = ip.range();
  return range === "unicast" ? null : range;
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
    return new SafeFetchError("refused", `Refused to connect to ${what}: it is a ${reason} address, not a public web server.`, url);
  }

  /** The lookup node:net calls to open the socket: resolve, then refuse any non-public answer. */
  function guardedLookup(host: string, port: number, url: string): net.LookupFunction {
    return (hostname, lookupOptions, callback) => {
      lookupHost(hostname).then(
        (found) => {
          const family = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : 0;
          const addresses = found.filter((a) => family === 0 || a.family === family);
          if (addresses.length === 0) {
            const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
            err.code = "ENOTFOUND";
            return callback(err, "", 4);
          }
          if (!isAllowed(host, port)) {
            for (const a of addresses) {
              if (isAllowed(a.address, port)) continue;
              const reason = blockedAddressReason(a.address);
              // Refuse the whole answer when any address is private: a mixed answer is a rebinding attempt.
              if (reason) return callback(refusal(host, a.address, reason, url), "", 4);
            }
          }
          if (lookupOptions.all) {
            (callback as unknown as (e: null, list: ResolvedAddress[]) => void)(null, addresses);
          } else {
            callback(null, addresses[0].address, addresses[0].family);
          }
        },
        (error: unknown) => callback(error as NodeJS.ErrnoException, "", 4),
      );
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
        lookup: net.isIP(host) ? undefined : guardedLookup(host, port, href),
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

  function readBody(res: http.IncomingMessage, href: string, maxBytes: number, deadline: number): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
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
      if (!decoder && Number.isFinite(declared) && declared > maxBytes) {
        res.destroy();
        reject(tooLarge());
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let raw = 0;
      let done = false;
      const finish = (error: SafeFetchError | null) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        if (error) {
          res.destroy();
          decoder?.destroy();
          reject(error);
        } else {
          resolve(Buffer.concat(chunks, size));
        }
      };
      const timer = setTimeout(
        () => finish(new SafeFetchError("timeout", `${safeHost(href)} did not finish sending in time.`, href)),
        Math.max(0, deadline - Date.now()),
      );
      const onData = (chunk: Buffer) => {
        if (done) return;
        size += chunk.length;
        if (size > maxBytes) return finish(tooLarge());
        chunks.push(chunk);
      };
      res.on("error", (error) => finish(networkError(error, href)));
      res.on("close", () => {
        if (!res.complete) finish(new SafeFetchError("unreachable", `${safeHost(href)} closed the connection mid-answer.`, href));
      });
      if (decoder) {
        res.on("data", (chunk: Buffer) => {
          raw += chunk.length;
          if (raw > maxBytes) finish(tooLarge());
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
      const body = await readBody(hop.res, href, maxBytes, deadline);
      return { status: hop.status, url: href, hops, headers: hop.headers, body, text: () => body.toString("utf8") };
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
