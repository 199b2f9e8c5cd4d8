// The Fetch Request a Remix handler sees, made as @remix-run/express's createRemixRequest makes it, with
// one difference: the body is read through the body limit (server/body-limit.mjs), which counts it as it
// streams, instead of straight from the socket.
import { createRemixHeaders } from "@remix-run/express/dist/server.js";
import { bodyStream } from "./body-limit.mjs";

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
  const init = { method: req.method, headers: createRemixHeaders(req.headers), signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = bodyStream(req, res, () => controller.abort());
    init.duplex = "half";
  }
  return new Request(url.href, init);
}
