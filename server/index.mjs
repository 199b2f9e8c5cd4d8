// The production HTTP server: what remix-serve does (Express, compression, the built assets, public/,
// Remix's request handler), without its costs on every request (docs/decisions/017):
// - public/ is only looked up for paths that start with one of its entries (remix-serve stats the
//   disk for every request, /api/products included);
// - the access log is one line written when a response finishes (ACCESS_LOG=off turns it off);
// - a GET to a resource route with a fixed path (e.g. /api/products, /healthz) calls that route's
//   loader directly, as Remix's own resource-route handling does, instead of matching the whole
//   route tree twice per request (Remix 2 flattens and ranks every route on every match);
// - request bodies are capped (MAX_BODY_BYTES, 1 MB; larger per path in BODY_LIMITS) while they stream,
//   answered 413 past the cap, and drained after the response so keep-alive stays usable
//   (server/body-limit.mjs);
// - a method no route serves (TRACE, PROPFIND, CONNECT, a made-up one) is 405 or 501 with Allow, a Host that names no
//   server 400, before anything builds a Request of them (server/methods-and-hosts.mjs, docs/decisions/080);
// - a request must arrive within REQUEST_TIMEOUT_MS (30 s; its headers within 15 s), and one address
//   holds at most MAX_CONNECTIONS_PER_CLIENT (64) sockets (server/http-guards.mjs, docs/decisions/039);
// - GET /api/v1/products and POST /mcp are answered before Express and Remix by the functions the build exports
//   for them, which run the routes' own code (server/lean-api.mjs, docs/decisions/068 and 077);
// - a response body is written as fast as the client reads it, and cancelled when the client goes away
//   (server/send-response.mjs, docs/decisions/083);
// - SIGTERM/SIGINT stop taking connections and let requests in flight finish.
//
//   node server/index.mjs   # PORT (3000), HOST (all interfaces), ACCESS_LOG (on), MAX_BODY_BYTES (1 MB),
//                           # REMIX_BUILD (build/server/index.js); checked first by server/env.mjs
import cluster from "node:cluster";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";
import { createRequestHandler, installGlobals } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { BODY_LIMITS, answeredByBodyLimit, bodyCapFor, limitRequestBodies } from "./body-limit.mjs";
import { parseServerEnv } from "./env.mjs";
import { precompressedAssets } from "./precompressed-assets.mjs";
import { callLoader, fixedResourceRoutes } from "./fast-routes.mjs";
import { createGuardedServer } from "./http-guards.mjs";
import { leanApiHandler } from "./lean-api.mjs";
import { LISTENING_MESSAGE, portInUseMessage } from "./node-args.mjs";
import { remixRequest } from "./remix-request.mjs";
import { sendResponse } from "./send-response.mjs";
import { installProcessGuard } from "./process-guard.mjs";
import { alignHostWithOrigin, answerClientError, refuseConnect, refuseUnservedRequests } from "./methods-and-hosts.mjs";

// An error that escapes a request, a job or a timer is logged and the server keeps serving (docs/decisions/038).
installProcessGuard();

const settings = parseServerEnv(process.env);
if (!settings.ok) {
  console.error(`The server cannot start:\n${settings.problems.map((p) => `  - ${p}`).join("\n")}`);
  process.exit(1);
}
const { port, host, accessLog, buildFile, maxBodyBytes } = settings.env;
const PUBLIC_DIR = path.resolve("public");

const build = await import(pathToFileURL(buildFile).href);
installGlobals({ nativeFetch: build.future.v3_singleFetch });

const fastRoutes = fixedResourceRoutes(build.routes);

function reportError(error, request) {
  const handleError = build.entry.module.handleError;
  if (handleError) handleError(error, { request, params: {}, context: {} });
  else console.error(error);
}

const app = express();
app.disable("x-powered-by");

if (accessLog) {
  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    res.once("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      process.stdout.write(`${req.method} ${req.originalUrl} ${res.statusCode} - ${ms.toFixed(3)} ms\n`);
    });
    next();
  });
}

// A method no route serves, or a Host that makes no URL: refused on every path, before a Request is made of it.
app.use(refuseUnservedRequests);
// Before anything that answers (only the access log comes first, so 413s are logged): no path and no
// method escapes it, the fast routes and static files included.
app.use(limitRequestBodies({ defaultMaxBytes: maxBodyBytes, limits: BODY_LIMITS }));
// Level 1: JSON pages compress about as well as at the default 6 for a fraction of the CPU. Browsers ask for
// brotli, which the middleware prefers: quality 3 with a 256 KB window (larger than any page) instead of its quality
// 4 with 4 MB, whose buffers, allocated and freed for every answer (and mapped afresh each time under the server's
// malloc threshold, server/node-args.mjs), cost a page ~2 ms; 5% more bytes (decision 076). The lean path below uses
// this same instance, so both make the same choice.
const compress = compression({
  level: 1,
  brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 3, [zlib.constants.BROTLI_PARAM_LGWIN]: 18 } },
});
app.use(compress);

