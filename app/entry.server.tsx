import { Writable } from "node:stream";
import type { EntryContext, HandleErrorFunction } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import * as Sentry from "@sentry/remix";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { getEnv } from "~/env.server";
import { logger } from "~/logger.server";
import { startBackgroundWork, stopBackgroundWork } from "~/services/index.server";
import { addDocumentResponseHeaders } from "~/shopify.server";

const env = getEnv();
if (env.SENTRY_DSN) {
  Sentry.init({ dsn: env.SENTRY_DSN, tracesSampleRate: 1, environment: env.NODE_ENV });
}

export const streamTimeout = 5000;

// The server process runs the background jobs too (docs/decisions/022), unless JOBS_WORKER=off. Tests
// import routes, not this entry, so they run no worker.
if (env.JOBS_WORKER === "on" && env.NODE_ENV !== "test") {
  startBackgroundWork();
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void stopBackgroundWork());
}

/** The server asks this before Remix handles a request (server/index.mjs): a 403 for a cross-site state change. */
export { crossSiteRefusal } from "~/pages/http/origin-guard.server";

/** The server answers GET /api/v1/products and POST /mcp with these before Express (server/index.mjs, decisions 068, 077). */
export { LEAN_MCP_PATH, leanApiAnswer, leanApiPath, leanMcpAnswer } from "~/api/lean.server";

export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  // A URL no route serves (a bot probing, an old bookmark) is the visitor's mistake, not ours.
  if (isRouteErrorResponse(error) && (error.status === 404 || error.status === 405)) {
    logger.info({ url: request.url, method: request.method, status: error.status }, "no route for this request");
    return;
  }
  logger.error({ err: error, url: request.url, method: request.method }, "unhandled error");
  if (env.SENTRY_DSN) Sentry.captureException(error);
};

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  // Shopify's frame-ancestors CSP and friends for documents served inside admin.
  addDocumentResponseHeaders(request, responseHeaders);
  const userAgent = request.headers.get("user-agent");
  const bot = isbot(userAgent ?? "");

  // The whole document is rendered before it is sent, as one buffer: no page streams data (no `defer`), so
  // nothing arrives sooner by streaming, and each of React's ~2 KB chunks would otherwise go through a
  // Node stream, a web stream, Express and its own gzip call (docs/decisions/039). A crawler's page is
  // rendered in full (onAllReady); a person's status is the one known when the shell was ready, as before.
  return new Promise((resolve, reject) => {
    let status = responseStatusCode;
    const chunks: Buffer[] = [];
    // Cleared once the document is complete: a pending timer would hold the render's whole state (its tree,
    // the loaders' data) until it fired, so a busy server kept seconds of pages alive for the collector.
    const timeout = setTimeout(() => abort(), streamTimeout + 1000);
    const body = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
      final(done) {
        clearTimeout(timeout);
        responseHeaders.set("Content-Type", "text/html");
        resolve(new Response(Buffer.concat(chunks), { headers: responseHeaders, status }));
        done();
      },
    });
    const { pipe, abort } = renderToPipeableStream(<RemixServer context={remixContext} url={request.url} />, {
      onShellReady() {
        status = responseStatusCode;
        if (!bot) pipe(body);
      },
      onAllReady() {
        if (bot) {
          status = responseStatusCode;
          pipe(body);
        }
      },
      onShellError(error) {
        clearTimeout(timeout);
        reject(error);
      },
      onError(error) {
        responseStatusCode = 500;
        logger.error({ err: error }, "render error");
      },
    });
  });
}
