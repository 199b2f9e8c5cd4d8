// The import row format (app/domain/products/product-import.ts): what a good row becomes, the message for
// each kind of bad field, and CSV rows (flat columns, "|" lists) meaning exactly what JSON rows mean.
import { describe, expect, it } from "vitest";
import {
  checkCsvHeader,
  csvEscape,
  csvRecordToRow,
  CsvLineReader,
  defaultRandomSortKey,
  nicheSlug,
  packSeries,
  parseProductRow,
  PRODUCT_CSV_COLUMNS,
  REQUIRED_CSV_COLUMNS,
  rowToCsvFields,
  shapeError,
  toCsvLine,
  unpackSeries,
  unreadableRow,
  type ProductImportInput,
} from "~/domain/products/product-import";
import { generateProducts } from "../../../scripts/lib/product-generator";

function goodRow(): ProductImportInput {
  return {
    objectID: "dog-brush-1",
    title: "  Self-Cleaning Slicker Brush for Dogs and Cats ",
    description: "Removes loose hair, then clears itself at the push of a button.",
    niches: ["Pets", "Home & Garden", "pets"],
    tags: ["dogs", "Dogs", "grooming"],
    images: ["/product-images/dog-brush-1-1.svg", "https://cdn.example.com/a.jpg"],
    supplierName: "Yiwu Example Trading Co., Ltd.",
    supplierUrl: "https://suppliers.example/yiwu/dog-brush-1",
    costCents: 450,
    priceCents: 1999,
    shippingCents: 299,
    amazonPriceCents: 2499,
    firstSeenAt: "2026-01-15",
    lastUpdatedAt: "2026-03-31T23:00:00Z",
    randomSortKey: 12345,
    history: {
      startDay: "2026-03-29",
      orders: [3, 4, 5],
      revenueCents: [5997, 7996, 9995],
      views: [900, 1200, 1500],
      likes: [30, 40, 50],
      comments: [1, 2, 3],
      shares: [0, 1, 2],
      storesSelling: [2, 2, 3],
    },
  };
}

function reasonFor(mutate: (row: Record<string, unknown>) => void): string {
  const row = structuredClone(goodRow()) as unknown as Record<string, unknown>;
  mutate(row);
  const result = parseProductRow(row);
  if (result.ok) throw new Error("expected a rejection");
  return result.reason;
}

const history = (row: Record<string, unknown>) => row.history as Record<string, unknown>;

describe("a good row", () => {
  it("is normalised: trimmed text, niche slugs, unique tags, dates, defaults", () => {
    const result = parseProductRow(goodRow());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.row).toMatchObject({
      objectID: "dog-brush-1",
      title: "Self-Cleaning Slicker Brush for Dogs and Cats",
      niches: ["pets", "home-garden"],
      tags: ["dogs", "grooming"],
      costCents: 450,
      priceCents: 1999,
      shippingCents: 299,
      amazonPriceCents: 2499,
      randomSortKey: 12345,
    });
    expect(result.row.firstSeenAt.toISOString()).toBe("2026-01-15T00:00:00.000Z");
    expect(result.row.lastUpdatedAt?.toISOString()).toBe("2026-03-31T23:00:00.000Z");
  });

  it("fills absent optional fields with null or their default", () => {
    const row: Record<string, unknown> = { ...goodRow() };
    for (const key of ["supplierName", "supplierUrl", "shippingCents", "amazonPriceCents", "lastUpdatedAt", "randomSortKey"]) delete row[key];
    const result = parseProductRow(row);
    expect(result.ok && result.row).toMatchObject({
      supplierName: null,
      supplierUrl: null,
      shippingCents: 0,
      amazonPriceCents: null,
      lastUpdatedAt: null,
      randomSortKey: null,
    });
  });

  it("accepts a numeric objectID, empty tags and images, and an empty description", () => {
    const result = parseProductRow({ ...goodRow(), objectID: 42, tags: [], images: [], description: "" });
    expect(result.ok && result.row.objectID).toBe("42");
  });
});

