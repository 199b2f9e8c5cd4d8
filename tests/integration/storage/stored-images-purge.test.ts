// The clean-up of fetched product images (docs/decisions/037) on a real database, a temporary storage folder
// and a local image server on 127.0.0.1 (reached through the SSRF-safe fetcher's allow-list, as in
// stored-images.test.ts): a StoredImage row no product's images name any more goes after the grace period,
// with its file unless another row (another URL with the same bytes) still names it; rows inside the grace
// period stay; a deleted product's images go; a second run removes nothing; `npm run images -- purge` prints
// what it removed. Then the search side: fetched images reach the built-in engine's cards (read from the
// Product table) and, through the Algolia adapter, the Algolia records.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, sqlReader } from "~/db.server";
import { researchAccess } from "~/domain/products/research-access";
import { createAlgoliaEngine } from "~/integrations/algolia.server";
import { createFileStorage } from "~/integrations/file-storage.server";
import { createImageFetcher } from "~/integrations/image-fetch.server";
import { createSafeFetcher, type SafeFetcher } from "~/integrations/safe-fetch.server";
import { createJobs, type Jobs } from "~/services/jobs.server";
import { importProducts } from "~/services/products/import.server";
import { searchProducts } from "~/services/products.server";
import { CatalogSearch } from "~/services/search/catalog-search.server";
import {
  createStoredImages,
  IMAGES_FETCH_JOB,
  IMAGES_PURGE_JOB,
  IMAGES_PURGE_SCHEDULE,
  STORED_IMAGE_PATH,
  type StoredImages,
} from "~/services/stored-images.server";
import { startFakeAlgolia, type FakeAlgolia } from "../../helpers/algolia-server";
import { runScript } from "../../helpers/cli";
import { png } from "../../helpers/png";
import { createUser } from "../../helpers/site-users";
import { algoliaRowSource } from "~/services/search/algolia-rows.server";
import { parseProductQuery } from "~/domain/products/product-query";

/** Every "/same-*.png" answers these bytes: two URLs, one content-addressed file. */
const SHARED_PNG = png(10, 10, [0, 128, 255]);

let server: Server;
let base = "";
let fetcher: SafeFetcher;
let videoDir = "";
let imagesDir = "";
let jobs: Jobs;
let images: StoredImages;

/** "/{name}.png": a PNG whose colour and size come from the name, so each name is a different file. */
function handler(req: IncomingMessage, res: ServerResponse) {
  const name = new URL(req.url ?? "/", "http://x").pathname.slice(1);
  const send = (body: Buffer) => {
    res.writeHead(200, { "Content-Type": "image/png", "Content-Length": body.length });
    res.end(body);
  };
  if (name.startsWith("same-")) return send(SHARED_PNG);
  const h = createHash("sha256").update(name).digest();
  return send(png(8 + (h[3] % 40), 8 + (h[4] % 40), [h[0], h[1], h[2]]));
}

const DAY = 86_400_000;
const longAgo = (days: number) => new Date(Date.now() - days * DAY);

function row(objectID: string, imageUrls: string[], title = `Purge Test Lamp ${objectID}`) {
  return {
    objectID,
    title,
    description: "A lamp.",
    niches: ["lighting"],
    tags: [],
    images: imageUrls,
    costCents: 500,
    priceCents: 2499,
    firstSeenAt: "2026-05-01",
    history: { startDay: "2026-05-30", orders: [1, 2], revenueCents: [2499, 4998], views: [10, 20], likes: [1, 1], comments: [0, 0], shares: [0, 0], storesSelling: [1, 1] },
  };
}

/** Imports the products (as of `now`, which becomes the new StoredImage rows' createdAt) and runs the fetch. */
async function importAndFetch(products: { objectID: string; urls: string[]; title?: string }[], now: Date, options: { onCommitted?: (ids: string[]) => Promise<void> } = {}) {
  const summary = await importProducts(
    db,
    products.map((p, i) => ({ line: i + 1, row: row(p.objectID, p.urls, p.title) })),
    { imageJobs: jobs, now, onCommitted: options.onCommitted },
  );
  expect(summary.rejected).toEqual([]);
  await jobs.runDue({ kinds: [IMAGES_FETCH_JOB] });
}

const shown = async (objectID: string) =>
  JSON.parse((await db.product.findUniqueOrThrow({ where: { objectID }, select: { images: true } })).images) as string[];
