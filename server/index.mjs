// The production HTTP server: what remix-serve does (Express, compression, the built assets, public/,
// Remix's request handler), without its costs on every request (docs/decisions/017):
// - public/ is only looked up for paths that start with one of its entries (remix-serve stats the
//   disk for every request, /api/products included);
// - the access log is one line written when a response finishes (ACCESS_LOG=off turns it off);
// - a GET to a resource route with a fixed path (e.g. /api/products, /healthz) calls that route's
//   loader directly, as Remix's own resource-route handling does, instead of matching the whole
//   route tree twice per request (Remix 2 flattens and ranks every route on every match);
// - SIGTERM/SIGINT stop taking connections and let requests in flight finish.
//
//   node server/index.mjs            # PORT (3000), HOST (all interfaces), build/server/index.js
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRemixRequest, sendRemixResponse } from "@remix-run/express/dist/server.js";
import { createRequestHandler } from "@remix-run/express";
import { installGlobals } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { callLoader, fixedResourceRoutes } from "./fast-routes.mjs";

const BUILD = path.resolve(process.env.REMIX_BUILD ?? "build/server/index.js");
const PUBLIC_DIR = path.resolve("public");
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST || undefined;
const accessLog = !/^(off|false|0)$/i.test(process.env.ACCESS_LOG ?? "");

const build = await import(pathToFileURL(BUILD).href);
installGlobals({ nativeFetch: build.future.v3_singleFetch });

const fastRoutes = fixedResourceRoutes(build.routes);

function reportError(error, request) {
  const handleError = build.entry.module.handleError;
  if (handleError) handleError(error, { request, params: {}, context: {} });
  else console.error(error);
}

const app = express();
app.disable("x-powered-by");
// Level 1: JSON pages compress about as well as at the default 6 for a fraction of the CPU.
app.use(compression({ level: 1 }));

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
app.use("/assets", express.static(path.join(CLIENT_DIR, "assets"), { immutable: true, maxAge: "1y" }));
app.use((req, res, next) => {
  const serve = staticEntries.get(req.path.split("/")[1] ?? "");
  if (serve) serve(req, res, next);
  else next();
});

app.use(async (req, res, next) => {
  const route = (req.method === "GET" || req.method === "HEAD") && !("_data" in req.query) ? fastRoutes.get(req.path) : undefined;
  if (!route) return next();
  try {
    const response = await callLoader(route, createRemixRequest(req, res), reportError);
    if (req.method === "HEAD") {
      await sendRemixResponse(res, new Response(null, { status: response.status, headers: response.headers }));
    } else {
      await sendRemixResponse(res, response);
    }
  } catch (error) {
    next(error);
  }
});

app.all("*", createRequestHandler({ build, mode: process.env.NODE_ENV }));

const server = app.listen(port, host, () => {
  console.log(`[server] http://localhost:${port}`);
});

for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections?.();
    // Requests still running after 10 s are cut off.
    setTimeout(() => process.exit(0), 10_000).unref();
  });
}