// The client build (hashed assets, cached for a year) and public/ (copied into it by Vite, an hour).
// Only paths under one of their top-level entries reach the disk.
const CLIENT_DIR = path.resolve(build.assetsBuildDirectory ?? "build/client");
const staticEntries = new Map();
for (const [dir, options] of [
  [PUBLIC_DIR, { maxAge: "1h" }],
  [CLIENT_DIR, { maxAge: "1h" }],
]) {
  const serve = express.static(dir, options);
  for (const entry of existsSync(dir) ? readdirSync(dir) : []) staticEntries.set(entry, serve);
}
staticEntries.delete("assets");
const assets = precompressedAssets(path.join(CLIENT_DIR, "assets"));
void assets.warm();
app.use("/assets", assets, express.static(path.join(CLIENT_DIR, "assets"), { immutable: true, maxAge: "1y" }));
app.use((req, res, next) => {
  const serve = staticEntries.get(req.path.split("/")[1] ?? "");
  if (serve) serve(req, res, next);
  else next();
});

app.use(async (req, res, next) => {
  const route =
    (req.method === "GET" || req.method === "HEAD") && !("_data" in req.query) ? fastRoutes.get(req.path) : undefined;
  if (!route) return next();
  try {
    const response = await callLoader(route, remixRequest(req, res), reportError);
    if (req.method === "HEAD") {
      await response.body?.cancel().catch(() => {});
      await sendResponse(res, new Response(null, { status: response.status, headers: response.headers }));
    } else {
      await sendResponse(res, response);
    }
  } catch (error) {
    next(error);
  }
});

// What @remix-run/express's createRequestHandler does, with the body read through the body limit; when
// the limit has already answered 413 the handler's own response (or failure) is dropped.
const handleRemixRequest = createRequestHandler(build, process.env.NODE_ENV);
const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
app.all("*", async (req, res, next) => {
  try {
    const request = remixRequest(req, res);
    // A state-changing request another site sent is refused with a 403 before Remix, whose own check
    // would answer a bare 500 (app/pages/http/origin-guard.server.ts, docs/decisions/021).
    const refusal = build.entry.module.crossSiteRefusal?.(request);
    // Past our check, Remix's own must not answer 500 for a Host spelled otherwise than our Origin (decision 080).
    if (!refusal && STATE_CHANGING.has(req.method)) alignHostWithOrigin(request);
    const response = refusal ?? (await handleRemixRequest(request));
    if (answeredByBodyLimit(req)) return void (await response.body?.cancel().catch(() => {}));
    await sendResponse(res, response);
  } catch (error) {
    if (!answeredByBodyLimit(req)) next(error);
  }
});

// GET /api/v1/products and POST /mcp answered before Express, by the routes' own code (server/lean-api.mjs,
// docs/decisions/068 and 077); every other request, and any of those Express would treat differently, goes to Express.
const lean = leanApiHandler({ build, compress, accessLog, reportError, maxBodyBytes });
const handler = lean ? (req, res) => void (lean(req, res) || app(req, res)) : app;

// Request and header timeouts, and a cap on one address's open sockets (server/http-guards.mjs).
const server = createGuardedServer(handler, settings.env);
// CONNECT and methods Node's parser does not know never reach the handler: answered here (decision 080).
server.on("connect", refuseConnect);
server.on("clientError", answerClientError);
server.listen(port, host, () => {
  // With several workers (server/workers.mjs) only the first says so.
  if ((process.env.SERVER_WORKER ?? "1") === "1") console.log(`[server] http://localhost:${port}`);
  // To `npm start` (in a worker the primary says it: server/workers.mjs).
  if (!cluster.isWorker) process.send?.(LISTENING_MESSAGE);
});
// A port another program holds stops the server with a sentence naming it (decision 080); a supervisor restarts it.
server.on("error", (/** @type {NodeJS.ErrnoException} */ error) => {
  // "bind" in a cluster worker: the primary binds the port for it (server/workers.mjs).
  if (error.syscall !== "listen" && error.syscall !== "bind") throw error;
  const why = error.code === "EADDRINUSE" ? portInUseMessage(port, host) : `it cannot listen on port ${port} (${error.code}).`;
  console.error(`The server cannot start: ${why}`);
  process.exit(1);
});

// `Expect: 100-continue` (curl sends it for large bodies): a body over the cap is refused before the
// client sends it; any other gets "100 Continue" as Node would send it itself.
server.on("checkContinue", (req, res) => {
  const pathname = (req.url ?? "/").split("?")[0];
  const cap = bodyCapFor(pathname, BODY_LIMITS, maxBodyBytes);
  if (Number(req.headers["content-length"] ?? 0) <= cap) res.writeContinue();
  server.emit("request", req, res);
});

for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections?.();
    // Requests still running after 10 s are cut off.
    setTimeout(() => process.exit(0), 10_000).unref();
  });
}
