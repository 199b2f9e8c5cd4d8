// The measured catalogue's grouping on a small simulated market with known truth (scripts/lib/market-simulator.ts,
// docs/decisions/046): every listing picture is drawn, altered as stores alter supplier photos, and fingerprinted
// with the real library; the grouping must find the true products (pairwise precision and recall), keep
// look-alikes apart and never chain. The large run is `npm run bench -- catalogue`.
import { describe, expect, it } from "vitest";
import { hammingDistance, HashIndex, parseHash, type Hash64 } from "~/domain/catalogue/hash";
import { ClusterState, MATCH, type ClusterInput } from "~/domain/catalogue/match";
import { normaliseTitle } from "~/domain/catalogue/title";
import { createPictureFingerprinter } from "~/integrations/picture-fingerprint.server";
import { lookAlikeDesign, randomDesign, variantPicture } from "../../../scripts/lib/market-pictures";
import { matchQuality, simulateMarket } from "../../../scripts/lib/market-simulator";

describe("grouping a simulated market", () => {
  it("finds the true products with real pictures: precision >= 0.95, recall >= 0.85, no product wider than its bound", { timeout: 120_000 }, async () => {
    const market = simulateMarket({ seed: 3, stores: 30, products: 60, listings: 240, lookAlikeShare: 0.1, stockShare: 0 });
    const fingerprinter = createPictureFingerprinter();
    const hashes = new Map<number, Hash64>();
    for (const l of market.listings) {
      const p = market.products[l.productId];
      const design = p.lookAlikeOf === null ? randomDesign(p.designSeed) : lookAlikeDesign(randomDesign(p.designSeed), 31 * l.productId);
      hashes.set(l.id, parseHash(await fingerprinter.fingerprint(await variantPicture(design, l.variant === "stock" ? "reencode" : l.variant, l.id)))!);
    }
    const placed = new HashIndex();
    const state = new ClusterState(
      (id, radius) => placed.near(hashes.get(id)!, radius),
      (a, b) => hammingDistance(hashes.get(a)!, hashes.get(b)!),
      undefined,
      (id, cluster) => {
        if (cluster.members.length <= MATCH.indexedPerProduct) placed.add(id, hashes.get(id)!);
      },
    );
    for (const l of market.listings) {
      const input: ClusterInput = { id: l.id, title: normaliseTitle(l.title), priceCents: l.priceCents, currency: l.currency, pictureIsEvidence: true };
      state.place(input);
    }
    const quality = matchQuality(market.listings, (id) => state.of(id)!.anchorId);
    expect(quality.precision).toBeGreaterThanOrEqual(0.95);
    expect(quality.recall).toBeGreaterThanOrEqual(0.85);
    for (const c of state.clusters) for (const m of c.members) expect(hammingDistance(hashes.get(m.id)!, hashes.get(c.anchorId)!)).toBeLessThanOrEqual(MATCH.maxDiameter);
  });
});