describe("a bad row names its field and the problem", () => {
  const cases: [string, (row: Record<string, unknown>) => void, string][] = [
    ["missing objectID", (r) => delete r.objectID, "objectID is required"],
    ["objectID with spaces", (r) => (r.objectID = "a b"), "objectID may only contain letters, digits, '.', '_', ':' and '-'"],
    ["empty title", (r) => (r.title = "   "), "title must not be empty"],
    ["title not text", (r) => (r.title = 5), "title must be text"],
    ["no niches", (r) => (r.niches = []), "niches must name at least one niche"],
    ["niches missing", (r) => delete r.niches, "niches is required"],
    ["a niche of symbols", (r) => (r.niches = ["pets", "!!!"]), "niches[1] must contain letters or digits"],
    ["tags not a list", (r) => (r.tags = "dogs"), "tags must be a list of tags (may be empty)"],
    ["an empty tag", (r) => (r.tags = ["ok", " "]), "tags[1] must not be empty"],
    ["an image that is not a URL", (r) => (r.images = ["javascript:alert(1)"]), "images[0] must be an http(s) URL or a path starting with /"],
    ["a supplier URL that is not http", (r) => (r.supplierUrl = "ftp://x.example"), "supplierUrl must be an http(s) URL (at most 2000 characters)"],
    ["cost below zero", (r) => (r.costCents = -1), "costCents must not be negative"],
    ["a free product", (r) => (r.priceCents = 0), "priceCents must be at least 1 cent"],
    ["a price in dollars", (r) => (r.priceCents = 19.99), "priceCents must be a whole number of cents"],
    ["a price as text", (r) => (r.priceCents = "1999"), "priceCents must be a whole number of cents"],
    ["missing price", (r) => delete r.priceCents, "priceCents is required"],
    ["an Amazon price of 0", (r) => (r.amazonPriceCents = 0), "amazonPriceCents must be at least 1 cent"],
    ["an impossible date", (r) => (r.firstSeenAt = "2026-02-30"), "firstSeenAt must be an ISO 8601 date such as 2026-01-31 or 2026-01-31T12:00:00Z"],
    ["a time without a zone", (r) => (r.firstSeenAt = "2026-02-03T10:00"), "firstSeenAt must be an ISO 8601 date"],
    ["a random sort key too big", (r) => (r.randomSortKey = 2 ** 31), "randomSortKey must be at most 2147483647"],
    ["no history", (r) => delete r.history, "history is required"],
    ["a bad start day", (r) => (history(r).startDay = "2026/03/29"), "history.startDay must be a calendar day written YYYY-MM-DD"],
    ["a negative day", (r) => (history(r).views = [900, -5, 1500]), "history.views[1] must be a whole number from 0 to 70000000, got -5"],
    ["a fractional day", (r) => (history(r).orders = [3, 4.5, 5]), "history.orders[1] must be a whole number from 0 to 10000000, got 4.5"],
    ["a text day", (r) => (history(r).likes = [30, "x", 50]), 'history.likes[1] must be a whole number from 0 to 70000000, got "x"'],
    ["series of different lengths", (r) => (history(r).shares = [0, 1]), "history.shares has 2 days but history.orders has 3; every series needs one value a day"],
    ["an empty series", (r) => (history(r).orders = []), "history.orders must have from 1 to 365 days, has 0"],
    ["more than a year", (r) => (history(r).comments = Array(366).fill(0)), "history.comments must have from 1 to 365 days, has 366"],
    ["a series that is not a list", (r) => (history(r).storesSelling = "2|2|3"), "history.storesSelling must be a list of whole numbers, one a day"],
  ];
  for (const [name, mutate, message] of cases) {
    it(name, () => expect(reasonFor(mutate)).toContain(message));
  }

  it("counts further problems without listing them all", () => {
    expect(reasonFor((r) => ((r.title = ""), (r.priceCents = -3), (r.costCents = "a")))).toBe("title must not be empty (and 2 more problems)");
    expect(reasonFor((r) => ((r.title = ""), (r.priceCents = -3)))).toBe("title must not be empty (and 1 more problem)");
  });

  it("a row that is not an object", () => {
    for (const value of [null, 5, "text", [1, 2]]) {
      const result = parseProductRow(value);
      expect(result.ok).toBe(false);
    }
    expect(parseProductRow("x")).toEqual({ ok: false, reason: "must be an object (one product)" });
  });
});

describe("helpers", () => {
  it("niche slugs", () => {
    expect(nicheSlug("Home & Garden")).toBe("home-garden");
    expect(nicheSlug("  Café Décor ")).toBe("cafe-decor");
    expect(nicheSlug("pets")).toBe("pets");
  });
  it("a default random sort key is stable and in range", () => {
    expect(defaultRandomSortKey("abc")).toBe(defaultRandomSortKey("abc"));
    expect(defaultRandomSortKey("abc")).not.toBe(defaultRandomSortKey("abd"));
    for (const id of ["", "x", "gen1-0000001", "a".repeat(100)]) {
      const key = defaultRandomSortKey(id);
      expect(Number.isInteger(key) && key >= 0 && key <= 2_147_483_647).toBe(true);
    }
  });
  it("packs and unpacks a series", () => {
    expect(packSeries([0, 12, 345])).toBe("0,12,345");
    expect(unpackSeries("0,12,345")).toEqual([0, 12, 345]);
    expect(unpackSeries(packSeries([7]))).toEqual([7]);
  });
  it("marks unreadable rows", () => {
    expect(shapeError(unreadableRow("not valid JSON"))).toBe("not valid JSON");
    expect(shapeError({ objectID: "x" })).toBeNull();
    expect(shapeError(null)).toBeNull();
  });
});

