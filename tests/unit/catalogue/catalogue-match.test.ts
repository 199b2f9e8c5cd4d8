// The measured catalogue's pure rules (docs/decisions/046): title normalising, the picture-hash index, the pair
// decision with its evidence, stock pictures, and grouping without chaining, with fast-check properties: the
// index finds exactly what a scan of all pairs finds, normalising is idempotent, a cluster's members all stay
// near its anchor, and an operator's split survives a re-run.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatHash, hammingDistance, HashIndex, parseHash, popcount32, type Hash64 } from "~/domain/catalogue/hash";
import { clusterListings, decidePair, MATCH, pairMatches, pictureIsEvidence, type ClusterInput } from "~/domain/catalogue/match";
import { compareTitles, normaliseTitle } from "~/domain/catalogue/title";

describe("normaliseTitle", () => {
  it("keeps the words that name the product and drops marketing, colours, emoji and punctuation", () => {
    expect(normaliseTitle("2026 NEW Portable Neck Fan - Bladeless, USB Rechargeable (White) 🔥🔥").words).toEqual([
      "portable",
      "neck",
      "fan",
      "bladeless",
      "usb",
      "rechargeable",
    ]);
    expect(normaliseTitle("Bladeless neck fans | hands-free cooling").words).toEqual(["bladeless", "neck", "fan", "hand", "cooling"]);
  });

  it("writes quantities one way and keeps model words", () => {
    expect(normaliseTitle("Water bottle 500 ML").quantities).toEqual(["500ml"]);
    expect(normaliseTitle("Water bottle 0.5L").quantities).toEqual(["500ml"]);
    expect(normaliseTitle("Hair clips 10 pcs").quantities).toEqual(["10pcs"]);
    expect(normaliseTitle("Case for iPhone15 Pro").models).toEqual(["iphone15"]);
    expect(normaliseTitle("5 in 1 charger").words).toEqual(["charger"]);
  });

  it("folds accents and case", () => {
    expect(normaliseTitle("CAFÉ Crème Mug").words).toEqual(["cafe", "creme", "mug"]);
  });

  it("is idempotent: normalising the words again gives the same words", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (title) => {
        const once = normaliseTitle(title);
        const twice = normaliseTitle([...once.words, ...once.quantities, ...once.models].join(" "));
        expect(twice.words).toEqual(once.words);
      }),
    );
  });

  it("never throws and returns only lower-case letters and digits", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (title) => {
        const t = normaliseTitle(title);
        for (const w of [...t.words, ...t.models]) expect(w).toMatch(/^[\p{Ll}\p{Lo}\p{Lm}\p{N}]+$/u);
      }),
    );
  });
});

describe("compareTitles", () => {
  it("measures overlap against the shorter title and names contradictions", () => {
    const c = compareTitles(normaliseTitle("Neck fan"), normaliseTitle("Portable bladeless neck fan with 3 speeds"));
    expect(c).toEqual({ shared: ["neck", "fan"], overlap: 1, contradiction: null });
    expect(compareTitles(normaliseTitle("Socks 2 pcs"), normaliseTitle("Socks 10 pcs")).contradiction).toBe("2pcs against 10pcs");
    expect(compareTitles(normaliseTitle("Case iPhone15"), normaliseTitle("Case iPhone14")).contradiction).toBe("model iphone15 against iphone14");
  });
});

const hashArb = fc.record({ hi: fc.nat({ max: 0xffffffff }), lo: fc.nat({ max: 0xffffffff }) });

describe("picture hashes", () => {
  it("round-trips through 16 hex digits and refuses anything else", () => {
    fc.assert(
      fc.property(hashArb, (h) => {
        expect(parseHash(formatHash(h))).toEqual(h);
      }),
    );
    expect(parseHash("xyz")).toBeNull();
    expect(parseHash("0123456789abcdef0")).toBeNull();
  });

  it("counts bits like a plain loop", () => {
    fc.assert(
      fc.property(fc.nat({ max: 0xffffffff }), (v) => {
        let n = 0;
        for (let i = 0; i < 32; i++) if ((v >>> i) & 1) n++;
        expect(popcount32(v)).toBe(n);
      }),
    );
  });

  it("the index finds exactly the hashes a scan of all pairs finds, built or added one by one", () => {
    const flip = (h: Hash64, bits: number[]): Hash64 => {
      let { hi, lo } = h;
      for (const b of bits) if (b < 32) hi = (hi ^ (1 << b)) >>> 0;
      else lo = (lo ^ (1 << (b - 32))) >>> 0;
      return { hi, lo };
    };
    fc.assert(
      fc.property(
        hashArb,
        fc.array(fc.array(fc.integer({ min: 0, max: 63 }), { maxLength: 14 }), { minLength: 1, maxLength: 60 }),
        fc.array(hashArb, { maxLength: 20 }),
        fc.integer({ min: 0, max: 15 }),
        fc.boolean(),
        (base, flips, randoms, radius, rebuild) => {
          const hashes = [...flips.map((bits) => flip(base, bits)), ...randoms];
          const index = new HashIndex(4);
          hashes.forEach((h, id) => index.add(id, h));
          if (rebuild) index.build();
          const query = flip(base, [1, 40]);
          const expected = hashes
            .map((h, id) => ({ id, distance: hammingDistance(h, query) }))
            .filter((x) => x.distance <= radius)
            .sort((x, y) => x.distance - y.distance || x.id - y.id);
          expect(index.near(query, radius)).toEqual(expected);
        },
      ),
    );
  });
});

