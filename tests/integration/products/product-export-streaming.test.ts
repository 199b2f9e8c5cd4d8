// An export holds the event loop a page at a time, never for the whole file, stops when the client goes away, and is
// read from the database only as fast as the client downloads it (issue 35 item 1, decision 083). On a real migrated
// database: 4,800 products with 4 KB titles (a 20 MB CSV, pages of EXPORT_PAGE_SIZE rows), exported through the route in
// process and through the production server on a real socket.
import http from "node:http";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { EXPORT_PAGE_SIZE } from "~/domain/products/product-export";
import { loader as gridExport } from "~/routes/api.products.export";
import { ensureProductionBuild, startServer, type RunningServer } from "../../helpers/production-server";
import { insertProducts, PLAIN_FIXTURE } from "../../helpers/products";
import { makeRequest } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

const ROWS = 4_800;
// One long word, not many short ones: the search index has little to do with it.
const LONG_TITLE = `streamable ${"p".repeat(4_000)}`;
const PATH = "/api/products/export?format=csv&q=streamable";

let seller: Awaited<ReturnType<typeof createSignedInUser>>;

beforeAll(async () => {
  await insertProducts(db, [{ ...PLAIN_FIXTURE, objectID: "stream-0", title: LONG_TITLE, niches: ["kitchen"] }]);
  // The other 4,799 as copies of the first, in one statement (one at a time takes minutes on a busy machine).
  const columns = (await db.$queryRawUnsafe<{ name: string }[]>(`PRAGMA table_info("Product")`)).map((c) => c.name).filter((c) => c !== "id");
  const list = columns.map((c) => `"${c}"`).join(",");
  const copied = columns.map((c) => (c === "objectID" ? `'stream-' || n` : `p."${c}"`)).join(",");
  await db.$executeRawUnsafe(
    `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${ROWS - 1})
     INSERT INTO "Product" (${list}) SELECT ${copied} FROM seq, "Product" p WHERE p."objectID" = 'stream-0'`,
  );
  await db.$executeRawUnsafe(`UPDATE "CatalogState" SET "version" = "version" + 1 WHERE "id" = 1`);
  seller = await createSignedInUser({ userSubscribed: "yes" });
}, 120_000);

/** The grid's export through its route, in process, with this signal on the request. */
async function openExport(signal?: AbortSignal) {
  const request = new Request(makeRequest(PATH, { cookie: seller.cookie }), { signal });
  const response = await gridExport({ request, params: {}, context: {} });
  expect(response.status).toBe(200);
  return response.body!.getReader();
}

const linesIn = (chunk: Uint8Array) => chunk.reduce((n, b) => n + (b === 10 ? 1 : 0), 0);

describe("an export read in process", () => {
  it("gives the event loop a turn before every page, even to a reader that never waits for anything else", async () => {
    // A reader in a tight loop of reads, as Remix's own writer was: only the stream itself can let other work run.
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const reader = await openExport();
    const turnsAtChunk: number[] = [];
    let lines = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      lines += linesIn(value);
      turnsAtChunk.push(turns);
    }
    ticking = false;
    expect(lines).toBe(ROWS + 1);
    // The header, then ten pages: the other work (the ticker) ran between every two pages.
    expect(turnsAtChunk).toHaveLength(Math.ceil(ROWS / EXPORT_PAGE_SIZE) + 1);
    for (let i = 2; i < turnsAtChunk.length; i++) expect(turnsAtChunk[i], `page ${i}`).toBeGreaterThan(turnsAtChunk[i - 1]);
  }, 120_000);

  it("gives one page of all the exports running at once a turn of the event loop, however many they are", async () => {
    // Six exports read at once, each in a tight loop: the ticker's turns between two of its runs hold at most one
    // page of any of them (decision 093), not one page of each (the longest hold would grow with the exports).
    let pagesSinceTick = 0;
    let most = 0;
    let ticking = true;
    const tick = () => {
      most = Math.max(most, pagesSinceTick);
      pagesSinceTick = 0;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const readers = await Promise.all(Array.from({ length: 6 }, () => openExport()));
    const lines = await Promise.all(
      readers.map(async (reader) => {
        // The header costs nothing: the pages after it are counted.
        let n = linesIn((await reader.read()).value!);
        for (let read = await reader.read(); !read.done; read = await reader.read()) {
          n += linesIn(read.value);
          pagesSinceTick++;
        }
        return n;
      }),
    );
    ticking = false;
    expect(lines).toEqual(Array(6).fill(ROWS + 1));
    expect(most).toBeLessThanOrEqual(2);
  }, 120_000);

  it("stops when the request is aborted: the next read fails and no more rows come", async () => {
    const aborted = new AbortController();
    const reader = await openExport(aborted.signal);
    const header = await reader.read();
    const firstPage = await reader.read();
    expect(linesIn(header.value!) + linesIn(firstPage.value!)).toBe(EXPORT_PAGE_SIZE + 1);
    aborted.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: "AbortError" });
  }, 60_000);
});

describe("an export through the production server", () => {
  let server: RunningServer;

  beforeAll(async () => {
    ensureProductionBuild();
    server = await startServer({ JOBS_WORKER: "off" });
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
  });

  /** The export on a socket of its own; resolves at the first bytes, paused (the client takes nothing more). */
  function pausedDownload() {
    return new Promise<{ res: http.IncomingMessage; text: () => Promise<string> }>((resolve, reject) => {
      const req = http.get({ host: "127.0.0.1", port: server.port, path: PATH, agent: false, headers: { cookie: seller.cookie } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        const ended = new Promise<void>((done) => res.on("end", done));
        res.once("data", () => {
          res.pause();
          resolve({ res, text: async () => (res.resume(), await ended, Buffer.concat(chunks).toString("utf8")) });
        });
      });
      req.on("error", reject);
    });
  }

  it("reads the database only as far as the client has downloaded, give or take the socket's buffers", async () => {
    const download = await pausedDownload();
    expect(download.res.statusCode).toBe(200);
    // The server answers other requests while the download waits, one after another, each taking several turns of
    // its event loop, in which an export that did not wait for this client would read page after page to the end of
    // the file. This one has read what it reads ahead of the client and stopped: products renamed now come out under
    // their new title. (Before, the whole file was read into memory before anything else was answered, and every row
    // kept its old title.)
    for (let i = 0; i < 20; i++) expect((await fetch(`http://127.0.0.1:${server.port}/healthz`)).status).toBe(200);
    await db.$executeRawUnsafe(`UPDATE "Product" SET "title" = 'streamable renamed' WHERE "objectID" LIKE 'stream-%'`);
    const rows = parse(await download.text(), { bom: true, columns: true }) as { title: string }[];
    expect(rows).toHaveLength(ROWS);
    const renamed = rows.filter((r) => r.title === "streamable renamed").length;
    expect(rows[0].title).toBe(LONG_TITLE);
    // At least the last few pages (the buffers hold ~10 MB of the 20 MB file).
    expect(renamed).toBeGreaterThanOrEqual(1_000);
    expect(rows.at(-1)!.title).toBe("streamable renamed");
  }, 120_000);
});
