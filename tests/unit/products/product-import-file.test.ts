// Reading product files (scripts/lib/product-file.ts): format detection, line numbers of JSON array
// elements, NDJSON and CSV rows with the line they start on.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { shapeError } from "~/domain/products/product-import";
import { arrayElementLines, detectFormat, openProductFile, ProductFileError } from "../../../scripts/lib/product-file";

const dir = mkdtempSync(path.join(tmpdir(), "product-file-"));
function file(name: string, text: string) {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
}

async function rows(p: string) {
  const source = await openProductFile(p);
  const out: { line: number; row: unknown }[] = [];
  for await (const r of source.rows) out.push(r);
  return out;
}

describe("arrayElementLines", () => {
  it("finds the line each top-level element starts on, whatever its strings contain", () => {
    const text = '[\n  {"a": "[x],{y}", "b": [1, {"c": "\\"]"}]},\n\n  {"d": 2}, 3,\n  "s"\n]';
    expect(arrayElementLines(text)).toEqual([2, 4, 4, 5]);
    expect(JSON.parse(text)).toHaveLength(4);
  });
  it("an empty array has no elements", () => {
    expect(arrayElementLines("[ ]")).toEqual([]);
    expect(arrayElementLines("[\n]\n")).toEqual([]);
  });
});

describe("detectFormat", () => {
  it("uses the extension, or the first character", async () => {
    expect(await detectFormat(file("a.ndjson", "{}"))).toBe("ndjson");
    expect(await detectFormat(file("a.jsonl", "{}"))).toBe("ndjson");
    expect(await detectFormat(file("a.csv", "objectID"))).toBe("csv");
    expect(await detectFormat(file("a.json", "  [{}]"))).toBe("json");
    expect(await detectFormat(file("b.json", '{"a":1}\n{"a":2}'))).toBe("ndjson");
    expect(await detectFormat(file("export.txt", "\uFEFF[1]"))).toBe("json");
    expect(await detectFormat(file("export.dat", "objectID,title"))).toBe("csv");
    await expect(detectFormat(file("c.json", "objectID,title"))).rejects.toThrow(ProductFileError);
  });
});

describe("openProductFile", () => {
  it("NDJSON: skips blank lines, keeps physical line numbers, marks broken lines", async () => {
    const result = await rows(file("r.ndjson", '{"objectID":"a"}\n\n{oops\r\n{"objectID":"b"}\n'));
    expect(result.map((r) => r.line)).toEqual([1, 3, 4]);
    expect(shapeError(result[1].row)).toMatch(/^not valid JSON/);
    expect(result[2].row).toEqual({ objectID: "b" });
  });

  it("CSV: a record spanning lines is reported on its first line; an unclosed quote is a bad row", async () => {
    const header = "objectID,title,description,niches,costCents,priceCents,firstSeenAt,historyStartDay,historyOrders,historyRevenueCents,historyViews,historyLikes,historyComments,historyShares,historyStoresSelling";
    const row = (id: string, description: string) => `${id},Mug,${description},kitchen,1,2,2026-01-01,2026-01-01,1,2,3,4,5,6,7`;
    const text = [header, row("a", '"two\nlines"'), "", row("b", "plain"), row("c", '"never closed')].join("\n");
    const result = await rows(file("r.csv", text));
    expect(result.map((r) => r.line)).toEqual([2, 5, 6]);
    expect((result[0].row as { description: string }).description).toBe("two\nlines");
    expect(shapeError(result[2].row)).toBe("has a quoted field that is never closed");
  });

  it("CSV: unknown columns are a warning, missing required ones an error", async () => {
    const ok = await openProductFile(file("w.csv", "objectID,title,description,niches,costCents,priceCents,firstSeenAt,historyStartDay,historyOrders,historyRevenueCents,historyViews,historyLikes,historyComments,historyShares,historyStoresSelling,colour\n"));
    expect(ok.warnings).toEqual(["ignored unknown CSV column: colour"]);
    await expect(openProductFile(file("m.csv", "objectID,title\n"))).rejects.toThrow(/lacks required columns/);
    await expect(openProductFile(file("blank.csv", "\n\n"))).rejects.toThrow(/no CSV header/);
  });

  it("JSON: must be an array; the row count is known", async () => {
    const source = await openProductFile(file("a.json", '[{"objectID":"a"},\n{"objectID":"b"}]'));
    expect(source.estimatedRows()).toBe(2);
    await expect(openProductFile(file("n.json", "[1,"))).rejects.toThrow(/not valid JSON/);
    await expect(openProductFile(file("s.json", '["just text"'))).rejects.toThrow(ProductFileError);
  });
});
