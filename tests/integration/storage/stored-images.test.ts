// Imports with real image URLs (docs/decisions/028), against a local HTTP server on 127.0.0.1 (reached through
// the SSRF-safe fetcher's allow-list, as the competitor tracker's tests do): the import itself never waits on
// the network (an "images.fetch" job is queued); the job fetches each URL once, keeps JPEG/PNG/WebP/GIF judged
// from the bytes, refuses a wrong type with an image name, an oversized body, a 404, a slow answer and a giant
// canvas with a sentence each (those products show their category drawing), and the product then shows the
// stored copy, served by /product-images/stored/{file} with long cache headers. An ad draws the stored photo.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { getEnv } from "~/env.server";
import { createFileStorage } from "~/integrations/file-storage.server";
import { createImageFetcher } from "~/integrations/image-fetch.server";
import { createSafeFetcher, type SafeFetcher } from "~/integrations/safe-fetch.server";
import { loader as storedImageRoute } from "~/routes/product-images.stored.$file";
import { createJobs, type Jobs } from "~/services/jobs.server";
import { importProducts } from "~/services/products/import.server";
import { createStoredImages, imageFetchReport, IMAGES_FETCH_JOB, type StoredImages } from "~/services/stored-images.server";
import { png } from "../../helpers/png";
import { call } from "../../helpers/routes";

const require = createRequire(import.meta.url);
const { Resvg } = require("@resvg/resvg-js") as typeof import("@resvg/resvg-js");

const RED_PNG = png(64, 48, [255, 0, 0]);
const JPEG = readFileSync(path.join(__dirname, "../../fixtures/product-photo.jpg"));
const WEBP = Buffer.from("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==", "base64");
/** A PNG whose header claims 20000 x 20000 pixels (a decompression bomb in waiting). */
const GIANT_PNG = (() => {
  const p = png(1, 1, [0, 0, 0]);
  p.writeUInt32BE(20000, 16);
  p.writeUInt32BE(20000, 20);
  return p;
})();

let server: Server;
let base = "";
const hits = new Map<string, number>();
let fetcher: SafeFetcher;
let jobs: Jobs;
let images: StoredImages;

function handler(req: IncomingMessage, res: ServerResponse) {
  const url = req.url ?? "/";
  hits.set(url, (hits.get(url) ?? 0) + 1);
  const send = (type: string, body: Buffer) => {
    res.writeHead(200, { "Content-Type": type, "Content-Length": body.length });
    res.end(body);
  };
  switch (url) {
    case "/red.png":
      return send("image/png", RED_PNG);
    case "/photo.jpg":
      return send("image/jpeg", JPEG);
    case "/tiny.webp":
      return send("image/webp", WEBP);
    case "/shirt.jpg": // a web page behind an image name and an image Content-Type
      return send("image/jpeg", Buffer.from("<!doctype html><html><body>Not an image</body></html>"));
    case "/huge.png":
      return send("image/png", Buffer.concat([RED_PNG, Buffer.alloc(6 * 1024 * 1024)]));
    case "/giant.png":
      return send("image/png", GIANT_PNG);
    case "/slow.png":
      setTimeout(() => {
        if (!res.destroyed) send("image/png", RED_PNG);
      }, 3000);
      return;
    default:
      res.writeHead(404, { "Content-Type": "text/plain" });
      res.end("not found");
  }
}

function row(objectID: string, imageUrls: string[], niche = "bags") {
  return {
    objectID,
    title: `Canvas Tote Bag ${objectID}`,
    description: "A tote bag.",
    niches: [niche],
    tags: [],
    images: imageUrls,
    costCents: 500,
    priceCents: 2499,
    firstSeenAt: "2026-05-01",
    history: { startDay: "2026-05-30", orders: [1, 2], revenueCents: [2499, 4998], views: [10, 20], likes: [1, 1], comments: [0, 0], shares: [0, 0], storesSelling: [1, 1] },
  };
}

const shown = async (objectID: string) =>
  JSON.parse((await db.product.findUniqueOrThrow({ where: { objectID }, select: { images: true } })).images) as string[];

beforeAll(async () => {
  server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  fetcher = createSafeFetcher({ contactUrl: "https://winningproducts.test/bot", allowHosts: [`127.0.0.1:${port}`] });
  // The same folder the app serves /product-images/stored/ from (an images folder beside the videos).
  images = createStoredImages({
    db,
    fetcher: createImageFetcher({ fetcher, limits: { timeoutMs: 500 } }),
    storage: createFileStorage(path.join(getEnv().VIDEO_STORAGE_DIR, "images")),
  });
  jobs = createJobs({ db, ownerId: "stored-images-test" });
  images.registerJobs(jobs);
});

afterAll(async () => {
  fetcher.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await db.$disconnect();
});