const listing = (id: number, title: string, priceCents: number | null = 1999, currency: string | null = "USD"): ClusterInput => ({
  id,
  title: normaliseTitle(title),
  priceCents,
  currency,
  pictureIsEvidence: true,
});

describe("decidePair", () => {
  it("matches a near picture with agreeing titles and prices, and says why", () => {
    const d = decidePair(listing(1, "Bladeless Neck Fan"), listing(2, "Portable neck fan, bladeless", 2495), 3);
    expect(d).toMatchObject({ match: true, reason: "same picture: 3 of 64 bits differ; titles share bladeless, neck, fan; $19.99 and $24.95" });
  });

  it("refuses with a sentence: far pictures, contradicting titles, unrelated titles, prices apart, stock pictures", () => {
    expect(decidePair(listing(1, "Neck fan"), listing(2, "Neck fan"), MATCH.titleLedDistance + 1).reason).toMatch(/^pictures too different/);
    expect(decidePair(listing(1, "Neck fan"), listing(2, "Neck fan"), MATCH.maxDistance + 1).reason).toMatch(/^pictures only somewhat alike and titles not the same/);
    expect(decidePair(listing(1, "Bladeless neck fan usb"), listing(2, "USB neck fan bladeless"), MATCH.titleLedDistance).match).toBe(true);
    expect(decidePair(listing(1, "Socks 2 pcs"), listing(2, "Socks 10 pcs"), 0).reason).toMatch(/^titles contradict: 2pcs against 10pcs/);
    expect(decidePair(listing(1, "Dog bed"), listing(2, "Phone case"), 0).reason).toMatch(/^titles share no word/);
    expect(decidePair(listing(1, "Neck fan", 1000), listing(2, "Neck fan", 9900), 0).reason).toMatch(/^prices too far apart \(9\.9x\)/);
    expect(decidePair(listing(1, "Neck fan"), listing(2, "Neck fan"), 0, false).reason).toMatch(/^the picture is a stock picture/);
    // Past the strong distance the titles must agree more.
    expect(decidePair(listing(1, "Portable neck fan bladeless usb"), listing(2, "Neck massager pillow memory foam"), MATCH.strongDistance + 1).match).toBe(false);
    expect(decidePair(listing(1, "Portable neck fan bladeless usb"), listing(2, "Bladeless neck fan"), MATCH.strongDistance + 1).match).toBe(true);
  });

  it("is symmetric in whether it matches", () => {
    const titles = ["Neck fan", "Bladeless neck fan 2 pcs", "Dog bed", "Dog bed XL", "Socks 10 pcs", ""];
    fc.assert(
      fc.property(
        fc.constantFrom(...titles),
        fc.constantFrom(...titles),
        fc.integer({ min: 100, max: 10_000 }),
        fc.integer({ min: 100, max: 10_000 }),
        fc.integer({ min: 0, max: 64 }),
        (ta, tb, pa, pb, d) => {
          expect(decidePair(listing(1, ta, pa), listing(2, tb, pb), d).match).toBe(decidePair(listing(2, tb, pb), listing(1, ta, pa), d).match);
        },
      ),
    );
  });
});

describe("HashIndex with many hashes added since its build", () => {
  it("finds what a scan finds, whether it reads the new hashes in order or through their chains, and after a rebuild", () => {
    let seed = 12345;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    const base = Array.from({ length: 40 }, () => ({ hi: next(), lo: next() }));
    // Clusters of near hashes around random bases, plus random ones: 6,000 in all, more than a wide look-up's 2,788 probes.
    const hashes: Hash64[] = Array.from({ length: 6_000 }, (_, i) => {
      const b = base[i % base.length];
      return i % 3 === 0 ? { hi: next(), lo: next() } : { hi: (b.hi ^ (1 << next() % 32) ^ (1 << next() % 32)) >>> 0, lo: (b.lo ^ (1 << next() % 32)) >>> 0 };
    });
    const index = new HashIndex(16);
    const scan = (query: Hash64, radius: number) =>
      hashes
        .map((h, id) => ({ id, distance: hammingDistance(h, query) }))
        .filter((x) => x.distance <= radius)
        .sort((x, y) => x.distance - y.distance || x.id - y.id);
    hashes.slice(0, 100).forEach((h, id) => index.add(id, h));
    index.build();
    hashes.slice(100).forEach((h, i) => index.add(100 + i, h));
    for (const rebuilt of [false, true]) {
      if (rebuilt) index.build();
      for (const q of base.slice(0, 10))
        for (const radius of [0, 3, 6, 12, 15]) expect(index.near(q, radius), `radius ${radius}, rebuilt ${rebuilt}`).toEqual(scan(q, radius));
    }
  });
});

