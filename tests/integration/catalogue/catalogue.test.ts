// The measured catalogue end to end on the real parts (docs/decisions/046): users follow four stand-in Shopify
// stores (tests/helpers/fake-shopify-store.ts) read by the real tracker; three sell one neck fan under different
// titles, prices and pictures (the supplier photo re-encoded, with a sale badge, resized), the fourth a look-alike
// from another supplier. Pictures are real JPEG bytes from a local server, fetched through the SSRF-safe fetcher
// and fingerprinted with the real library. The catalogue must show one product "sold by 3 stores" with three
// listings and the evidence of each match, keep the look-alike apart, and keep an operator's split on re-runs.
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, sqlReader } from "~/db.server";
import { createImageFetcher } from "~/integrations/image-fetch.server";
import { createPictureFingerprinter } from "~/integrations/picture-fingerprint.server";
import { createSafeFetcher } from "~/integrations/safe-fetch.server";
import { createCatalogue, type Catalogue } from "~/services/catalogue.server";
import { drawPicture, lookAlikeDesign, randomDesign, variantPicture } from "../../../scripts/lib/market-pictures";
import { startCompetitorTracker, type CompetitorTracker } from "../../helpers/competitor-tracker";
import { makeProduct } from "../../helpers/fake-shopify-store";
import { png } from "../../helpers/png";
import { createUser } from "../../helpers/site-users";

let tracker: CompetitorTracker;
let catalogue: Catalogue;
let pictureServer: Server;
let picturePort = 0;
const pictures = new Map<string, Buffer>();

beforeAll(async () => {
  tracker = await startCompetitorTracker({ start: "2026-11-01T00:00:00Z", ownerId: "catalogue-test" });
  pictureServer = createServer((req, res) => {
    const body = pictures.get(req.url ?? "");
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "image/jpeg", "content-length": body.length }).end(body);
  });
  await new Promise<void>((resolve) => pictureServer.listen(0, "127.0.0.1", resolve));
  picturePort = (pictureServer.address() as { port: number }).port;
  const fetcher = createSafeFetcher({ contactUrl: "https://winningproducts.test/bot", allowHosts: [`127.0.0.1:${picturePort}`] });
  catalogue = createCatalogue({
    db,
    sql: sqlReader,
    images: createImageFetcher({ fetcher }),
    fingerprinter: createPictureFingerprinter(),
    jobs: tracker.jobs,
    now: tracker.now,
  });
});
afterAll(async () => {
  await tracker.close();
  await new Promise((resolve) => pictureServer.close(resolve));
});

const picture = (name: string, bytes: Buffer) => {
  pictures.set(`/${name}.jpg`, bytes);
  return [{ src: `http://127.0.0.1:${picturePort}/${name}.jpg` }];
};
const price = (p: string) => [{ id: 1, title: "Default", price: p, compare_at_price: null, available: true, sku: "" }];

