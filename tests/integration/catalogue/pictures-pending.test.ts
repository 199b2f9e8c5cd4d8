// Every listing counts (issue 37 item 1, decision 091), and splits recompute what they touch (item 4). Listings
// are rows of a real database; their pictures come from a local server answering 404, a web page, a reset
// socket, 503, 429 with Retry-After and a slow answer, fetched through the real SSRF-safe fetcher and
// fingerprinted with the real library. Each listing must be in a product at once, its evidence saying "no
// picture" and why; a transient failure stays pending with a later try (backoff, Retry-After), never exhausted.
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, sqlReader } from "~/db.server";
import { PICTURE_RETRY } from "~/domain/catalogue/picture-failures";
import { createImageFetcher } from "~/integrations/image-fetch.server";
import { createPictureFingerprinter } from "~/integrations/picture-fingerprint.server";
import { createSafeFetcher } from "~/integrations/safe-fetch.server";
import { createCatalogue, type Catalogue } from "~/services/catalogue.server";
import { readMeasuredDetail } from "~/services/products/measured.server";
import { drawPicture, randomDesign } from "../../../scripts/lib/market-pictures";

const T0 = new Date("2026-12-01T10:00:00Z");
let clock = T0.getTime();
let server: Server;
let port = 0;
let catalogue: Catalogue;
const served = new Map<string, Buffer>();
let storeId = 0;

