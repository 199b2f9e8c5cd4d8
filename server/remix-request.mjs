// The Fetch Request a Remix handler sees, made as @remix-run/express's createRemixRequest makes it, with
// two differences: the body is read through the body limit (server/body-limit.mjs), which counts it as it
// streams, instead of straight from the socket; and the socket's address is in SOCKET_ADDRESS_HEADER.
import { createRemixHeaders } from "@remix-run/express/dist/server.js";
import { bodyStream } from "./body-limit.mjs";

/** Must equal SOCKET_ADDRESS_HEADER in app/pages/http/client-address.server.ts. */
export const SOCKET_ADDRESS_HEADER = "x-socket-address";

/**
 * @param {import("express").Request} req
 * @param {import("express").Response} res
 * @returns {Request}
 */
export function remixRequest(req, res) {
  // req.hostname has no port: take it from X-Forwarded-Host or Host (req.hostname respects "trust proxy").
  const portOf = (/** @type {string | undefined} */ header) => Number.parseInt(header?.split(":")[1] ?? "", 10);
  const forwardedPort = portOf(req.get("X-Forwarded-Host"));
  const hostPort = portOf(req.get("host"));
  const port = Number.isSafeInteger(forwardedPort) ? forwardedPort : Number.isSafeInteger(hostPort) ? hostPort : "";
  const url = new URL(`${req.protocol}://${req.hostname}${port ? `:${port}` : ""}${req.originalUrl}`);

  // Loaders and actions are aborted when no response can be written any more: the client went away
  // before the response finished, or the body limit answered 413 in the handler's place.
  const controller = new AbortController();
  let finished = false;
  res.once("finish", () => (finished = true));
  res.once("close", () => {
    if (!finished) controller.abort();
  });

  /** @type {RequestInit & { duplex?: "half" }} */
  const headers = createRemixHeaders(req.headers);
  // The socket's address, for app/pages/http/client-address.server.ts when no proxy is trusted (docs/decisions/064):
  // set here, so whatever a client sent under this name is replaced.
  headers.set(SOCKET_ADDRESS_HEADER, req.socket.remoteAddress ?? "");
  const init = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = bodyStream(req, res, () => controller.abort());
    init.duplex = "half";
  }
  return new Request(url.href, init);
}