describe("the measured catalogue", () => {
  it("matches one product across three stores with its evidence, and keeps a look-alike apart", async () => {
    const fan = randomDesign(501);
    const { shops, competitors, jobs } = tracker;
    shops.addShop("alpha.test", {
      products: [
        makeProduct(1, { title: "2026 NEW Bladeless Neck Fan - USB Rechargeable (White)", images: picture("a-fan", await variantPicture(fan, "reencode", 1)), variants: price("19.99") }),
        makeProduct(2, { title: "Dog raincoat", images: picture("a-other", await drawPicture(randomDesign(900))), variants: price("24.00") }),
      ],
    });
    shops.addShop("bravo.test", {
      products: [makeProduct(3, { title: "Portable neck fan | bladeless, hands free 🔥", images: picture("b-fan", await variantPicture(fan, "badge", 2)), variants: price("24.95") })],
    });
    shops.addShop("charlie.test", {
      products: [makeProduct(4, { title: "Neck Fan Bladeless", images: picture("c-fan", await variantPicture(fan, "resize", 3)), variants: price("21.50") })],
    });
    shops.addShop("delta.test", {
      products: [makeProduct(5, { title: "Bladeless neck fan", images: picture("d-fan", await drawPicture(lookAlikeDesign(fan, 7))), variants: price("22.00") })],
    });
    const user = await createUser({ userSubscribed: "yes" });
    for (const host of ["alpha", "bravo", "charlie", "delta"]) await competitors.add({ id: user.id, userSubscribed: "yes" }, `${host}.test:${shops.port}`);
    await jobs.runDue();
    expect(await db.competitorProduct.count()).toBe(5);

    const first = await catalogue.refresh();
    expect(first.match).toMatchObject({ mode: "full", listings: 5 });
    const fanProduct = await db.product.findFirstOrThrow({
      where: { source: "measured", storesSelling: 3 },
      select: { id: true, objectID: true, title: true, priceCents: true, thinEvidence: true, reasons: true, members: { select: { listingId: true, via: true, evidence: true } } },
    });
    expect(fanProduct.members).toHaveLength(3);
    expect(fanProduct.priceCents).toBe(2150); // the median of $19.99, $21.50 and $24.95
    expect(fanProduct.thinEvidence).toMatch(/observed for 1 day/);
    const evidence = fanProduct.members.filter((m) => m.via === "picture").map((m) => JSON.parse(m.evidence!).reason as string);
    expect(evidence).toHaveLength(2);
    for (const e of evidence) expect(e).toMatch(/^(same picture: identical fingerprints|(same|similar) picture: \d+ of 64 bits differ); titles share .*neck.*; \$\d+\.\d\d and \$\d+\.\d\d$/);
    // The look-alike from delta.test is a product of its own, and so is the raincoat.
    const listingOf = async (handle: string) => (await db.competitorProduct.findFirstOrThrow({ where: { handle }, select: { id: true } })).id;
    const delta = await db.catalogueMember.findUniqueOrThrow({ where: { listingId: await listingOf("product-5") }, select: { productId: true } });
    expect(delta.productId).not.toBe(fanProduct.id);
    expect(await db.product.count({ where: { source: "measured" } })).toBe(3);
    const signals = await db.productSignals.findUniqueOrThrow({ where: { productId: fanProduct.id }, select: { series: true } });
    expect(JSON.parse(signals.series).storesSelling.at(-1)).toBe(3);

    // Nothing new: an incremental run changes nothing.
    const again = await catalogue.refresh();
    expect(again.match).toMatchObject({ mode: "incremental", changed: [] });

    // An operator splits bravo's listing out; the decision survives a full re-run.
    const bravo = await listingOf("product-3");
    // The split is matched and recomputed at once (decision 091).
    const split = await catalogue.split(bravo, "badge photo is another model");
    expect(split.match.changed.length).toBeGreaterThan(0);
    const afterSplit = await db.catalogueMember.findUniqueOrThrow({ where: { listingId: bravo }, select: { productId: true } });
    expect(afterSplit.productId).not.toBe(fanProduct.id);
    expect((await catalogue.match({ full: true })).changed).toEqual([]);
  });

  it("records a sentence for each picture it cannot use and leaves the other stores' products as they were", async () => {
    const { shops, competitors, jobs } = tracker;
    const before = await db.product.findMany({ where: { source: "measured" }, orderBy: { id: "asc" }, select: { objectID: true, storesSelling: true } });
    pictures.set("/page.jpg", Buffer.from("<!doctype html><title>Not a picture</title>"));
    // 20,000 x 20,000 of one colour: a few hundred KB that would decode to 1.2 GB.
    pictures.set("/bomb.jpg", png(20_000, 20_000, [255, 255, 255]));
    const at = (name: string) => [{ src: `http://127.0.0.1:${picturePort}/${name}.jpg` }];
    shops.addShop("echo.test", {
      products: [
        makeProduct(11, { title: "Missing picture", images: at("gone"), variants: price("9.99") }),
        makeProduct(12, { title: "Web page", images: at("page"), variants: price("9.99") }),
        makeProduct(13, { title: "Bomb", images: at("bomb"), variants: price("9.99") }),
        makeProduct(14, { title: "No picture at all", images: [], variants: price("9.99") }),
      ],
    });
    const user = await createUser({ userSubscribed: "yes" });
    await competitors.add({ id: user.id, userSubscribed: "yes" }, `echo.test:${shops.port}`);
    await jobs.runDue();
    await catalogue.refresh();
    const errors = await db.listingPicture.findMany({
      where: { listing: { store: { domain: { startsWith: "echo.test" } } } },
      orderBy: { listingId: "asc" },
      select: { status: true, error: true, attempts: true },
    });
    // Each is permanent: said once, not tried again (decision 091).
    expect(errors).toEqual([
      { status: "failed", attempts: 1, error: "The image is not there any more (the server answered 404)." },
      { status: "failed", attempts: 1, error: expect.stringMatching(/^The file is not a JPEG, PNG, WebP or GIF image/) },
      { status: "failed", attempts: 1, error: expect.stringMatching(/^The image is 20000x20000 pixels/) },
    ]);
    // Listings without a usable picture are products of their own at once, on their titles; nothing else moved.
    const after = await db.product.findMany({ where: { source: "measured" }, orderBy: { id: "asc" }, select: { objectID: true, storesSelling: true } });
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.length).toBe(before.length + 4);
  }, 60_000);
});
