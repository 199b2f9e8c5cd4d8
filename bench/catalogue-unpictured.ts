// Listings without pictures placed into the measured catalogue (issue 37 item 1, docs/decisions/091): "time to place
// 1,000 listings without pictures". Runs as part of `npm run bench -- catalogue` (or alone: `-- catalogue-unpictured`).
// Prints; asserts nothing.
// A scratch database (bench/lib/scratch-db.ts) holds stores whose listings show no picture, with titles, prices and
// stores from the simulated market (scripts/lib/market-simulator.ts: one product listed by several stores under
// reworded titles). For each size, the real catalogue service (app/services/catalogue.server.ts) runs one refresh:
// pictures queued (none to fetch), every listing placed on its title (matching), every product written and its
// figures computed (materialise). Then one new store's 1,000 picture-less listings are placed into the catalogue of the
// largest size (the incremental path a store's first read takes). Each line says where the time went.
// BENCH_UNPICTURED_SIZES (default "1000,10000") sets the sizes; BENCH_UNPICTURED_NEW (default 1,000) the new store's.
import os from "node:os";
import { simulateMarket } from "../scripts/lib/market-simulator";
import { prepareScratchDb } from "./lib/scratch-db";

const SIZES = (process.env.BENCH_UNPICTURED_SIZES ?? "1000,10000").split(",").map(Number);
const NEW_STORE = Number(process.env.BENCH_UNPICTURED_NEW ?? 1_000);

prepareScratchDb("catalogue-unpictured");
const { db, dbReady, sqlReader } = await import("~/db.server");
const { createCatalogue } = await import("~/services/catalogue.server");
await dbReady;

const jobs = { enqueue: async () => ({ created: true }), register: () => {}, schedule: () => {} } as never;
const images = { fetch: async () => Promise.reject(new Error("no picture is fetched in this bench")) } as never;
const fingerprinter = { fingerprint: async () => Promise.reject(new Error("no picture is fingerprinted in this bench")) } as never;
const T0 = Date.parse("2026-12-01T00:00:00Z");

/** `count` listings without pictures in `stores` new stores (named after `tag`), first seen at `seenAt`. */
async function seed(tag: string, count: number, stores: number, seed: number, seenAt: Date): Promise<void> {
  const market = simulateMarket({ seed, stores, products: Math.max(1, Math.round(count / 4)), listings: count });
  const storeIds: number[] = [];
  for (let s = 0; s < stores; s++) {
    const row = await db.competitorStore.create({
      data: { domain: `${tag}-${s}.test`, fetchDomain: `${tag}-${s}.test`, name: `${tag} ${s}`, currency: "USD", status: "ok", lastCheckedAt: seenAt },
      select: { id: true },
    });
    storeIds.push(row.id);
  }
  const rows = market.listings.map((l) => ({
    storeId: storeIds[l.storeId % stores],
    productId: `${tag}-${l.id}`,
    handle: `${tag}-${l.id}`,
    title: l.title,
    productType: "",
    vendor: "",
    tags: "[]",
    images: "[]",
    variants: JSON.stringify([{ id: `${l.id}`, title: "Default", priceCents: l.priceCents, available: true }]),
    priceMinCents: l.priceCents,
    priceMaxCents: l.priceCents,
    currency: "USD",
    available: true,
    firstSeenAt: seenAt,
    lastSeenAt: seenAt,
  }));
  for (let i = 0; i < rows.length; i += 500) await db.competitorProduct.createMany({ data: rows.slice(i, i + 500) });
}

async function clear(): Promise<void> {
  await db.catalogueMember.deleteMany({});
  await db.product.deleteMany({ where: { source: "measured" } });
  await db.competitorStore.deleteMany({});
}

const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const cpuS = (from: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(from);
  return ((u.user + u.system) / 1e6).toFixed(1);
};

/** One refresh of the catalogue as the job runs it, timed, with its matching and materialising parts. */
async function place(label: string, catalogue: ReturnType<typeof createCatalogue>) {
  const cpu = process.cpuUsage();
  const t = performance.now();
  const r = await catalogue.refresh();
  const ms = performance.now() - t;
  console.log(
    `${label}: ${secs(ms)} (${cpuS(cpu)} s of CPU; matching ${secs(r.match.ms)}, ${r.match.mode}, ${r.match.withoutPicture} listings without a picture in ` +
      `${r.match.products} products, ${r.match.changed.length} changed; figures of ${r.products.products} products ${secs(r.products.ms)})`,
  );
  return r;
}

console.log(`listings without pictures, placed by the catalogue service on a scratch database (machine load average ${os.loadavg()[0].toFixed(1)}):`);
for (const size of SIZES) {
  await clear();
  const stores = Math.max(2, Math.round(size / 250));
  await seed(`s${size}`, size, stores, 11, new Date(T0));
  // A new catalogue service each time: its first refresh is a full match, as after a deploy.
  const catalogue = createCatalogue({ db, sql: sqlReader, images, fingerprinter, jobs, now: () => new Date(T0 + 3_600_000) });
  await place(`time to place ${size.toLocaleString("en-US")} listings without pictures (${stores} stores, one refresh)`, catalogue);
  if (size === Math.max(...SIZES)) {
    await seed(`new${size}`, NEW_STORE, 1, 12, new Date(T0 + 7_200_000));
    await place(`  then one new store's ${NEW_STORE.toLocaleString("en-US")} listings without pictures placed into them (incremental)`, catalogue);
  }
}
await db.$disconnect();
