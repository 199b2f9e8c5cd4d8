// What a first (cold) search reads from the full-text index (issue 35, item 19; docs/decisions/093): the ranking of
// products matching most of a text reads a broad word's title postings only among the products that can be kept,
// and a misspelt text whose correction is searched ranks nothing of the text as typed. The pages stay what they were:
// every word first, then title words, then the sort's order, whichever way the order is produced.
import { beforeAll, describe, expect, it } from "vitest";
import { db, sqlReader, type SqlReader } from "~/db.server";
import { parseProductQuery } from "~/domain/products/product-query";
import { CatalogSearch } from "~/services/search/catalog-search.server";
import { fixtureCatalogue, insertProducts, type FixtureProduct } from "../../helpers/products";

// 600 generated products, a hundred of each adjective ("portable" among them), and eight choppers, three portable.
const base = fixtureCatalogue(600, 3);
const chopper = (title: string, i: number, score: number): FixtureProduct => ({
  ...base[i],
  objectID: `chop-${i}`,
  title,
  description: `A ${title.toLowerCase()} for the kitchen.`,
  winningScore: score,
});
const catalogue = [
  ...base,
  chopper("Portable Vegetable Chopper", 1, 10),
  chopper("Portable Onion Chopper", 2, 20),
  chopper("Portable Garlic Chopper", 3, 30),
  ...[4, 5, 6, 7, 8].map((i) => chopper(`Onion Chopper ${["Pro", "Max", "Mini", "Plus", "One"][i - 4]}`, i, 40 + i)),
];

/** The full-text reads a search made: the FTS5 query and how many product ids it returned. */
interface Read {
  fts: string;
  ids: number;
}
let reads: Read[] = [];
const recording: SqlReader = {
  dialect: sqlReader.dialect,
  async rows(sql, args) {
    const rows = await sqlReader.rows(sql, args);
    if (sql.includes("MATCH")) {
      const first = rows[0]?.[0];
      const ids = sql.includes("group_concat") ? (first ? String(first).split(",").length : 0) : rows.length;
      reads.push({ fts: String(args?.[0]), ids });
    }
    return rows;
  },
  row: (sql, args) => sqlReader.row(sql, args),
};

const engine = new CatalogSearch(recording);
const search = async (params: string) => {
  reads = [];
  const page = await engine.search(parseProductQuery(new URLSearchParams(params)));
  return { page, reads };
};
let titleOf = new Map<number, string>();

beforeAll(async () => {
  await insertProducts(db, catalogue);
  const rows = await db.product.findMany({ select: { id: true, title: true } });
  titleOf = new Map(rows.map((r) => [r.id, r.title]));
});

describe("the first search of a text", () => {
  it("reads a broad word's title postings only where the rare word beside it is", async () => {
    const { page, reads } = await search("q=chopper%20portable&pageSize=48");
    // Three products carry both words, fewer than the ranking's threshold: the other choppers follow them.
    expect(page).toMatchObject({ matchedSomeWords: true, total: 8, correctedQuery: null });
    expect(page.ids.map((id) => titleOf.get(id))).toEqual([
      "Portable Garlic Chopper",
      "Portable Onion Chopper",
      "Portable Vegetable Chopper",
      "Onion Chopper One",
      "Onion Chopper Plus",
      "Onion Chopper Mini",
      "Onion Chopper Max",
      "Onion Chopper Pro",
    ]);
    // "portable" itself is read whole (its weight is how rare it is); its title postings only beside "chopper".
    const titleReads = reads.filter((r) => r.fts.includes("title"));
    expect(titleReads.length).toBeGreaterThan(0);
    expect(titleReads.reduce((n, r) => n + r.ids, 0)).toBeLessThanOrEqual(8 + 3);
  });

  it("ranks nothing of a misspelt text whose correction is searched instead", async () => {
    const { page, reads } = await search("q=choper%20portable&pageSize=48");
    expect(page).toMatchObject({ correctedQuery: "chopper portable", originalQuery: "choper portable", total: 8, matchedSomeWords: true });
    expect(page.ids.slice(0, 3).map((id) => titleOf.get(id))).toEqual(["Portable Garlic Chopper", "Portable Onion Chopper", "Portable Vegetable Chopper"]);
    // The typed text's every-word read, then the corrected text's: no word of the typed text is read alone.
    expect(reads.filter((r) => r.fts.includes('"choper"')).map((r) => r.fts)).toEqual(['"choper" "portable"']);
  });

  it("orders the products matching most of the text as the sort walks them, in every sort", async () => {
    // "qqqzzz" matches nothing: every "portable" product carries the whole weight, so the partial ranking lists them
    // in exactly the sort's order, as the plain search of "portable" does.
    for (const sort of ["winning-score", "orders", "price-asc", "price", "newest", "margin", "trending"]) {
      const plain = await search(`q=portable&sort=${sort}&pageSize=48`);
      const partial = await search(`q=portable%20qqqzzz&sort=${sort}&pageSize=48`);
      expect(partial.page.matchedSomeWords, sort).toBe(true);
      expect(partial.page.total, sort).toBe(plain.page.total);
      expect(partial.page.ids, sort).toEqual(plain.page.ids);
    }
    for (const seed of [1, 99, 12345]) {
      const plain = await search(`q=portable&sort=random&seed=${seed}&pageSize=48`);
      const partial = await search(`q=portable%20qqqzzz&sort=random&seed=${seed}&pageSize=48`);
      expect(partial.page.ids, `seed ${seed}`).toEqual(plain.page.ids);
    }
  });

  it("gives each page of a ranking walked only as far as the pages asked for, whatever the order they are asked in", async () => {
    // A fresh engine: the ranking of "portable qqqzzz" is made by the first page asked for (page 3), walked as far as
    // that page needs, and walked on for the later ones; every page is the plain search's page of "portable".
    const fresh = new CatalogSearch(recording);
    for (const page of [3, 1, 9, 2, 8, 5]) {
      const partial = await fresh.search(parseProductQuery(new URLSearchParams(`q=portable%20qqqzzz&sort=orders&pageSize=12&page=${page}`)));
      const plain = await search(`q=portable&sort=orders&pageSize=12&page=${page}`);
      expect(partial.matchedSomeWords, `page ${page}`).toBe(true);
      expect(partial.ids, `page ${page}`).toEqual(plain.page.ids);
      expect(partial.hasMore, `page ${page}`).toBe(plain.page.hasMore);
      expect(partial.ids.length, `page ${page}`).toBeGreaterThan(0);
    }
  });
});