beforeAll(async () => {
  served.set("/fan.jpg", await drawPicture(randomDesign(901)));
  server = createServer((req, res) => {
    const url = req.url ?? "";
    if (url === "/page.jpg") return void res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>A page</title>");
    if (url === "/reset.jpg") return void req.socket.destroy();
    if (url === "/busy.jpg") return void res.writeHead(503).end();
    if (url === "/slow-down.jpg") return void res.writeHead(429, { "retry-after": "7200" }).end();
    if (url === "/slow.jpg") return void setTimeout(() => res.writeHead(200, { "content-type": "image/jpeg" }).end(served.get("/fan.jpg")), 3_000);
    const body = served.get(url);
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "image/jpeg", "content-length": body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
  const fetcher = createSafeFetcher({ contactUrl: "https://winningproducts.test/bot", allowHosts: [`127.0.0.1:${port}`] });
  const jobs = { enqueue: async () => ({ created: true }), register: () => {}, schedule: () => {} } as never;
  catalogue = createCatalogue({
    db,
    sql: sqlReader,
    images: createImageFetcher({ fetcher, limits: { timeoutMs: 1_000 } }),
    fingerprinter: createPictureFingerprinter(),
    jobs,
    now: () => new Date(clock),
  });
  const store = await db.competitorStore.create({ data: { domain: "pending-pictures.test", fetchDomain: "pending-pictures.test", name: "Pending", currency: "USD", status: "ok" } });
  storeId = store.id;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

let nextProduct = 1;
async function listing(title: string, picture: string | null, price = 1999, vendor = "") {
  const at = new Date(clock);
  const row = await db.competitorProduct.create({
    data: {
      storeId,
      productId: String(nextProduct++),
      handle: title.toLowerCase().replace(/\W+/g, "-"),
      title,
      productType: "",
      vendor,
      tags: "[]",
      images: JSON.stringify(picture ? [`http://127.0.0.1:${port}/${picture}.jpg`] : []),
      variants: JSON.stringify([{ id: "1", title: "Default", priceCents: price, available: true }]),
      priceMinCents: price,
      priceMaxCents: price,
      // The tracker writes the store's published currency onto each listing it reads (decision 089).
      currency: "USD",
      available: true,
      firstSeenAt: at,
      lastSeenAt: at,
    },
  });
  return row.id;
}

const pictureOf = (listingId: number) => db.listingPicture.findUnique({ where: { listingId }, select: { status: true, failure: true, retryAt: true, attempts: true } });
const productOf = async (listingId: number) =>
  (await db.catalogueMember.findUniqueOrThrow({ where: { listingId }, select: { product: { select: { id: true, objectID: true, title: true, storesSelling: true, priceCents: true, firstSeenAt: true } } } })).product;

describe("every listing counts", () => {
  const ids: Record<string, number> = {};

  it("classifies each picture failure and puts every listing in a product at once", async () => {
    ids.gone = await listing("Bamboo cutting board", "gone");
    ids.page = await listing("Ceramic pour over coffee dripper", "page");
    ids.reset = await listing("Magnetic phone car mount", "reset");
    ids.busy = await listing("Silicone baking mat set", "busy");
    ids.limited = await listing("Stainless steel water bottle", "slow-down");
    ids.slow = await listing("Portable neck fan", "slow");
    ids.none = await listing("Wooden desk organiser tray", null, 2999, "Acme");
    // Another store's copy of the desk organiser, also without a picture: one product on its title.
    ids.twin = await listing("Wooden Desk Organiser Tray", null, 3499, "ACME");
    const result = await catalogue.refresh();
    expect(result.match.withoutPicture).toBe(8);

    expect(await pictureOf(ids.gone)).toMatchObject({ status: "failed", failure: "not-found", retryAt: null });
    expect(await pictureOf(ids.page)).toMatchObject({ status: "failed", failure: "not-an-image", retryAt: null });
    const minutes = (d: Date | null | undefined) => (d ? (d.getTime() - clock) / 60_000 : null);
    for (const [id, failure] of [
      [ids.reset, "unreachable"],
      [ids.busy, "server-error"],
      [ids.slow, "timeout"],
    ] as const) {
      const p = await pictureOf(id);
      expect(p).toMatchObject({ status: "pending", failure, attempts: 1 });
      expect(minutes(p?.retryAt)).toBe(PICTURE_RETRY.firstMs / 60_000);
    }
    const limited = await pictureOf(ids.limited);
    expect(limited).toMatchObject({ status: "pending", failure: "rate-limited" });
    expect(minutes(limited?.retryAt)).toBe(120); // Retry-After: 7200 beats the 5-minute backoff
    expect(await pictureOf(ids.none)).toBeNull();

    // Every listing is in a product now, the look-alike titles in one.
    for (const id of Object.values(ids)) expect((await productOf(id)).title).not.toBe("");
    const desk = await productOf(ids.none);
    expect((await productOf(ids.twin)).id).toBe(desk.id);
    expect(desk.title).toMatch(/desk organiser tray/i);
    const detail = await readMeasuredDetail(db, desk.id, desk.firstSeenAt);
    expect(detail.matchEvidence.map((e) => e.reason)).toEqual([
      expect.stringMatching(/^first listing of this product; no picture: the store shows none/),
      expect.stringMatching(/titles the same: wooden, desk, organiser, tray; same vendor acme; \$34\.99 and \$29\.99; no picture: the store shows none/),
    ]);
    const reset = await productOf(ids.reset);
    const resetDetail = await readMeasuredDetail(db, reset.id, reset.firstSeenAt);
    expect(resetDetail.matchEvidence[0].reason).toMatch(/no picture yet: the picture's server could not be reached; tried again at 2026-12-01 10:05 UTC/);

    const status = await catalogue.status();
    expect(status.placedWithoutPicture).toBe(8);
    expect(status.listingsWithNoPicture).toBe(2);
    expect(status.pendingByReason).toEqual(
      expect.arrayContaining([{ reason: "the picture's server asked us to slow down", pictures: 1, nextTryAt: "2026-12-01T12:00:00.000Z" }]),
    );
    expect(status.failedByReason).toEqual(expect.arrayContaining([{ reason: "the picture is not there any more", pictures: 1 }]));
  });

  it("never exhausts a transient failure: each next try waits longer, and nothing is tried before it is due", async () => {
    const early = await catalogue.refresh();
    expect(early.fetched).toBe(0); // not due yet
    let wait = PICTURE_RETRY.firstMs;
    for (let i = 2; i <= 6; i++) {
      clock += wait;
      await catalogue.fetchPictures(200);
      const p = await pictureOf(ids.busy);
      expect(p).toMatchObject({ status: "pending", failure: "server-error", attempts: i });
      const next = Math.min(PICTURE_RETRY.firstMs * 2 ** (i - 1), PICTURE_RETRY.maxMs);
      expect(p!.retryAt!.getTime() - clock).toBe(next);
      wait = next;
    }
  }, 60_000);

  it("places a listing again by its picture when the picture arrives", async () => {
    served.set("/busy.jpg", await drawPicture(randomDesign(902)));
    // The 503 now answers with the picture (the handler above checks the served map after its special cases).
    const handler = server.listeners("request")[0] as (req: { url?: string }, res: unknown) => void;
    server.removeAllListeners("request");
    server.on("request", (req, res) => (req.url === "/busy.jpg" ? res.writeHead(200, { "content-type": "image/jpeg" }).end(served.get("/busy.jpg")) : handler(req, res)));
    clock += PICTURE_RETRY.maxMs;
    const after = await catalogue.refresh();
    expect(await pictureOf(ids.busy)).toMatchObject({ status: "ok", failure: null, retryAt: null });
    expect(after.match.mode).toBe("full");
    const busy = await productOf(ids.busy);
    const detail = await readMeasuredDetail(db, busy.id, busy.firstSeenAt);
    expect(detail.matchEvidence[0].reason).toBe("first listing of this product");
  }, 60_000);
});

describe("an operator's split", () => {
  it("recomputes both products at once, and a full run agrees", async () => {
    clock += 60_000;
    const a = await listing("Folding laptop stand aluminium", "fan", 2500);
    // The second store's shorter title is the product's while both are in it (the most typical listing's: ties go
    // to the shorter title), so the product left behind must change its title when it leaves.
    const b = await listing("Laptop stand", "fan", 2700);
    const other = await db.competitorStore.create({ data: { domain: "second.test", fetchDomain: "second.test", name: "Second", currency: "USD", status: "ok" } });
    await db.competitorProduct.update({ where: { id: b }, data: { storeId: other.id } });
    await catalogue.refresh();
    const together = await productOf(a);
    expect((await productOf(b)).id).toBe(together.id);
    expect(together).toMatchObject({ storesSelling: 2, title: "Laptop stand" });

    // At once, without another run: the product left behind says its one listing's title, price and store.
    await catalogue.split(b);
    const left = await productOf(a);
    const out = await productOf(b);
    expect(left.id).toBe(together.id);
    expect(out.id).not.toBe(left.id);
    expect(left).toMatchObject({ storesSelling: 1, priceCents: 2500, title: "Folding laptop stand aluminium" });
    expect(out).toMatchObject({ storesSelling: 1, priceCents: 2700, title: "Laptop stand" });

    const full = await catalogue.matchNow({ full: true });
    expect(full.match.changed).toEqual([]);
    expect(await productOf(a)).toEqual(left);
    expect(await productOf(b)).toEqual(out);
  }, 60_000);
});

describe("an operator's merge", () => {
  it("recomputes the product at once and removes the one merged away, and a full run agrees", async () => {
    clock += 60_000;
    const c = await listing("Cable organiser box with lid", null, 1500);
    const d = await listing("Under desk cable tray", null, 2100);
    const third = await db.competitorStore.create({ data: { domain: "third.test", fetchDomain: "third.test", name: "Third", currency: "USD", status: "ok" } });
    await db.competitorProduct.update({ where: { id: d }, data: { storeId: third.id } });
    await catalogue.refresh();
    const apart = [await productOf(c), await productOf(d)];
    expect(apart[0].id).not.toBe(apart[1].id);

    await catalogue.merge(c, d);
    const merged = await productOf(c);
    expect((await productOf(d)).id).toBe(merged.id);
    expect(merged).toMatchObject({ id: apart[0].id, storesSelling: 2, priceCents: 1800 });
    expect(await db.product.count({ where: { id: apart[1].id } })).toBe(0);

    const full = await catalogue.matchNow({ full: true });
    expect(full.match.changed).toEqual([]);
    expect(await productOf(c)).toEqual(merged);
  }, 60_000);
});