describe("CSV", () => {
  it("reads quoted fields with commas, doubled quotes, line breaks and CRLF endings", () => {
    const reader = new CsvLineReader();
    expect(reader.push('a,"b, c","say ""hi""",')).toEqual(["a", "b, c", 'say "hi"', ""]);
    expect(reader.push('1,"two')).toBeNull();
    expect(reader.open).toBe(true);
    expect(reader.push('lines",3\r')).toEqual(["1", "two\nlines", "3"]);
    expect(reader.open).toBe(false);
    expect(reader.push('"",x')).toEqual(["", "x"]);
  });

  it("quotes only what needs quoting", () => {
    expect(csvEscape("plain")).toBe("plain");
    expect(csvEscape("a,b")).toBe('"a,b"');
    expect(csvEscape('say "x"')).toBe('"say ""x"""');
    expect(csvEscape("two\nlines")).toBe('"two\nlines"');
    expect(toCsvLine(["a", "b,c"])).toBe('a,"b,c"');
  });

  it("checks the header for required, unknown and repeated columns", () => {
    expect(checkCsvHeader([...PRODUCT_CSV_COLUMNS])).toEqual({ missing: [], unknown: [], duplicate: [] });
    expect(checkCsvHeader(REQUIRED_CSV_COLUMNS)).toEqual({ missing: [], unknown: [], duplicate: [] });
    const check = checkCsvHeader(["objectID", "title", "colour", "title"]);
    expect(check.missing).toContain("priceCents");
    expect(check.unknown).toEqual(["colour"]);
    expect(check.duplicate).toEqual(["title"]);
  });

  it("a flat record means the same product as its JSON row", () => {
    const row = goodRow();
    const header = [...PRODUCT_CSV_COLUMNS];
    const fromCsv = parseProductRow(csvRecordToRow(header, rowToCsvFields(row)));
    const fromJson = parseProductRow(row);
    expect(fromCsv).toEqual(fromJson);
  });

  it("round-trips generated products (descriptions with commas and quotes) through CSV text", () => {
    const header = [...PRODUCT_CSV_COLUMNS];
    for (const row of generateProducts(50, { seed: 5, endDay: "2026-03-31" })) {
      row.description += ' Said "great", twice.\nSecond line.';
      const reader = new CsvLineReader();
      const lines = toCsvLine(rowToCsvFields(row)).split("\n");
      let fields: string[] | null = null;
      for (const line of lines) fields = reader.push(line);
      expect(parseProductRow(csvRecordToRow(header, fields!))).toEqual(parseProductRow(row));
    }
  });

  it("only required columns are enough; empty optional cells mean 'not given'", () => {
    const header = [...REQUIRED_CSV_COLUMNS, "shippingCents", "tags"];
    const fields = ["p9", "Mug", "", "kitchen|drinkware", "350", "1200", "2026-01-02", "2026-03-30", "1|2", "1200|2400", "10|20", "1|1", "0|0", "0|0", "1|1", "", ""];
    const result = parseProductRow(csvRecordToRow(header, fields));
    expect(result.ok && result.row).toMatchObject({ objectID: "p9", niches: ["kitchen", "drinkware"], tags: [], shippingCents: 0, images: [], description: "" });
  });

  it("reports cells that are not whole numbers by field", () => {
    const header = [...PRODUCT_CSV_COLUMNS];
    const fields = rowToCsvFields(goodRow());
    fields[header.indexOf("costCents")] = "4.50";
    expect(parseProductRow(csvRecordToRow(header, fields))).toEqual({ ok: false, reason: "costCents must be a whole number of cents" });
    const again = rowToCsvFields(goodRow());
    again[header.indexOf("historyViews")] = "900|lots|1500";
    expect(parseProductRow(csvRecordToRow(header, again))).toEqual({
      ok: false,
      reason: 'history.views[1] must be a whole number from 0 to 70000000, got "lots"',
    });
  });

  it("a record with the wrong number of fields is unreadable, with the counts", () => {
    const row = csvRecordToRow(["objectID", "title"], ["a"]);
    expect(shapeError(row)).toBe("has 1 field but the header has 2");
  });
});
