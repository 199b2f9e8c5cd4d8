// The lean path (docs/decisions/068): `GET`/`HEAD /api/v1/products` answered with plain node:http, before
// Express and without a Fetch Request/Response, by the function the build exports for it
// (app/pages/api-v1/lean.server.ts, which runs the route's own code). Only a request Express would treat
// exactly as this does takes it; every other one (a body, X-Forwarded-Host, no Host or an IPv6 literal, a
// `_data` query, a path spelt differently) is left to Express, so nothing changes for it. What this applies
// as the Express chain does: the access log line, the body limit (nothing to limit: no body), compression (the
// same middleware instance), the URL Remix would see (server/remix-request.mjs), and a 500 like callLoader's.

/**
 * @param {{ build: any, compress: (req: any, res: any, next: (error?: unknown) => void) => void, accessLog: boolean,
 *   reportError: (error: unknown, request: Request) => void }} options
 * @returns {((req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => boolean) | null}
 *   the handler (false: not for it, pass it on), or null when the build exports no lean path
 */
export function leanApiHandler({ build, compress, accessLog, reportError }) {
  const { leanApiAnswer, leanApiPath } = build.entry.module;
  if (typeof leanApiAnswer !== "function" || typeof leanApiPath !== "function") return null;
  return (req, res) => {
    const raw = req.url ?? "/";
    const q = raw.indexOf("?");
    if (!leanApiPath(q === -1 ? raw : raw.slice(0, q))) return false;
    const url = requestUrl(req);
    if (!url) return false;
    const started = accessLog ? process.hrtime.bigint() : 0n;
    if (accessLog) {
      res.once("finish", () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        process.stdout.write(`${req.method} ${raw} ${res.statusCode} - ${ms.toFixed(3)} ms\n`);
      });
    }
    // Without Accept-Encoding the compression middleware only adds `Vary: Accept-Encoding` (its default leaves such
    // a client's answer as it is): answer() adds it itself, without the middleware's wrapping of the response.
    if (req.headers["accept-encoding"] === undefined) void answer(req, res, url, true);
    else compress(req, res, () => void answer(req, res, url, false));
    return true;
  };

  /**
   * @param {import("node:http").IncomingMessage} req @param {import("node:http").ServerResponse} res @param {string} url
   * @param {boolean} vary whether to add what compression would have: its Vary (every answer here is JSON or text, which it compresses)
   */
  async function answer(req, res, url, vary) {
    const method = /** @type {string} */ (req.method);
    const authorization = req.headers.authorization ?? null;
    let result;
    try {
      result = await leanApiAnswer(method, url, authorization);
    } catch (error) {
      reportError(error, new Request(url, { method, headers: authorization ? { authorization: "(withheld)" } : {} }));
      result = { status: 500, headers: { "content-type": "text/plain" }, body: "Unexpected Server Error" };
    }
    res.statusCode = result.status;
    for (const [name, value] of Object.entries(result.headers)) {
      res.setHeader(name, name.toLowerCase() === "content-type" ? withCharset(value) : value);
    }
    if (vary && res.hasHeader("content-type")) res.setHeader("Vary", "Accept-Encoding");
    if (method === "HEAD" || result.body === null) return void res.end();
    const body = Buffer.from(result.body);
    res.setHeader("Content-Length", body.length);
    res.end(body);
  }
}

/**
 * A Content-Type as Express's res.set writes it (sendRemixResponse sets headers through it): a charset added to
 * text and JSON types that name none.
 * @param {string} value
 */
function withCharset(value) {
  if (/;\s*charset\s*=/i.test(value)) return value;
  return /^text\/|^application\/(javascript|json)/i.test(value.split(";")[0]) ? `${value}; charset=utf-8` : value;
}

/**
 * The absolute URL the server would give Remix for this request (server/remix-request.mjs with Express's
 * req.protocol and req.hostname, "trust proxy" off), or null when the request is one to leave to Express.
 * @param {import("node:http").IncomingMessage} req
 */
function requestUrl(req) {
  const { method, headers } = req;
  if (method !== "GET" && method !== "HEAD") return null;
  // A body goes through the body limit; its absence is what limitRequestBodies checks too (hasBody).
  if (headers["transfer-encoding"] !== undefined || Number(headers["content-length"] ?? 0) > 0) return null;
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