describe("an import with image URLs", () => {
  const urls = () => ({
    png: `${base}/red.png`,
    jpeg: `${base}/photo.jpg`,
    webp: `${base}/tiny.webp`,
    wrongType: `${base}/shirt.jpg`,
    huge: `${base}/huge.png`,
    missing: `${base}/gone.png`,
    slow: `${base}/slow.png`,
    giant: `${base}/giant.png`,
  });

  it("fetches each URL once in a job, shows the stored copies, and the category drawing with the reason for the others", async () => {
    const u = urls();
    const summary = await importProducts(
      db,
      [
        { line: 1, row: row("img-a", [u.png, "/product-images/img-a-2.svg", u.jpeg]) },
        { line: 2, row: row("img-b", [u.wrongType, u.huge, u.missing, u.slow, u.giant]) },
        { line: 3, row: row("img-c", [u.png, u.webp]) }, // the same PNG URL as img-a: fetched once
      ],
      { imageJobs: jobs, now: new Date("2026-06-01T09:00:00Z") },
    );
    expect(summary).toMatchObject({ imported: 3, rejected: [] });
    expect(summary.images).toMatchObject({ products: 3, urls: 8, alreadyStored: 0, toFetch: 8 });
    expect(summary.images.jobIds).toHaveLength(1);
    // Nothing was fetched during the import: the products list the URLs as given meanwhile.
    expect(hits.size).toBe(0);
    expect(await shown("img-a")).toEqual([u.png, "/product-images/img-a-2.svg", u.jpeg]);

    const ran = await jobs.runDue({ kinds: [IMAGES_FETCH_JOB] });
    expect(ran).toMatchObject({ ran: 1, done: 1 });
    expect(hits.get("/red.png")).toBe(1);

    const a = await shown("img-a");
    expect(a[0]).toMatch(/^\/product-images\/stored\/[0-9a-f]{64}\.png$/);
    expect(a[1]).toBe("/product-images/img-a-2.svg");
    expect(a[2]).toMatch(/^\/product-images\/stored\/[0-9a-f]{64}\.jpg$/);
    const c = await shown("img-c");
    expect(c[0]).toBe(a[0]);
    expect(c[1]).toMatch(/\.webp$/);
    // Every refused image keeps the category drawing at its place.
    expect(await shown("img-b")).toEqual([1, 2, 3, 4, 5].map((n) => `/product-images/img-b-${n}.svg`));

    const report = await imageFetchReport(db, ["img-a", "img-b", "img-c"]);
    expect(report).toMatchObject({ stored: 3, pending: 0 });
    const reasons = Object.fromEntries(report.failed.map((f) => [f.url, f.reason]));
    expect(reasons[u.wrongType]).toMatch(/not a JPEG, PNG, WebP or GIF image/);
    expect(reasons[u.huge]).toMatch(/larger than 5 MB/);
    expect(reasons[u.missing]).toMatch(/answered 404/);
    expect(reasons[u.slow]).toMatch(/did not answer within 0.5 s/);
    expect(reasons[u.giant]).toMatch(/20000x20000 pixels/);

    // The stored file is served with long cache headers, byte for byte what the server sent.
    const file = a[0].split("/").pop()!;
    const res = await call(storedImageRoute, a[0], { params: { file } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await res.arrayBuffer()).equals(RED_PNG)).toBe(true);
    const again = await call(storedImageRoute, a[0], { params: { file }, headers: { "if-none-match": res.headers.get("etag")! } });
    expect(again.status).toBe(304);

    // Imported again: stored images show at once and are not fetched again; a failed one is tried again.
    const second = await importProducts(db, [{ line: 1, row: row("img-a", [u.png, u.jpeg]) }, { line: 2, row: row("img-d", [u.missing]) }], {
      imageJobs: jobs,
    });
    expect(second.images).toMatchObject({ products: 2, urls: 3, alreadyStored: 2, toFetch: 1 });
    expect((await shown("img-a"))[1]).toMatch(/\.jpg$/);
    await jobs.runDue({ kinds: [IMAGES_FETCH_JOB] });
    expect(hits.get("/red.png")).toBe(1);
    expect(hits.get("/photo.jpg")).toBe(1);
    expect(hits.get("/gone.png")).toBe(2);
    expect(await shown("img-d")).toEqual(["/product-images/img-d-1.svg"]);
  }, 30_000);

  it("refuses malformed or unknown stored names with 404", async () => {
    for (const file of ["", "x.png", `${"a".repeat(64)}.png`, `${"a".repeat(64)}.svg`, `../${"a".repeat(64)}.png`, `${"A".repeat(64)}.png`]) {
      const res = await call(storedImageRoute, `/product-images/stored/${encodeURIComponent(file)}`, { params: { file } });
      expect(res.status, file).toBe(404);
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
  });

  it("queues the fetch in the Job table when no jobs handle is given (a CLI or a tracked-store import)", async () => {
    const summary = await importProducts(db, [{ line: 1, row: row("img-e", [`${base}/red.png?v=2`]) }]);
    expect(summary.images.toFetch).toBe(1);
    const job = await db.job.findUniqueOrThrow({ where: { id: Number(summary.images.jobIds[0]) }, select: { kind: true, status: true, payload: true } });
    expect(job).toMatchObject({ kind: IMAGES_FETCH_JOB, status: "queued" });
    expect(JSON.parse(job.payload)).toEqual({ objectIDs: ["img-e"] });
  });

  it("gives ads the stored photo (drawn once, small), and nothing for a product without one", async () => {
    const a = await shown("img-a");
    const svg = await images.photoSvg(["/product-images/img-a-1.svg", a[0]]);
    expect(svg).not.toBeNull();
    expect(svg!.length).toBeLessThan(200_000);
    const frame = new Resvg(svg!, { fitTo: { mode: "width", value: 100 } }).render();
    const centre = (50 * frame.width + 50) * 4;
    expect([...frame.pixels.slice(centre, centre + 3)]).toEqual([255, 0, 0]); // the red photo, not a drawing
    // WebP cannot be drawn by the renderer: the ad keeps the category drawing.
    expect(await images.photoSvg([(await shown("img-c"))[1]])).toBeNull();
    expect(await images.photoSvg(["/product-images/img-b-1.svg"])).toBeNull();
  });
});
