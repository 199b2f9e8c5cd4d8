// How the production server writes a streamed answer (server/send-response.mjs, decision 083), on a real socket behind
// the same compression middleware: a body is read only as fast as the client takes it (a client that stops reading
// stops the reading of the body after a bounded number of chunks), and a client that goes away cancels the body, so
// its source stops reading. Remix's own loop (writeReadableStreamToWritable) read a body to its end whatever the
// client did, in one run of microtasks when the body's source needed no I/O.
import http from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendResponse } from "../../../server/send-response.mjs";

// The server's own Express and compression middleware (untyped here: the server is plain JavaScript).
type Handler = (req: http.IncomingMessage, res: http.ServerResponse, next: (error?: unknown) => void) => void;
const require = createRequire(import.meta.url);
const express = require("express") as () => http.RequestListener & { use(h: Handler): void; get(path: string, h: Handler): void };
const compression = require("compression") as (options: { level: number }) => Handler;

const CHUNK = randomBytes(256 * 1024); // incompressible: the compressor passes it on at its size
const CHUNKS = 400; // 100 MB: far more than the socket's buffers hold

/** A body whose pulls and cancellation the test can see. */
function countedBody() {
  const seen = { pulls: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (seen.pulls === CHUNKS) return controller.close();
        seen.pulls++;
        controller.enqueue(CHUNK);
      },
      cancel() {
        seen.cancelled = true;
      },
    },
    { highWaterMark: 1 },
  );
  return { body, seen };
}

let bodies: ReturnType<typeof countedBody>[] = [];
let server: http.Server;
let port = 0;

beforeAll(async () => {
  const app = express();
  app.use(compression({ level: 1 }));
  app.get("/file", (_req, res, next) => {
    const counted = countedBody();
    bodies.push(counted);
    sendResponse(res, new Response(counted.body, { headers: { "Content-Type": "text/csv" } })).catch(next);
  });
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Turns of the event loop until `f()` stops changing (the server has done what it will do for now). */
async function settled(f: () => unknown, quietTurns = 20) {
  let last = f();
  for (let quiet = 0; quiet < quietTurns; ) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    const now = f();
    quiet = now === last ? quiet + 1 : 0;
    last = now;
  }
}

/**
 * GET /file; resolves once the answer's first bytes arrived, paused (the client reads nothing more until resumed),
 * with the count of the bytes received so far.
 */
function openPaused(headers: Record<string, string> = {}) {
  return new Promise<{ req: http.ClientRequest; res: http.IncomingMessage; received: () => number }>((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path: "/file", agent: false, headers }, (res) => {
      let received = 0;
      res.on("data", (d: Buffer) => (received += d.length));
      res.once("data", () => {
        res.pause();
        resolve({ req, res, received: () => received });
      });
    });
    req.on("error", reject);
  });
}

describe("a streamed answer to a client that stops reading", () => {
  for (const encoding of ["identity", "gzip"]) {
    it(`reads a bounded number of chunks ahead, then the rest as the client reads (${encoding})`, async () => {
      bodies = [];
      const { res, received } = await openPaused({ "accept-encoding": encoding });
      expect(res.headers["content-encoding"]).toBe(encoding === "gzip" ? "gzip" : undefined);
      const { seen } = bodies[0];
      await settled(() => seen.pulls);
      // The socket's and the compressor's buffers hold a few MB: the body was not read to its end (Remix's loop read
      // all 400 chunks, 100 MB, into memory at once).
      expect(seen.pulls).toBeLessThan(CHUNKS / 4);
      res.resume();
      await new Promise((resolve) => res.on("end", resolve));
      expect(seen.pulls).toBe(CHUNKS);
      if (encoding === "identity") expect(received()).toBe(CHUNKS * CHUNK.length);
    }, 60_000);
  }

  it("cancels the body when the client goes away, and reads nothing more", async () => {
    bodies = [];
    const { req } = await openPaused();
    const { seen } = bodies[0];
    await settled(() => seen.pulls);
    req.destroy();
    await settled(() => `${seen.pulls} ${seen.cancelled}`);
    expect(seen.cancelled).toBe(true);
    expect(seen.pulls).toBeLessThan(CHUNKS / 4);
  }, 60_000);
});