describe("pairMatches", () => {
  it("answers as decidePair does, for any titles, prices, currencies, distances and stock pictures", () => {
    const words = ["neck", "fan", "bladeless", "usb", "dog", "bed", "socks", "portable", "mat", "yoga"];
    const extras = ["2 pcs", "10 pcs", "500 ML", "0.5L", "1L", "XL", "x12", "iphone15", "iphone14", ""];
    const title = fc
      .tuple(fc.subarray(words), fc.constantFrom(...extras), fc.constantFrom(...extras))
      .map(([w, e1, e2]) => [...w, e1, e2].join(" "));
    const price = fc.option(fc.integer({ min: 0, max: 20_000 }), { nil: null });
    const currency = fc.constantFrom<string | null>("USD", "EUR", null);
    fc.assert(
      fc.property(title, title, price, price, currency, currency, fc.integer({ min: 0, max: 64 }), fc.boolean(), (ta, tb, pa, pb, ca, cb, d, evidence) => {
        const a = listing(1, ta, pa, ca);
        const b = listing(2, tb, pb, cb);
        expect(pairMatches(a, b, d, evidence)).toBe(decidePair(a, b, d, evidence).match);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe("pictureIsEvidence", () => {
  it("a picture on many listings with unrelated titles is not evidence; one product's picture is", () => {
    const unrelated = ["Dog bed", "Phone case", "Neck fan", "Yoga mat", "Garlic press", "LED strip"].map(normaliseTitle);
    const same = ["Neck fan", "Bladeless neck fan", "Portable neck fan", "Neck fan USB", "Hands free neck fan"].map(normaliseTitle);
    expect(pictureIsEvidence(unrelated)).toBe(false);
    expect(pictureIsEvidence(same)).toBe(true);
    expect(pictureIsEvidence(unrelated.slice(0, MATCH.stockPictureMinListings - 1))).toBe(true);
  });
});

describe("clusterListings", () => {
  /** Listings on a line: listing i's picture is i * step bits from listing 0's. */
  function line(count: number, step: number) {
    const order = Array.from({ length: count }, (_, i) => listing(i, "Bladeless neck fan"));
    const distance = (a: number, b: number) => Math.abs(a - b) * step;
    const near = (id: number, radius: number) =>
      order.filter((o) => o.id !== id && distance(id, o.id) <= radius).map((o) => ({ id: o.id, distance: distance(id, o.id) }));
    return { order, distance, near };
  }

  it("does not chain: members of one product all stay near its anchor", () => {
    const { order, distance, near } = line(12, 4);
    const clusters = clusterListings(order, near, distance);
    expect(clusters.length).toBeGreaterThan(1);
    for (const c of clusters) for (const m of c.members) expect(distance(m.id, c.anchorId)).toBeLessThanOrEqual(MATCH.maxDiameter);
  });

  it("keeps each member's evidence", () => {
    const { order, distance, near } = line(3, 2);
    const [c] = clusterListings(order, near, distance);
    expect(c.members.map((m) => m.via)).toEqual(["anchor", "picture", "picture"]);
    expect(c.members[1].evidence).toMatchObject({ withId: 0, distance: 2, reason: expect.stringMatching(/^same picture: 2 of 64 bits differ; titles share bladeless, neck, fan/) });
  });

  it("an operator's split survives a re-run, and a merge joins two products", () => {
    const { order, distance, near } = line(4, 1);
    expect(clusterListings(order, near, distance)).toHaveLength(1);
    const split = clusterListings(order, near, distance, { apart: [[3, 0], [3, 1], [3, 2]], together: [] });
    expect(split.map((c) => c.members.map((m) => m.id).sort())).toEqual([[0, 1, 2], [3]]);
    const far = [listing(0, "Neck fan"), listing(1, "Neck fan")];
    const apart = clusterListings(far, () => [], () => 64, { apart: [], together: [[0, 1]] });
    expect(apart).toHaveLength(1);
    expect(apart[0].members.map((m) => m.via)).toEqual(["anchor", "operator"]);
  });

  it("every listing lands in exactly one product, whatever the distances", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 30 }), (positions) => {
        const order = positions.map((_, i) => listing(i, "Neck fan"));
        const distance = (a: number, b: number) => Math.abs(positions[a] - positions[b]);
        const near = (id: number, radius: number) => order.filter((o) => o.id !== id && distance(id, o.id) <= radius).map((o) => ({ id: o.id, distance: distance(id, o.id) }));
        const clusters = clusterListings(order, near, distance);
        const ids = clusters.flatMap((c) => c.members.map((m) => m.id)).sort((a, b) => a - b);
        expect(ids).toEqual(order.map((o) => o.id));
        for (const c of clusters) for (const m of c.members) expect(distance(m.id, c.anchorId)).toBeLessThanOrEqual(MATCH.maxDiameter);
      }),
    );
  });
});
