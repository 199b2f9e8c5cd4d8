// Request bodies: capped while they stream, and never left half-read on a kept-alive connection
// (server/index.mjs, docs/decisions/017 "Update: body limits").
//
// Nothing is buffered here. A body reaches a handler only through bodyStream(), which counts bytes as
// they arrive; a handler that never asks for it gets nothing read on its behalf until its response is
// finished (see drainAfterResponse).

/**
 * Larger caps for the paths that need them (uploads); the first entry whose prefix starts the path wins
 * and every other path gets the default (MAX_BODY_BYTES, 1 MB). No route accepts an upload today: the
 * product import is a command-line tool (npm run products:import). A future upload route adds a line:
 *   { prefix: "/api/imports", maxBytes: 50 * 1024 * 1024 },
 * @type {ReadonlyArray<{ prefix: string, maxBytes: number }>}
 */
export const BODY_LIMITS = [];

/**
 * The cap for a path: the first table entry whose prefix starts it (at a "/" boundary), else the default.
 * @param {string} pathname
 * @param {ReadonlyArray<{ prefix: string, maxBytes: number }>} limits
 * @param {number} defaultMaxBytes
 */
export function bodyCapFor(pathname, limits, defaultMaxBytes) {
  for (const { prefix, maxBytes } of limits) {
    if (pathname === prefix || pathname.startsWith(prefix.endsWith("/") ? prefix : `${prefix}/`)) return maxBytes;
  }
  return defaultMaxBytes;
}

