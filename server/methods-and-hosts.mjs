// What a request must be before anything serves it (docs/decisions/080): a method the app serves and a Host that
// names a server. Both used to reach Remix and come back as 500s: undici's Request refuses TRACE, TRACK and
// CONNECT outright, and a Host that is no host name makes no URL. And the one cross-site check: Remix runs its own
// before a page's action, comparing the Origin's host with X-Forwarded-Host or Host as strings, and answers 500
// when they differ; ours (app/pages/http/origin-guard.server.ts) has already judged the Origin against APP_URL by then.

/** The methods some route of the app answers; any other is refused before routing, on every path. */
export const SERVED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const ALLOW = SERVED_METHODS.join(", ");
const SERVED = new Set(SERVED_METHODS);

/** @param {string} method */
export const unservedMethodMessage = (method) => `This server does not answer ${method} requests. Use one of ${ALLOW}.`;
const UNKNOWN_METHOD_MESSAGE = `This server does not answer this request's method. Use one of ${ALLOW}.`;
export const BAD_HOST_MESSAGE = "The Host header does not name a server this request could be for.";

/**
 * A raw answer for a socket Node hands over without a response object: `Connection: close`, then closed.
 * @param {number} status @param {string} reason @param {string} message @param {Record<string, string>} [headers]
 */
function rawAnswer(status, reason, message, headers = {}) {
  const body = JSON.stringify({ error: message });
  const lines = Object.entries({
    Connection: "close",
    ...headers,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": String(Buffer.byteLength(body)),
  }).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${status} ${reason}\r\n${lines.join("")}\r\n${body}`;
}

/**
 * Express middleware: 405 with Allow for a method no route serves (TRACE, PROPFIND, QUERY ...), and 400 for a
 * Host header that makes no URL (a space, a slash, an unclosed IPv6 bracket, a port past 65535). The connection
 * is closed after the refusal: its body, if any, is not read.
 * @type {import("express").RequestHandler}
 */
export function refuseUnservedRequests(req, res, next) {
  if (!SERVED.has(req.method)) {
    res
      .set({ Allow: ALLOW, Connection: "close" })
      .status(405)
      .json({ error: unservedMethodMessage(req.method) });
    return;
  }
  const host = req.get("x-forwarded-host")?.split(",")[0]?.trim() || req.get("host");
  if (host !== undefined && !namesAServer(host)) {
    res.set("Connection", "close").status(400).json({ error: BAD_HOST_MESSAGE });
    return;
  }
  next();
}

/** host[:port] as RFC 3986 spells it (a name or an IPv4 address, or an IPv6 one in brackets), and a URL's host. */
const HOST_PATTERN = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]+)(?::\d*)?$/;

/** @param {string} host */
const namesAServer = (host) => HOST_PATTERN.test(host) && URL.canParse(`http://${host}/`);

/**
 * The server's `connect` listener: a CONNECT (a proxy tunnel) is answered 405 instead of Node's default of
 * closing the socket without a word.
 * @param {import("node:http").IncomingMessage} _req @param {import("node:stream").Duplex} socket
 */
export function refuseConnect(_req, socket) {
  socket.on("error", () => {});
  socket.end(rawAnswer(405, "Method Not Allowed", unservedMethodMessage("CONNECT"), { Allow: ALLOW }));
}

/**
 * The server's `clientError` listener: a method Node's parser does not know (TRACK, anything made up) is 501
 * with the sentence; every other parse error gets Node's own answer, as without a listener.
 * @param {Error & { code?: string }} error @param {import("node:stream").Duplex} socket
 */
export function answerClientError(error, socket) {
  // Node's own condition: no response in flight on this socket, or none of its headers sent yet.
  const inFlight = /** @type {{ _httpMessage?: { headersSent?: boolean } }} */ (socket)._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    socket.write(
      error.code === "HPE_INVALID_METHOD"
        ? rawAnswer(501, "Not Implemented", UNKNOWN_METHOD_MESSAGE, { Allow: ALLOW })
        : (NODE_ANSWERS[error.code ?? ""] ?? NODE_ANSWERS.default),
    );
  }
  socket.destroy(error);
}

/** What Node writes for a parse error when no `clientError` listener is installed (lib/_http_server.js). */
const NODE_ANSWERS = /** @type {Record<string, string>} */ ({
  HPE_HEADER_OVERFLOW: "HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n",
  HPE_CHUNK_EXTENSIONS_OVERFLOW: "HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n\r\n",
  ERR_HTTP_REQUEST_TIMEOUT: "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n",
  default: "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n",
});

/**
 * The request as Remix's own cross-site check must see it, once ours has let it through: with the host Remix
 * compares (X-Forwarded-Host, else Host) spelled as the Origin's. Our check judged that Origin against APP_URL,
 * SHOPIFY_APP_URL and the request's own address, each parsed as a URL, so `LOCALHOST:3000`, `localhost.:3000`
 * or a proxy's `127.0.0.1:3000` for an APP_URL of http://localhost:3000 is our host; Remix compares the strings
 * and would answer 500. A request with no Origin, or one our check did not judge by its Origin (a Bearer token:
 * decision 021) and whose Origin is no URL, is left alone: Remix's check passes the first, and only a page's
 * action, never a Bearer API, runs it.
 * @param {Request} request
 */
export function alignHostWithOrigin(request) {
  const origin = request.headers.get("origin");
  if (origin === null || origin === "null" || !URL.canParse(origin)) return;
  const host = new URL(origin).host;
  const headers = request.headers;
  if (headers.has("x-forwarded-host")) {
    if (headers.get("x-forwarded-host")?.split(",")[0]?.trim() !== host) headers.set("x-forwarded-host", host);
  } else if (headers.get("host") !== host) {
    headers.set("host", host);
  }
}
