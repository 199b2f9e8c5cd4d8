// What one client may hold of the server's sockets (docs/decisions/039). Node's own defaults let a request
// whose body trickles in at a byte a second keep its socket for 300 s, and any one address open as many
// sockets as it likes; here:
// - the request (headers and body) must be received within REQUEST_TIMEOUT_MS (30 s), its headers within
//   HEADERS_TIMEOUT_MS (15 s); past either Node answers 408 and closes the socket. Responses are not
//   bounded: a video download or a slow page takes the time it takes;
// - an idle kept-alive socket is closed after 5 s (Node's default, written down);
// - one remote address holds at most MAX_CONNECTIONS_PER_CLIENT (64) open sockets per server process;
//   one more is answered 429 and closed before Node parses anything it sent (0 turns the cap off, for a
//   server behind a proxy whose connections all come from one address).
import http from "node:http";

export const KEEP_ALIVE_TIMEOUT_MS = 5_000;

const REFUSED = Symbol("refused: too many connections from this address");

const TOO_MANY = "Too many open connections from your address. Close some and try again.\n";
const TOO_MANY_ANSWER =
  "HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nRetry-After: 1\r\n" +
  `Content-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(TOO_MANY)}\r\n\r\n${TOO_MANY}`;

/**
 * An HTTP server for `handler` with these limits. Node checks the request and headers timeouts every
 * `connectionsCheckingInterval` (30 s by default, which would let a 30 s limit run to 60 s): here a
 * quarter of the shorter one, at most 5 s.
 * @param {http.RequestListener} handler
 * @param {{ requestTimeoutMs: number, headersTimeoutMs: number, maxConnectionsPerClient: number }} limits
 */
export function createGuardedServer(handler, { requestTimeoutMs, headersTimeoutMs, maxConnectionsPerClient }) {
  /** @type {http.RequestListener} */
  const guarded = (req, res) => {
    // A refused socket was already answered 429 and is closing: whatever it sent is not served.
    if (/** @type {any} */ (req.socket)[REFUSED]) return void req.socket.destroy();
    handler(req, res);
  };
  const server = http.createServer(
    {
      requestTimeout: requestTimeoutMs,
      headersTimeout: headersTimeoutMs,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      connectionsCheckingInterval: Math.min(
        5_000,
        Math.max(100, Math.floor(Math.min(requestTimeoutMs, headersTimeoutMs) / 4)),
      ),
    },
    guarded,
  );
  if (maxConnectionsPerClient > 0) capConnectionsPerClient(server, maxConnectionsPerClient);
  return server;
}

/**
 * Counts open sockets per remote address; one past `max` is answered 429 and closed. The listener runs
 * before Node's own, so a refused socket never reaches the application (see `guarded` above).
 * @param {http.Server} server
 * @param {number} max
 */
function capConnectionsPerClient(server, max) {
  /** @type {Map<string, number>} */
  const open = new Map();
  server.prependListener("connection", (/** @type {import("node:net").Socket} */ socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) return; // already closed
    const count = open.get(address) ?? 0;
    if (count >= max) {
      /** @type {any} */ (socket)[REFUSED] = true;
      socket.on("error", () => {});
      socket.end(TOO_MANY_ANSWER);
      // Closed outright a little later: destroying at once could reset the connection before the client
      // reads the answer, and a client that never closes its side would otherwise keep the socket.
      setTimeout(() => socket.destroy(), 2_000).unref();
      return;
    }
    open.set(address, count + 1);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
