// The lean path (docs/decisions/068 and 077): `GET`/`HEAD /api/v1/products` and `POST /mcp` answered with plain
// node:http, before Express and Remix, by the functions the build exports for them (app/api/lean.server.ts,
// which runs each route's own code). Only a request Express would treat exactly as this does takes it; every other
// one (a body on the search, X-Forwarded-Host, no Host or an IPv6 literal, a `_data` query, a path spelt
// differently, an MCP call without a declared length or a Bearer key) is left to Express, so nothing changes for
// it. What this applies as the Express chain does: the access log line, the body limit (the search has no body; an
// MCP call's declared length is within the path's cap, and Node's parser reads no more than it), compression (the
// same middleware instance), the URL and Request Remix would see (server/remix-request.mjs), and a 500 like
// callLoader's.
import { createRemixHeaders } from "@remix-run/express/dist/server.js";
import { BODY_LIMITS, bodyCapFor } from "./body-limit.mjs";
import { SOCKET_ADDRESS_HEADER } from "./remix-request.mjs";

/**
 * @typedef {{ status: number, headers: Record<string, string>, body: string | null }} LeanAnswer
 * @param {{ build: any, compress: (req: any, res: any, next: (error?: unknown) => void) => void, accessLog: boolean,
 *   reportError: (error: unknown, request: Request) => void, maxBodyBytes: number }} options
 * @returns {((req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => boolean) | null}
 *   the handler (false: not for it, pass it on), or null when the build exports no lean path
 */
export function leanApiHandler({ build, compress, accessLog, reportError, maxBodyBytes }) {
  const { leanApiAnswer, leanApiPath, leanMcpAnswer, LEAN_MCP_PATH } = build.entry.module;
  const api = typeof leanApiAnswer === "function" && typeof leanApiPath === "function";
  const mcp = typeof leanMcpAnswer === "function" && typeof LEAN_MCP_PATH === "string";
  if (!api && !mcp) return null;
  const mcpCap = mcp ? bodyCapFor(LEAN_MCP_PATH, BODY_LIMITS, maxBodyBytes) : 0;
  return (req, res) => {
    const raw = req.url ?? "/";
    const q = raw.indexOf("?");
    const pathname = q === -1 ? raw : raw.slice(0, q);
    /** @type {() => Promise<LeanAnswer | null>} */
    let run;
    /** @type {() => Request} */
    let reported;
    if (api && leanApiPath(pathname)) {
      const url = searchUrl(req);
      if (!url) return false;
      const method = /** @type {string} */ (req.method);
      const authorization = req.headers.authorization ?? null;
      run = () => leanApiAnswer(method, url, authorization);
      reported = () => new Request(url, { method, headers: authorization ? { authorization: "(withheld)" } : {} });
    } else if (mcp && pathname === LEAN_MCP_PATH) {
      const url = mcpUrl(req, mcpCap);
      if (!url) return false;
      run = async () => {
        const body = await readBody(req);
        return body ? leanMcpAnswer(url, mcpHeaders(req), body) : null;
      };
      reported = () => new Request(url, { method: "POST", headers: { authorization: "(withheld)" } });
    } else {
      return false;
    }
    const started = accessLog ? process.hrtime.bigint() : 0n;
    if (accessLog) {
      res.once("finish", () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        process.stdout.write(`${req.method} ${raw} ${res.statusCode} - ${ms.toFixed(3)} ms\n`);
      });
    }
    // Without Accept-Encoding the compression middleware only adds `Vary: Accept-Encoding` (its default leaves such
    // a client's answer as it is): answer() adds it itself, without the middleware's wrapping of the response.
    if (req.headers["accept-encoding"] === undefined) void answer(req, res, run, reported, true);
    else compress(req, res, () => void answer(req, res, run, reported, false));
    return true;
  };

  /**
   * @param {import("node:http").IncomingMessage} req @param {import("node:http").ServerResponse} res
   * @param {() => Promise<LeanAnswer | null>} run the answer (null: the client left before its body arrived)
   * @param {() => Request} reported the request as an error report names it (no key)
   * @param {boolean} vary whether to add what compression would have: its Vary (every answer here is JSON or text, which it compresses)
   */
  async function answer(req, res, run, reported, vary) {
    let result;
    try {
      result = await run();
      if (!result) return void res.destroy();
    } catch (error) {
      reportError(error, reported());
      result = { status: 500, headers: { "content-type": "text/plain" }, body: "Unexpected Server Error" };
    }
    res.statusCode = result.status;
    for (const [name, value] of Object.entries(result.headers)) {
      res.setHeader(name, name.toLowerCase() === "content-type" ? withCharset(value) : value);
    }
    if (vary && res.hasHeader("content-type")) res.setHeader("Vary", "Accept-Encoding");
    if (req.method === "HEAD" || result.body === null) return void res.end();
    const body = Buffer.from(result.body);
    res.setHeader("Content-Length", body.length);
    res.end(body);
  }
}

