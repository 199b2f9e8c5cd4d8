// What the production server compresses a page with (server/index.mjs, decision 076): brotli for a browser that asks
// for it, with a 256 KB window (2^18, read from the stream's own header) rather than the middleware's 4 MB, gzip for a
// client that asks only for gzip, nothing for one that asks for nothing; each the same document once decompressed.
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureProductionBuild, rawRequest, startServer, type RunningServer } from "../../helpers/production-server";

let server: RunningServer;

beforeAll(async () => {
  ensureProductionBuild();
  server = await startServer({ JOBS_WORKER: "off" });
}, 300_000);

afterAll(async () => {
  await server?.stop();
});

/** The page on a socket of its own, asking for this encoding (null: no Accept-Encoding header at all). */
const get = (path: string, acceptEncoding: string | null) =>
  rawRequest(server.port, { path, headers: acceptEncoding === null ? {} : { "accept-encoding": acceptEncoding } });

/**
 * The sliding window a brotli stream declares in its first bits (RFC 7932, 9.1): 0 means 2^16; else three bits n, and
 * n > 0 means 2^(17 + n); n = 0 is followed by three more (2^10 to 2^15, or 2^17 for 0).
 */
function brotliWindowBits(stream: Buffer): number {
  const bits = stream[0];
  if ((bits & 1) === 0) return 16;
  const n = (bits >> 1) & 7;
  if (n !== 0) return 17 + n;
  const m = (bits >> 4) & 7;
  return m === 0 ? 17 : 8 + m;
}

describe("the production server's compression of a page", () => {
  it("answers a browser with brotli on a 256 KB window, a gzip-only client with gzip, and the same document each time", async () => {
    const plain = await get("/privacy", null);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(10_000);

    const browser = await get("/privacy", "gzip, deflate, br, zstd");
    expect(browser.headers["content-encoding"]).toBe("br");
    expect(brotliWindowBits(browser.body)).toBe(18);
    expect(brotliDecompressSync(browser.body).toString()).toBe(plain.body.toString());
    expect(browser.body.length).toBeLessThan(plain.body.length / 2.5);

    const gzipOnly = await get("/privacy", "gzip");
    expect(gzipOnly.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzipOnly.body).toString()).toBe(plain.body.toString());
  });

  it("reads the window as RFC 7932 writes it (the default 4 MB window is 22)", async () => {
    const { brotliCompressSync, constants } = await import("node:zlib");
    for (const lgwin of [16, 18, 22, 24]) {
      expect(brotliWindowBits(brotliCompressSync(Buffer.from("x".repeat(5000)), { params: { [constants.BROTLI_PARAM_LGWIN]: lgwin } }))).toBe(lgwin);
    }
  });
});
