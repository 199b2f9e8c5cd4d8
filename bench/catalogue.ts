// The measured catalogue's matching against a simulated market with known truth (scripts/lib/market-simulator.ts,
// docs/decisions/046). Prints; asserts nothing.
//   calibration:  real pictures drawn and altered with sharp, fingerprinted by the real adapter: the distance of
//                 each alteration from the supplier photo (the model the large run draws from)
//   real pictures: a small market whose every listing picture is drawn and fingerprinted: precision and recall
//   full match:   2,000 stores, 1,000,000 listings of 150,000 products with modelled fingerprints: precision, recall,
//                 confusion counts, time and peak RSS of a full match (index + stock pictures + grouping)
//   incremental:  one new store's 250 listings placed into the warm state
// BENCH_CATALOGUE_LISTINGS (default 1,000,000), BENCH_CATALOGUE_PRODUCTS (150,000), BENCH_CATALOGUE_STORES (2,000)
// and BENCH_CALIBRATE (200 designs) scale it down for a quick look.
import os from "node:os";
import { hammingDistance, HashIndex, parseHash, type Hash64 } from "~/domain/catalogue-hash";
import { ClusterState, MATCH, pictureIsEvidence, type ClusterInput } from "~/domain/catalogue-match";
import { normaliseTitle } from "~/domain/catalogue-title";
import { createPictureFingerprinter } from "~/integrations/picture-fingerprint.server";
import { calibrateDistances, drawPicture, lookAlikeDesign, randomDesign, variantPicture } from "../scripts/lib/market-pictures";
import { matchQuality, simulateMarket, type SimulatedListing } from "../scripts/lib/market-simulator";

const LISTINGS = Number(process.env.BENCH_CATALOGUE_LISTINGS ?? 1_000_000);
const PRODUCTS = Number(process.env.BENCH_CATALOGUE_PRODUCTS ?? 150_000);
const STORES = Number(process.env.BENCH_CATALOGUE_STORES ?? 2_000);
const CALIBRATE = Number(process.env.BENCH_CALIBRATE ?? 200);

const fingerprinter = createPictureFingerprinter();
const bits = (a: string, b: string) => hammingDistance(parseHash(a)!, parseHash(b)!);
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
const pct = (x: number) => x.toFixed(4);
let peakRss = 0;
const sample = () => (peakRss = Math.max(peakRss, process.memoryUsage().rss));
const sampler = setInterval(sample, 200);

