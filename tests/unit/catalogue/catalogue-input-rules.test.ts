// The sentences a store's status carries when a read or its pictures left something out (app/domain/competitors/competitors.ts
// readNote, pictureNote; docs/decisions/059), and when two picture URLs name the same file
// (app/domain/catalogue/hash.ts samePictureFile).
import { describe, expect, it } from "vitest";
import { samePictureFile } from "~/domain/catalogue/hash";
import { pictureNote, readNote } from "~/domain/competitors/competitors";
import type { ProductSnapshot } from "~/domain/crawl/store-snapshot";

const product = (id: number, handle = `p-${id}`, prices = [1999]): ProductSnapshot => ({
  id: String(id),
  handle,
  title: `Product ${id}`,
  productType: "",
  vendor: "",
  tags: [],
  createdAt: null,
  publishedAt: null,
  updatedAt: null,
  images: [],
  variants: prices.map((p, i) => ({ id: `${id}-${i}`, title: "", sku: null, priceCents: p, compareAtCents: null, available: true })),
});

describe("readNote", () => {
  it("says nothing of a whole, clean read (or a snapshot rebuilt from storage)", () => {
    expect(readNote({ products: [product(1), product(2)], truncated: false, leftOut: { unreadable: 0, repeatedIds: 0, listed: 2 } })).toBeNull();
    expect(readNote({ products: [product(1)], truncated: false })).toBeNull();
  });

  it("names each thing left out, with singular and plural words", () => {
    expect(readNote({ products: [product(1, "a", [])], truncated: false, leftOut: { unreadable: 1, repeatedIds: 1, listed: 3 } })).toBe(
      "1 of 3 products in the catalogue could not be read (no product id or handle) and was left out. " +
        "1 product shows no price we could read, so it is tracked without one. " +
        "1 product repeats the id of another product in the same catalogue; we kept the first.",
    );
    expect(readNote({ products: [product(1, "a"), product(2, "a"), product(3, "b"), product(4, "b")], truncated: false })).toBe(
      '2 handles are each used by more than one product ("a", "b"), so links to them may open the same page.',
    );
  });

  it("says where a capped read stopped and that nothing past it is counted as removed", () => {
    const products = Array.from({ length: 3 }, (_, i) => product(i));
    expect(readNote({ products, truncated: true, caps: { maxProducts: 10_000, maxPages: 40, maxBytes: 100 * 1024 * 1024 } })).toBe(
      "This catalogue is larger than one read takes: we stopped after 3 products (at most 10,000 products, 40 pages or 100 MB a read). " +
        "Products past that point are not tracked, and none of them is counted as removed.",
    );
  });
});

describe("pictureNote", () => {
  it("counts the unusable pictures and gives the most common reason", () => {
    expect(pictureNote(5, 0, null)).toBeNull();
    expect(pictureNote(5, 2, "The image is not there any more (the server answered 404).")).toBe(
      "2 of 5 product pictures could not be used, so those products are not matched until the picture can be read. The most common reason: The image is not there any more (the server answered 404).",
    );
    expect(pictureNote(1, 1, "The picture is an empty file.")).toBe(
      "The product picture could not be used, so that product is not matched until the picture can be read. The reason: The picture is an empty file.",
    );
  });
});

describe("samePictureFile", () => {
  it("treats URLs differing only in Shopify's cache-busting v parameter as the same file", () => {
    const base = "https://cdn.shopify.com/s/files/1/0001/products/fan.jpg";
    expect(samePictureFile(`${base}?v=1700000000`, `${base}?v=1700000999`)).toBe(true);
    expect(samePictureFile(`${base}?v=1&width=800`, `${base}?width=800&v=2`)).toBe(true);
    expect(samePictureFile(base, `${base}?v=2`)).toBe(true);
  });

  it("keeps every other difference: another file, size, host or a query that is not v", () => {
    const base = "https://cdn.shopify.com/s/files/1/0001/products/fan.jpg";
    expect(samePictureFile(`${base}?v=1`, "https://cdn.shopify.com/s/files/1/0001/products/fan_2.jpg?v=1")).toBe(false);
    expect(samePictureFile(`${base}?width=800`, `${base}?width=400`)).toBe(false);
    expect(samePictureFile(`${base}?v=1`, `https://other.cdn.test/s/files/1/0001/products/fan.jpg?v=1`)).toBe(false);
    expect(samePictureFile("https://img.test/pic?id=1", "https://img.test/pic?id=2")).toBe(false);
    expect(samePictureFile("not a url", "not a url either")).toBe(false);
  });
});
