// The measured catalogue on real-catalogue patterns (decision 087): the labelled set of bench/catalogue-real-set
// (true pairs reworded, re-priced and re-encoded; hard negatives that are versions of one line under one packshot,
// one brand's products, items told apart by barcodes or options), every picture drawn with sharp and fingerprinted
// by the real adapter, every pair decided by the real rules. A quality test: it fails below the targets, it times
// nothing. `npm run bench -- catalogue` prints the same figures.
import { describe, expect, it } from "vitest";
import { describeQuality, fingerprintedSet, scoreSet } from "../../../bench/catalogue-real-set/evaluate";

describe("the labelled set of real-catalogue patterns", () => {
  it("is at least 300 pairs, a third of them hard negatives, over stores that list whole lines", async () => {
    const { set, hashes } = await fingerprintedSet();
    expect(set.pairs.length).toBeGreaterThanOrEqual(300);
    expect(set.pairs.filter((p) => !p.same).length).toBeGreaterThanOrEqual(set.pairs.length / 3);
    expect(set.pairs.some((p) => p.kind.endsWith("one store")) && set.pairs.some((p) => p.kind.endsWith("two stores"))).toBe(true);

    const q = scoreSet(set, hashes);
    const report = describeQuality(q).join("\n");
    expect(q.precision, report).toBeGreaterThanOrEqual(0.97);
    expect(q.recall, report).toBeGreaterThanOrEqual(0.9);
  }, 120_000);
});