/**
 * A Content-Type as Express's res.set writes it (server/send-response.mjs sets headers through it): a charset added to
 * text and JSON types that name none.
 * @param {string} value
 */
function withCharset(value) {
  if (/;\s*charset\s*=/i.test(value)) return value;
  return /^text\/|^application\/(javascript|json)/i.test(value.split(";")[0]) ? `${value}; charset=utf-8` : value;
}

/**
 * The URL of a search the lean path answers (a GET or HEAD without a body), or null to leave it to Express.
 * @param {import("node:http").IncomingMessage} req
 */
function searchUrl(req) {
  const { method, headers } = req;
  if (method !== "GET" && method !== "HEAD") return null;
  // A body goes through the body limit; its absence is what limitRequestBodies checks too (hasBody).
  if (headers["transfer-encoding"] !== undefined || Number(headers["content-length"] ?? 0) > 0) return null;
  return requestUrl(req);
}

/**
 * The URL of an MCP call the lean path answers, or null to leave it to Express: a POST whose body's length is
 * declared and within the cap (a larger one gets the body limit's 413; a chunked one is counted as it streams), with
 * a Bearer key, so that the cross-site refusal Express would apply first (app/pages/http/origin-guard.server.ts) lets it
 * through (it does for any Bearer request; one without a key is answered 401 by Express's path).
 * @param {import("node:http").IncomingMessage} req @param {number} cap
 */
function mcpUrl(req, cap) {
  const { method, headers } = req;
  if (method !== "POST" || headers["transfer-encoding"] !== undefined) return null;
  const length = headers["content-length"];
  if (length === undefined || !/^\d+$/.test(length) || Number(length) === 0 || Number(length) > cap) return null;
  if (!/^Bearer\s/i.test(headers.authorization ?? "")) return null;
  return requestUrl(req);
}

/**
 * The whole body of a request with a declared length (Node's parser delivers exactly that many bytes), or null
 * when the client went away first.
 * @param {import("node:http").IncomingMessage} req
 * @returns {Promise<Buffer | null>}
 */
function readBody(req) {
  return new Promise((resolve) => {
    /** @type {Buffer[]} */
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.once("end", () => resolve(Buffer.concat(chunks)));
    req.once("close", () => resolve(req.complete ? Buffer.concat(chunks) : null));
    req.once("error", () => resolve(null));
  });
}

/**
 * The headers of the Fetch Request Remix's route would get (server/remix-request.mjs: Remix's copy of them and the
 * socket's address). The Request made of them has no AbortSignal to abort: the SDK does not read it (decision 077).
 * @param {import("node:http").IncomingMessage} req
 */
function mcpHeaders(req) {
  const headers = createRemixHeaders(/** @type {any} */ (req.headers));
  headers.set(SOCKET_ADDRESS_HEADER, req.socket.remoteAddress ?? "");
  return headers;
}

/**
 * The absolute URL the server would give Remix for this request (server/remix-request.mjs with Express's
 * req.protocol and req.hostname, "trust proxy" off), or null when the request is one to leave to Express.
 * @param {import("node:http").IncomingMessage} req
 */
function requestUrl(req) {
  const { headers } = req;
  // Remix's data requests (?_data=) are Remix's; the fast routes leave them to it as well.
  if (req.url?.includes("_data")) return null;
  const host = headers.host;
  // X-Forwarded-Host changes the port remix-request.mjs takes; an IPv6 literal its parsing: Express's case.
  if (!host || host.startsWith("[") || headers["x-forwarded-host"] !== undefined) return null;
  const colon = host.indexOf(":");
  const hostname = colon === -1 ? host : host.slice(0, colon);
  const port = colon === -1 ? Number.NaN : Number.parseInt(host.slice(colon + 1), 10);
  try {
    return new URL(`http://${hostname}${Number.isSafeInteger(port) ? `:${port}` : ""}${req.url}`).href;
  } catch {
    return null;
  }
}