function quantile(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

/** Groups listings as the matching service does (stock pictures first, then nearest-first placement). */
function group(listings: Array<{ id: number; title: string; priceCents: number; currency: string; hash: string; firstSeenAt: number }>) {
  const index = new HashIndex(listings.length);
  const hashes = new Map<number, Hash64>();
  const inputs = new Map<number, ClusterInput>();
  for (const l of listings) {
    const h = parseHash(l.hash)!;
    index.add(l.id, h);
    hashes.set(l.id, h);
    inputs.set(l.id, { id: l.id, title: normaliseTitle(l.title), priceCents: l.priceCents, currency: l.currency, pictureIsEvidence: true });
  }
  index.build();
  const t1 = performance.now();
  let stock = 0;
  const judged = new Set<number>();
  for (const [id, h] of hashes) {
    if (judged.has(id)) continue;
    const near = index.near(h, MATCH.strongDistance);
    for (const n of near) judged.add(n.id);
    if (near.length >= MATCH.stockPictureMinListings && !pictureIsEvidence(near.map((n) => inputs.get(n.id)!.title))) {
      stock++;
      for (const n of near) inputs.get(n.id)!.pictureIsEvidence = false;
    }
  }
  const t2 = performance.now();
  const placed = new HashIndex(listings.length >> 2);
  const state = new ClusterState(
    (id, radius) => placed.near(hashes.get(id)!, radius),
    (a, b) => hammingDistance(hashes.get(a)!, hashes.get(b)!),
    undefined,
    (id, cluster) => {
      if (cluster.members.length <= MATCH.indexedPerProduct) placed.add(id, hashes.get(id)!);
      if (placed.unbuilt > Math.max(4096, placed.size >> 3)) placed.build();
    },
  );
  const ordered = [...listings].sort((a, b) => a.firstSeenAt - b.firstSeenAt || a.id - b.id);
  for (const l of ordered) state.place(inputs.get(l.id)!);
  const phases = { stockPicturesS: (t2 - t1) / 1000, placementS: (performance.now() - t2) / 1000 };
  return { state, index: placed, hashes, inputs, stock, phases };
}

function printQuality(label: string, listings: SimulatedListing[], state: ClusterState) {
  const q = matchQuality(listings, (id) => state.of(id)!.anchorId);
  console.log(
    `${label}: precision ${pct(q.precision)}  recall ${pct(q.recall)}  (pairs: ${q.truePairs} right, ${q.falsePairs} wrongly joined, ${q.missedPairs} missed; ` +
      `${q.predicted} products found for ${q.truth} true products)`,
  );
}

// ---------- calibration on real pictures ----------
let t = performance.now();
const distances = await calibrateDistances(CALIBRATE, (b) => fingerprinter.fingerprint(b), bits);
const calibrateS = (performance.now() - t) / 1000;
console.log(`calibration: ${CALIBRATE} supplier pictures x 8 alterations, fingerprinted with sharp-phash in ${calibrateS.toFixed(1)} s (${((CALIBRATE * 9) / calibrateS).toFixed(0)} pictures/s incl. drawing)`);
for (const [kind, d] of Object.entries(distances)) {
  const within = d.filter((x) => x <= MATCH.maxDistance).length / d.length;
  console.log(`  ${kind.padEnd(13)} p50 ${String(quantile(d, 0.5)).padStart(2)}  p90 ${String(quantile(d, 0.9)).padStart(2)}  max ${String(Math.max(...d)).padStart(2)}  within ${MATCH.maxDistance} bits: ${(within * 100).toFixed(0)}%`);
}

// ---------- a small market with every picture real ----------
{
  const market = simulateMarket({ seed: 7, stores: 60, products: 300, listings: 1_500 });
  t = performance.now();
  const designs = new Map<number, ReturnType<typeof randomDesign>>();
  const designOf = (productId: number) => {
    const p = market.products[productId];
    let d = designs.get(productId);
    if (!d) {
      d = p.lookAlikeOf === null ? randomDesign(p.designSeed) : lookAlikeDesign(randomDesign(p.designSeed), 31 * productId);
      designs.set(productId, d);
    }
    return d;
  };
  const stockPicture = await fingerprinter.fingerprint(await drawPicture(randomDesign(1)));
  for (const l of market.listings) {
    l.hash = l.variant === "stock" ? stockPicture : await fingerprinter.fingerprint(await variantPicture(designOf(l.productId), l.variant, l.id));
  }
  const drawS = (performance.now() - t) / 1000;
  const { state } = group(market.listings.map((l) => ({ ...l, hash: l.hash! })));
  printQuality(`real pictures (${market.listings.length} listings, ${market.products.length} products, drawn and fingerprinted in ${drawS.toFixed(0)} s)`, market.listings, state);
}

// ---------- the full market with modelled fingerprints ----------
t = performance.now();
const market = simulateMarket({ seed: 42, stores: STORES, products: PRODUCTS, listings: LISTINGS, distances });
const newStore = market.listings.splice(-250).map((l, i) => ({ ...l, storeId: STORES, firstSeenAt: l.firstSeenAt + 86_400 + i }));
console.log(`\nmarket: ${STORES} stores, ${market.listings.length} listings of ${PRODUCTS} products simulated in ${((performance.now() - t) / 1000).toFixed(1)} s`);
const before = process.memoryUsage().rss;
t = performance.now();
const cpuBefore = process.cpuUsage();
const full = group(market.listings.map((l) => ({ ...l, hash: l.hash! })));
const fullS = (performance.now() - t) / 1000;
const cpu = process.cpuUsage(cpuBefore);
const cpuS = (cpu.user + cpu.system) / 1e6;
sample();
console.log(
  `full match: ${market.listings.length} listings in ${fullS.toFixed(1)} s (${Math.round(market.listings.length / fullS)} listings/s; ${cpuS.toFixed(1)} s of CPU on this process; stock pictures ${full.phases.stockPicturesS.toFixed(1)} s, ` +
    `placement ${full.phases.placementS.toFixed(1)} s), ${full.stock} stock pictures; RSS peak ${mb(peakRss)} (${mb(before)} before matching); machine load average ${os.loadavg()[0].toFixed(1)}`,
);
printQuality("quality against the truth", market.listings, full.state);

// ---------- one new store, incrementally ----------
t = performance.now();
for (const l of newStore) {
  const h = parseHash(l.hash!)!;
  full.hashes.set(l.id, h);
  const input = { id: l.id, title: normaliseTitle(l.title), priceCents: l.priceCents, currency: l.currency, pictureIsEvidence: true };
  full.inputs.set(l.id, input);
  full.state.place(input);
}
const incMs = performance.now() - t;
console.log(`incremental: one new store's ${newStore.length} listings placed in ${incMs.toFixed(0)} ms`);
clearInterval(sampler);
