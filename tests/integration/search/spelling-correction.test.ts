// "bluetoth speker" finds the Bluetooth speakers: the built-in engine corrects a text that finds nothing
// from the catalogue's own words, says so (correctedQuery / originalQuery) through GET /api/products and
// the product grid's loader, searches the text as typed on request (literal=1), and learns new words
// when the catalogue changes.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { loader as productsApi } from "~/routes/api.products";
import { loader as gridLoader } from "~/routes/dashboard.products._index";
import { fixtureCatalogue, insertProducts, type FixtureProduct } from "../../helpers/products";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

const base = fixtureCatalogue(40, 5);
const titled = (title: string, i: number, niches = ["audio"]): FixtureProduct => ({ ...base[i], objectID: `sp-${title}-${i}`, title, niches });
const catalogue = [
  ...base.map((p, i) => ({ ...p, objectID: `spell-${i}` })),
  ...[0, 1, 2, 3].map((i) => titled("Waterproof Bluetooth Speaker", i)),
  titled("Retro Bluetooth Speaker", 4),
  titled("Bluetooth Tracker", 5, ["tech-gadgets"]),
  titled("Sneaker Cleaning Kit", 6, ["fashion"]),
];

interface Page {
  items: { objectID: string; title: string }[];
  total: number;
  correctedQuery: string | null;
  originalQuery: string | null;
}

let cookie = "";
async function search(query: string): Promise<Page> {
  const res = await call(productsApi, `/api/products?${query}`, { cookie });
  expect(res.status).toBe(200);
  return (await res.json()) as Page;
}

beforeAll(async () => {
  await insertProducts(db, catalogue);
  cookie = (await createSignedInUser({ userSubscribed: "yes" })).cookie;
});

describe("GET /api/products with a misspelt text", () => {
  it("searches the corrected text and says so", async () => {
    const page = await search("q=bluetoth%20speker&pageSize=48");
    expect(page).toMatchObject({ correctedQuery: "bluetooth speaker", originalQuery: "bluetoth speker", total: 5 });
    expect(page.items.map((i) => i.title).sort()).toEqual([...Array(4).fill("Waterproof Bluetooth Speaker"), "Retro Bluetooth Speaker"].sort());
  });

  it("corrects with filters and sorts kept", async () => {
    const page = await search("q=Bluetoth&sort=price-asc&niche=audio");
    expect(page).toMatchObject({ correctedQuery: "bluetooth", originalQuery: "Bluetoth", total: 5 });
    const prices = catalogue.filter((p) => p.title.includes("Speaker")).map((p) => p.priceCents);
    expect(page.items).toHaveLength(5);
    expect(prices.sort((a, b) => a - b)[0]).toBe(catalogue.find((p) => p.objectID === page.items[0].objectID)!.priceCents);
  });

  it("searches the text as typed with literal=1 (Search instead for ...)", async () => {
    const page = await search("q=bluetoth%20speker&literal=1");
    expect(page).toMatchObject({ total: 0, items: [], correctedQuery: null, originalQuery: null });
    const bad = await call(productsApi, "/api/products?q=bluetoth&literal=maybe", { cookie });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ param: "literal" });
  });

  it("leaves alone a text that finds products, known words that find nothing together, and nonsense", async () => {
    expect(await search("q=bluetooth%20speaker")).toMatchObject({ total: 5, correctedQuery: null, originalQuery: null });
    // Both words are the catalogue's, just not in one title: nothing to correct; the products matching one
    // of the words are shown instead of nothing, and said to be (issue 25).
    expect(await search("q=sneaker%20tracker")).toMatchObject({ total: 2, correctedQuery: null, originalQuery: null, matchedSomeWords: true });
    expect(await search("q=xyzzyplughq")).toMatchObject({ total: 0, correctedQuery: null, originalQuery: null });
    // Whether a word is misspelt does not depend on the filters: where they exclude every speaker, the corrected
    // text finds none, and the seller is told what was searched (issue 35).
    expect(await search("q=bluetoth%20speker&niche=pets")).toMatchObject({ total: 0, correctedQuery: "bluetooth speaker", originalQuery: "bluetoth speker" });
    // No text, no correction.
    expect(await search("pageSize=1")).toMatchObject({ correctedQuery: null, originalQuery: null });
  });

  it("learns the catalogue's new words when the catalogue changes", async () => {
    expect(await search("q=tamarnd")).toMatchObject({ total: 0, correctedQuery: null });
    await insertProducts(db, [titled("Tamarind Spice Grinder", 7, ["kitchen"])]);
    const after = await search("q=tamarnd");
    expect(after).toMatchObject({ correctedQuery: "tamarind", originalQuery: "tamarnd", total: 1 });
    expect(after.items[0].title).toBe("Tamarind Spice Grinder");
    // Now a product spelt "Tamarnd" makes it a word of the catalogue: found as typed, not corrected.
    await insertProducts(db, [titled("Tamarnd Tea Towel", 8, ["kitchen"])]);
    expect(await search("q=tamarnd")).toMatchObject({ total: 1, correctedQuery: null, originalQuery: null });
  });
});

describe("the product grid's loader", () => {
  it("gives the page what it needs for 'Showing results for ... Search instead for ...'", async () => {
    const res = await call(gridLoader, "/dashboard/products?q=bluetoth%20speker", { cookie });
    expect(res.status).toBe(200);
    const data = (await res.json()) as { results: Page };
    expect(data.results).toMatchObject({ correctedQuery: "bluetooth speaker", originalQuery: "bluetoth speker", total: 5 });
    const literal = (await (await call(gridLoader, "/dashboard/products?q=bluetoth%20speker&literal=1", { cookie })).json()) as { results: Page };
    expect(literal.results).toMatchObject({ correctedQuery: null, originalQuery: null, total: 0 });
  });
});