const fileOf = async (url: string) => (await db.storedImage.findUnique({ where: { url }, select: { fileName: true } }))?.fileName ?? null;
const filesOnDisk = () => readdirSync(imagesDir).sort();
const bytesOf = (name: string) => statSync(path.join(imagesDir, name)).size;

beforeAll(async () => {
  server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  fetcher = createSafeFetcher({ contactUrl: "https://winningproducts.test/bot", allowHosts: [`127.0.0.1:${port}`] });
  // VIDEO_STORAGE_DIR/images, as the app lays it out, so the CLI (given VIDEO_STORAGE_DIR) sees the same files.
  videoDir = mkdtempSync(path.join(os.tmpdir(), "purge-images-"));
  imagesDir = path.join(videoDir, "images");
  images = createStoredImages({ db, fetcher: createImageFetcher({ fetcher }), storage: createFileStorage(imagesDir) });
  jobs = createJobs({ db, ownerId: "stored-images-purge-test" });
  images.registerJobs(jobs);
});

afterAll(async () => {
  fetcher.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(videoDir, { recursive: true, force: true });
  await db.$disconnect();
});

describe("purging stored images", () => {
  it("deletes the row and file of a URL a re-import dropped, keeps the new one, and a second run removes nothing", async () => {
    const oldUrl = `${base}/lamp-old.png`;
    const newUrl = `${base}/lamp-new.png`;
    await importAndFetch([{ objectID: "pg-a", urls: [oldUrl] }], longAgo(3));
    const oldFile = (await fileOf(oldUrl))!;
    expect(oldFile).toMatch(/\.png$/);
    const oldBytes = bytesOf(oldFile);

    await importAndFetch([{ objectID: "pg-a", urls: [newUrl] }], longAgo(2));
    const newFile = (await fileOf(newUrl))!;
    expect(await shown("pg-a")).toEqual([`${STORED_IMAGE_PATH}${newFile}`]);
    expect(filesOnDisk()).toEqual(expect.arrayContaining([oldFile, newFile]));

    const first = await images.purge();
    expect(first).toMatchObject({ rows: 1, files: 1, bytes: oldBytes });
    expect(await fileOf(oldUrl)).toBeNull();
    expect(await db.storedImage.count({ where: { url: oldUrl } })).toBe(0);
    expect(filesOnDisk()).not.toContain(oldFile);
    expect(filesOnDisk()).toContain(newFile);
    // The product still shows its picture, served from the file that stayed.
    expect(await images.getFile(newFile)).not.toBeNull();
    expect(await images.getFile(oldFile)).toBeNull();

    const before = filesOnDisk();
    const rowsBefore = await db.storedImage.count();
    expect(await images.purge()).toMatchObject({ rows: 0, sources: 0, files: 0, bytes: 0 });
    expect(filesOnDisk()).toEqual(before);
    expect(await db.storedImage.count()).toBe(rowsBefore);
  });

  it("keeps a file two URLs share while one of them is still used, and removes it with the last", async () => {
    const urlB = `${base}/same-b.png`;
    const urlC = `${base}/same-c.png`;
    await importAndFetch(
      [
        { objectID: "pg-b", urls: [urlB] },
        { objectID: "pg-c", urls: [urlC] },
      ],
      longAgo(3),
    );
    const shared = (await fileOf(urlB))!;
    expect(await fileOf(urlC)).toBe(shared);

    await importAndFetch([{ objectID: "pg-b", urls: [`${base}/b-replacement.png`] }], longAgo(2));
    expect(await images.purge()).toMatchObject({ rows: 1, files: 0, bytes: 0 });
    expect(await fileOf(urlB)).toBeNull();
    expect(filesOnDisk()).toContain(shared);
    expect((await images.getFile(shared))!.bytes.equals(SHARED_PNG)).toBe(true);
    expect(await shown("pg-c")).toEqual([`${STORED_IMAGE_PATH}${shared}`]);

    await importAndFetch([{ objectID: "pg-c", urls: [] }], longAgo(2));
    expect(await images.purge()).toMatchObject({ rows: 1, files: 1, bytes: SHARED_PNG.length });
    expect(filesOnDisk()).not.toContain(shared);
  });

  it("keeps rows created inside the grace period until a shorter period is asked for", async () => {
    const oldUrl = `${base}/fresh-old.png`;
    await importAndFetch([{ objectID: "pg-d", urls: [oldUrl] }], new Date());
    await importAndFetch([{ objectID: "pg-d", urls: [`${base}/fresh-new.png`] }], new Date());
    const file = (await fileOf(oldUrl))!;

    expect(await images.purge()).toMatchObject({ rows: 0, files: 0 });
    expect(await fileOf(oldUrl)).toBe(file);
    expect(filesOnDisk()).toContain(file);

    expect(await images.purge({ olderThanHours: 0 })).toMatchObject({ rows: 1, files: 1 });
    expect(filesOnDisk()).not.toContain(file);
  });

  it("removes the images of a product that was deleted", async () => {
    const url = `${base}/deleted-product.png`;
    await importAndFetch([{ objectID: "pg-e", urls: [url] }], longAgo(3));
    const file = (await fileOf(url))!;
    const size = bytesOf(file);
    await db.product.delete({ where: { objectID: "pg-e" } });

    expect(await images.purge()).toMatchObject({ sources: 1, rows: 1, files: 1, bytes: size });
    expect(await db.productImageSource.count({ where: { objectID: "pg-e" } })).toBe(0);
    expect(await fileOf(url)).toBeNull();
    expect(filesOnDisk()).not.toContain(file);
  });

  it("removes old files no row names (and half-written leftovers), but not a file written moments ago", async () => {
    const stray = `${createHash("sha256").update("stray").digest("hex")}.png`;
    const leftover = `${createHash("sha256").update("leftover").digest("hex")}.jpg.4242.1700000000000.tmp`;
    const recent = `${createHash("sha256").update("recent").digest("hex")}.png`;
    for (const name of [stray, leftover, recent]) writeFileSync(path.join(imagesDir, name), Buffer.alloc(1000));
    const twoDaysAgo = longAgo(2);
    utimesSync(path.join(imagesDir, stray), twoDaysAgo, twoDaysAgo);
    utimesSync(path.join(imagesDir, leftover), twoDaysAgo, twoDaysAgo);
    // A stored file whose row is still used, however old, stays.
    const used = (await fileOf(`${base}/lamp-new.png`))!;
    utimesSync(path.join(imagesDir, used), twoDaysAgo, twoDaysAgo);

    expect(await images.purge()).toMatchObject({ rows: 0, files: 2, bytes: 2000 });
    expect(filesOnDisk()).toEqual(expect.arrayContaining([recent, used]));
    expect(filesOnDisk()).not.toContain(stray);
    expect(filesOnDisk()).not.toContain(leftover);
    // With no grace period asked for, the recent one goes too.
    expect(await images.purge({ olderThanHours: 0 })).toMatchObject({ rows: 0, files: 1, bytes: 1000 });
    expect(filesOnDisk()).not.toContain(recent);
    expect(filesOnDisk()).toContain(used);
  });

  it("gives the same outcome when two processes purge at once", async () => {
    const urls = Array.from({ length: 6 }, (_, i) => `${base}/race-${i}.png`);
    await importAndFetch([{ objectID: "pg-f", urls }], longAgo(3));
    const files = await Promise.all(urls.map(fileOf));
    await importAndFetch([{ objectID: "pg-f", urls: [urls[0]] }], longAgo(2));

    const other = createStoredImages({ db, fetcher: createImageFetcher({ fetcher }), storage: createFileStorage(imagesDir) });
    const [a, b] = await Promise.all([images.purge({ batch: 2 }), other.purge({ batch: 2 })]);
    expect(a.rows + b.rows).toBe(5);
    expect(await db.storedImage.count({ where: { url: { in: urls } } })).toBe(1);
    expect(filesOnDisk()).toContain(files[0]);
    for (const f of files.slice(1)) expect(filesOnDisk()).not.toContain(f);
  });

  it("runs daily as its own job, half an hour after the job system's purge", async () => {
    expect(jobs.kinds()).toContain(IMAGES_PURGE_JOB);
    expect(IMAGES_PURGE_SCHEDULE.pattern).toBe("47 3 * * *");
    const url = `${base}/by-the-job.png`;
    await importAndFetch([{ objectID: "pg-g", urls: [url] }], longAgo(3));
    const file = (await fileOf(url))!;
    await importAndFetch([{ objectID: "pg-g", urls: [] }], longAgo(2));
    await jobs.enqueue(IMAGES_PURGE_JOB, {});
    expect(await jobs.runDue({ kinds: [IMAGES_PURGE_JOB] })).toMatchObject({ ran: 1, done: 1 });
    expect(await fileOf(url)).toBeNull();
    expect(filesOnDisk()).not.toContain(file);
  });

  it("npm run images -- purge prints the rows, files and bytes it removed, and refuses a bad option", async () => {
    const url = `${base}/by-the-cli.png`;
    await importAndFetch([{ objectID: "pg-h", urls: [url] }], new Date());
    const file = (await fileOf(url))!;
    const size = bytesOf(file);
    await importAndFetch([{ objectID: "pg-h", urls: [] }], new Date());
    const env = { ...process.env, VIDEO_STORAGE_DIR: videoDir };

    const bad = await runScript("images", ["purge", "--older-than-hours", "soon"], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--older-than-hours is a whole number of hours from 0 to 876000, not "soon".');
    expect(filesOnDisk()).toContain(file);

    const kept = await runScript("images", ["purge"], { env });
    expect(kept.code).toBe(0);
    expect(kept.stdout).toContain("Deleted 0 image rows");
    expect(filesOnDisk()).toContain(file);

    const ran = await runScript("images", ["purge", "--older-than-hours", "0"], { env });
    expect(ran.stderr).toBe("");
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain("Deleted 1 image row no product uses");
    expect(ran.stdout).toContain(`Removed 1 file, `);
    expect(ran.stdout).toContain(`(${size} bytes)`);
    expect(filesOnDisk()).not.toContain(file);
  }, 60_000);
});

describe("fetched images in search results", () => {
  it("the built-in engine's cards show the stored copy as soon as the fetch job applied it", async () => {
    const url = `${base}/card-photo.png`;
    await importAndFetch([{ objectID: "pg-s1", urls: [url], title: "Quokkaform Desk Lamp" }], new Date());
    const file = (await fileOf(url))!;
    const { id } = await createUser({ userSubscribed: "yes" });
    const access = researchAccess(await db.user.findUniqueOrThrow({ where: { id } }));
    const result = await searchProducts(db, new CatalogSearch(sqlReader), { userId: id, access, query: parseProductQuery(new URLSearchParams("q=quokkaform")) });
    expect(result.items.map((c) => [c.objectID, c.image])).toEqual([["pg-s1", `${STORED_IMAGE_PATH}${file}`]]);
  });

  describe("with Algolia", () => {
    let fake: FakeAlgolia;
    beforeAll(async () => {
      fake = await startFakeAlgolia();
    });
    afterAll(async () => {
      await fake.close();
    });

    it("pushes the changed products' records with the stored image right after the fetch", async () => {
      const engine = createAlgoliaEngine({ appId: "TESTAPP42", apiKey: "search-key", adminApiKey: "admin-key", indexName: "products_purge", hosts: fake.hosts, rows: algoliaRowSource(db) });
      const withSync = createStoredImages({
        db,
        fetcher: createImageFetcher({ fetcher }),
        storage: createFileStorage(imagesDir),
        onImagesApplied: (objectIDs) => engine.syncProducts(objectIDs),
      });
      const syncJobs = createJobs({ db, ownerId: "stored-images-purge-algolia" });
      withSync.registerJobs(syncJobs);
      const url = `${base}/algolia-photo.png`;
      const record = () => fake.records.get("products_purge")?.get("pg-s2");

      await importProducts(db, [{ line: 1, row: row("pg-s2", [url]) }, { line: 2, row: row("pg-s3", []) }], {
        imageJobs: syncJobs,
        onCommitted: async (ids) => void (await engine.syncProducts(ids)),
      });
      // The import synced the record with the URL as given: the fetch had not run yet.
      expect(record()?.image).toBe(url);
      const writesBefore = fake.requests.filter((r) => r.path.endsWith("/batch")).length;

      expect(await syncJobs.runDue({ kinds: [IMAGES_FETCH_JOB] })).toMatchObject({ ran: 1, done: 1 });
      const file = (await fileOf(url))!;
      expect(record()?.image).toBe(`${STORED_IMAGE_PATH}${file}`);
      // Only the product whose image changed was written again, with the admin key.
      const writes = fake.requests.filter((r) => r.path.endsWith("/batch")).slice(writesBefore);
      expect(writes).toHaveLength(1);
      expect(writes[0].headers["x-algolia-api-key"]).toBe("admin-key");
      const objects = (writes[0].body?.requests as { body: { objectID: string } }[]).map((r) => r.body.objectID);
      expect(objects).toEqual(["pg-s2"]);
    });
  });
});
