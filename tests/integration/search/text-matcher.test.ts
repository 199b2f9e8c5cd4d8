// The text matcher's reads (issue 35, item 19): a text of several words whose every word's matches are at hand is
// intersected in memory, the same rows as the full-text index's own answer, and the broadest words of a catalogue are
// read when its index version loads and kept for that version whatever else is searched. Statements are counted on
// the real reader (the database answers every one of them).
import { beforeAll, describe, expect, it } from "vitest";
import { db, readerFor, type SqlReader } from "~/db.server";
import { CatalogIndex } from "~/services/search/catalog-index.server";
import { TextMatcher } from "~/services/search/text-matcher.server";
import { fixtureCatalogue, insertProducts } from "../../helpers/products";

/** The app's reader, counting the statements sent through it. */
function counting(reader: SqlReader): SqlReader & { sent: number } {
  const counted = {
    dialect: reader.dialect,
    sent: 0,
    rows: (sql: string, args?: Parameters<SqlReader["rows"]>[1]) => {
      counted.sent++;
      return reader.rows(sql, args);
    },
    row: (sql: string, args?: Parameters<SqlReader["row"]>[1]) => {
      counted.sent++;
      return reader.row(sql, args);
    },
  };
  return counted;
}

const idsOf = (index: CatalogIndex, rows: Int32Array) => [...rows].map((row) => index.cols.ids[row]);

let index: CatalogIndex;

beforeAll(async () => {
  await insertProducts(db, fixtureCatalogue(120, 35));
  index = await CatalogIndex.load(readerFor(db)!);
});

describe("the text matcher", () => {
  it("answers a text of several words from its words' sets when all are at hand: the rows the index answers, no statement", async () => {
    const { words, counts } = index.vocabulary;
    // Two words that share products and each leave some out, so that the intersection is neither empty nor either set.
    const common = words.filter((_, i) => counts[i] >= 10 && counts[i] <= 100).slice(0, 12);
    let tried = 0;
    for (const a of common) {
      for (const b of common) {
        if (a >= b) continue;
        const fts = `"${a}" "${b}"`;
        const expected = idsOf(index, (await new TextMatcher(readerFor(db)!).all(index, fts)).rows);
        const reader = counting(readerFor(db)!);
        const matcher = new TextMatcher(reader);
        const first = (await matcher.all(index, `"${a}"`)).rows.length;
        const second = (await matcher.all(index, `"${b}"`)).rows.length;
        expect(reader.sent).toBe(2);
        expect(idsOf(index, (await matcher.all(index, fts)).rows), fts).toEqual(expected);
        expect(reader.sent, "the intersection reads nothing").toBe(2);
        if (expected.length > 0 && expected.length < Math.min(first, second)) tried++;
      }
    }
    expect(tried, "pairs whose intersection is smaller than both words' sets").toBeGreaterThan(3);
  });

  it("reads a text of several words whole when one word's set is not at hand", async () => {
    const reader = counting(readerFor(db)!);
    const matcher = new TextMatcher(reader);
    const [a, b] = index.vocabulary.words.filter((_, i) => index.vocabulary.counts[i] >= 10);
    await matcher.all(index, `"${a}"`);
    await matcher.all(index, `"${a}" "${b}"`);
    expect(reader.sent).toBe(2);
  });

  it("reads the broadest words when a version loads and keeps them for it, whatever else is searched", async () => {
    const { words, counts } = index.vocabulary;
    const order = words.map((_, i) => i).sort((x, y) => counts[y] - counts[x]);
    const broadest = `"${words[order[0]]}"`;
    const reader = counting(readerFor(db)!);
    const matcher = new TextMatcher(reader);
    // A catalogue below the size read ahead: nothing is read.
    await matcher.warm(index);
    expect(reader.sent).toBe(0);
    await matcher.warm(index, 0);
    const warmed = reader.sent;
    expect(warmed).toBeGreaterThan(0);
    expect(warmed).toBeLessThanOrEqual(2 * 48);
    // More texts than the cache keeps pass through it.
    for (const i of order.slice(60, 160)) await matcher.all(index, `"${words[i]}"*`);
    const before = reader.sent;
    const set = await matcher.all(index, broadest);
    expect(reader.sent, "the broadest word is read ahead").toBe(before);
    expect(idsOf(index, set.rows)).toEqual(
      idsOf(index, (await new TextMatcher(readerFor(db)!).all(index, broadest)).rows),
    );
    // A rare word is not read ahead.
    await matcher.all(index, `"${words[order[order.length - 1]]}"`);
    expect(reader.sent).toBe(before + 1);
  });
});
