// The client build's hashed scripts and styles, compressed once at the strongest settings (Brotli 11,
// gzip 9) and kept in memory, instead of at level 1 on every request (docs/decisions/027): Polaris'
// stylesheet blocks the first paint, and on a phone it is 41 KB with Brotli 11 against 72 KB with gzip 1.
// The files never change under their names (immutable, cached for a year), so neither does their
// compressed form. Other files, and clients that accept neither encoding, fall through to express.static.
import { existsSync, readdirSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const TYPES = { ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8" };
/** Smaller files gain little: the usual compression answers them. */
const MIN_BYTES = 1024;

/** Picks br, then gzip, from an Accept-Encoding header (a q=0 refuses one). */
export function pickEncoding(acceptEncoding) {
  const offered = new Map();
  for (const part of (acceptEncoding ?? "").toLowerCase().split(",")) {
    const [name, ...params] = part.trim().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    offered.set(name.trim(), q ? Number(q.slice(2)) : 1);
  }
  for (const encoding of ["br", "gzip"]) if ((offered.get(encoding) ?? offered.get("*") ?? 0) > 0) return encoding;
  return null;
}

/**
 * Express middleware for the folder of hashed assets (mounted at /assets). Only the scripts and styles
 * found in the folder at start are served (so requests cannot fill the cache); `warm()` compresses them
 * all ahead of the first request, on zlib's thread pool.
 */
export function precompressedAssets(dir) {
  const names = new Set(existsSync(dir) ? readdirSync(dir).filter((name) => TYPES[path.extname(name)]) : []);
  /** file name -> Promise<{ br, gzip } | null> (null: too small to be worth it) */
  const cache = new Map();

  async function compress(name) {
    const body = await readFile(path.join(dir, name));
    if (body.length < MIN_BYTES) return null;
    const [br, gz] = await Promise.all([
      brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
      gzip(body, { level: 9 }),
    ]);
    return { br, gzip: gz };
  }

  function compressed(name) {
    if (!cache.has(name)) cache.set(name, compress(name));
    return cache.get(name);
  }

  const middleware = async (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const name = req.path.slice(1);
    if (!names.has(name)) return next();
    const encoding = pickEncoding(req.headers["accept-encoding"]);
    if (!encoding) return next();
    try {
      const files = await compressed(name);
      if (!files) return next();
      const body = files[encoding];
      res.setHeader("Content-Type", TYPES[path.extname(name)]);
      res.setHeader("Content-Encoding", encoding);
      res.setHeader("Content-Length", String(body.length));
      res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
      res.setHeader("Vary", "Accept-Encoding");
      res.end(req.method === "HEAD" ? undefined : body);
    } catch (error) {
      next(error);
    }
  };
  middleware.warm = async () => {
    // Stylesheets first (they hold the first paint back), then the largest scripts.
    const sizes = new Map([...names].map((name) => [name, statSync(path.join(dir, name)).size]));
    const order = [...names].sort((a, b) => Number(b.endsWith(".css")) - Number(a.endsWith(".css")) || sizes.get(b) - sizes.get(a));
    for (const name of order) await compressed(name).catch(() => null);
  };
  return middleware;
}