/** A byte count as a person reads it: "1 MB", "1.5 MB", "512 KB", "900 bytes". @param {number} bytes */
export function describeBytes(bytes) {
  const round = (n) => String(Math.round(n * 10) / 10);
  if (bytes >= 1024 * 1024) return `${round(bytes / (1024 * 1024))} MB`;
  if (bytes >= 1024) return `${round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

/** @param {number} cap */
export function tooLargeMessage(cap) {
  return `The request body is larger than ${describeBytes(cap)}.`;
}

const state = Symbol("bodyLimit");

/**
 * @typedef {{ cap: number, received: number, answered: boolean, detach?: () => void }} BodyState
 * @param {import("express").Request} req
 * @returns {BodyState | undefined}
 */
const stateOf = (req) => /** @type {any} */ (req)[state];

/** Whether the request announces a body: a Content-Length above 0 or a Transfer-Encoding (chunked). */
function hasBody(req) {
  return req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
}

/** How long a connection we stop reading stays open for the client to read our answer (closeSoon). */
export const LINGER_MS = 2000;

/**
 * Ends a connection whose client may still be sending: our side is closed at once (FIN after the answer)
 * and the socket is destroyed LINGER_MS later, or when the client closes first. Destroying it at once
 * with unread bytes makes the kernel send a reset, and a client still writing its body (Node's own
 * client, for one) then loses the answer it had not read yet. Nothing more is read meanwhile: the
 * request is paused, so the client just stops being able to send.
 * @param {import("node:net").Socket} socket
 */
function closeSoon(socket) {
  if (socket.destroyed) return;
  socket.end();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
}

/**
 * 413 with `Connection: close`, without reading what the client is still sending, so the unread rest
 * can never be taken for the next request.
 * @param {import("express").Request} req
 * @param {import("express").Response} res
 * @param {number} cap
 */
function answerTooLarge(req, res, cap) {
  // Node would read and drop the rest of a body nobody asked for (req._dump) and destroy the socket once
  // the answer is written; read(0) marks the body as being consumed without taking any of it, and Node
  // calls socket.destroySoon() for a `Connection: close` answer, which becomes closeSoon here.
  req.read(0);
  req.socket.destroySoon = () => closeSoon(req.socket);
  const body = JSON.stringify({ error: tooLargeMessage(cap) });
  res.writeHead(413, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
    Connection: "close",
  });
  res.end(body);
}

/**
 * Keep-alive after an answer given without reading the whole body (a 405, a 401 before the body is
 * parsed, a static file): the remainder is still on the socket. Node discards it itself only when
 * nothing ever touched the body, and then without any limit; Remix's handler did touch it (it listens,
 * then stops), so the next request on the connection waited behind the unread bytes until the
 * keep-alive timeout closed it (~6 s): behind a proxy that reuses connections, another user's request.
 * Every body is now marked as consumed (limitRequestBodies), so what happens to a remainder is decided
 * here.
 *
 * We drain the remainder (read and drop it) rather than close the connection: it is at most the cap,
 * which the client has already committed to sending (a proxy has usually sent it all), and keeping the
 * connection spares a new TCP (and TLS) handshake. A remainder that would exceed the cap (a chunked
 * body) is not drained: the connection is closed instead, so draining can never cost more than the cap.
 * @param {import("express").Request} req
 * @param {BodyState} body
 */
function drainAfterResponse(req, body) {
  if (req.complete || body.answered) return; // read to the end, or closing after a 413
  body.detach?.();
  const count = (/** @type {Buffer} */ chunk) => {
    body.received += chunk.length;
    if (body.received <= body.cap) return;
    req.off("data", count);
    req.pause();
    closeSoon(req.socket);
  };
  req.on("data", count);
  req.resume();
}

/**
 * Express middleware, first in the chain so it covers every path and method: a declared Content-Length
 * over the cap is answered 413 at once; other bodies are counted as they stream (bodyStream) and drained
 * after the response (drainAfterResponse).
 * @param {{ defaultMaxBytes: number, limits?: ReadonlyArray<{ prefix: string, maxBytes: number }> }} options
 * @returns {import("express").RequestHandler}
 */
export function limitRequestBodies({ defaultMaxBytes, limits = BODY_LIMITS }) {
  return (req, res, next) => {
    if (!hasBody(req)) return next();
    const cap = bodyCapFor(req.path, limits, defaultMaxBytes);
    if (Number(req.headers["content-length"] ?? 0) > cap) return answerTooLarge(req, res, cap);
    /** @type {BodyState} */
    const body = { cap, received: 0, answered: false };
    /** @type {any} */ (req)[state] = body;
    // Marks the body as being consumed (it reads at most one 16 KB buffer ahead): otherwise, for a body
    // no handler touched, Node drops it all itself after the response (req._dump), past any cap.
    req.read(0);
    res.once("finish", () => drainAfterResponse(req, body));
    next();
  };
}

/**
 * Whether the answer to this request has already been given by the body limit (a 413 sent while the body
 * streamed): the handler's own response is then dropped.
 * @param {import("express").Request} req
 */
export function answeredByBodyLimit(req) {
  return stateOf(req)?.answered === true;
}

/**
 * The request body as a web stream for a Fetch Request, read from the socket only as it is pulled.
 * Past the cap, the answer is a 413 (if nothing was sent yet; else the connection is closed), `onTooLarge`
 * runs (the server aborts the Request's signal with it, so the handler's failure is not reported as
 * ours), and the stream errors so the handler's read rejects: a truncated body is never handed on.
 * @param {import("express").Request} req
 * @param {import("express").Response} res
 * @param {() => void} onTooLarge
 * @returns {ReadableStream<Uint8Array>}
 */
export function bodyStream(req, res, onTooLarge) {
  const body = stateOf(req) ?? { cap: Infinity, received: 0, answered: false };
  /** @type {(chunk: Buffer) => void} */
  let onData = () => {};
  const onEnd = () => controllerRef?.close();
  const onError = (/** @type {Error} */ error) => controllerRef?.error(error);
  /** @type {ReadableStreamDefaultController<Uint8Array> | undefined} */
  let controllerRef;
  const detach = () => {
    req.off("data", onData);
    req.off("end", onEnd);
    req.off("error", onError);
    req.pause();
    controllerRef = undefined;
  };
  body.detach = detach;
  return new ReadableStream(
    {
      start(controller) {
        controllerRef = controller;
        onData = (chunk) => {
          body.received += chunk.length;
          if (body.received > body.cap) {
            detach();
            body.answered = true;
            onTooLarge();
            if (!res.headersSent) answerTooLarge(req, res, body.cap);
            else closeSoon(req.socket);
            controller.error(new Error(tooLargeMessage(body.cap)));
            return;
          }
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        };
        req.on("data", onData);
        req.once("end", onEnd);
        req.once("error", onError);
        req.pause();
      },
      pull() {
        req.resume();
      },
      cancel() {
        detach();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}
