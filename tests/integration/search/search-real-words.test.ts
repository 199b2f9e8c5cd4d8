// Issue 35, items 12 and 19: the search box does not "correct" real words into other products, and a
// misspelt word is corrected whatever the filters, without walking the whole catalogue when the filters
// leave none of its matches. Through GET /api/products (the grid's own JSON) and the engine itself, on a
// real migrated SQLite file.
import { beforeAll, describe, expect, it } from "vitest";
import { db, sqlReader } from "~/db.server";
import { parseProductQuery } from "~/domain/products/product-query";
import { loader as productsApi } from "~/routes/api.products";
import { CatalogSearch } from "~/services/search/catalog-search.server";
import { fixtureCatalogue, insertProducts, type FixtureProduct } from "../../helpers/products";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

const base = fixtureCatalogue(40, 21);
let n = 0;
const titled = (title: string, niche: string, score = 50, priceCents = 1500): FixtureProduct => ({
  ...base[n % base.length],
  objectID: `rw-${n++}`,
  title,
  description: `A ${title.toLowerCase()}.`,
  niches: [niche],
  winningScore: score,
  priceCents,
});

// The catalogue has hair dryers, gold rings, projectors and organizers; no air fryer, no "margin" anywhere.
const catalogue: FixtureProduct[] = [
  ...base.map((p, i) => ({ ...p, objectID: `rw-bg-${i}` })),
  ...[90, 91, 92].map((score) => titled("Ionic Hair Dryer Brush", "hair-care", score)),
  titled("Gold-Plated Ring", "jewelry", 95),
  titled("Dainty Gold Necklace", "jewelry", 94),
  titled("Galaxy Star Projector", "home-decor", 93),
  titled("Woodworking Projects Kit", "tools-diy", 96),
  titled("Engraved Gold Pet ID Tag", "pets", 85, 1200),
  titled("Cooling Mat for Dogs", "pets", 80, 1900),
  titled("Chew Toy for Puppies", "pets", 60, 900),
  ...[70, 71, 72, 73].map((score) => titled("Drawer Organizer", "storage-organization", score)),
  titled("Camping Lantern", "camping", 40),
  titled("Camping Hammock", "camping", 41),
];

let cookie = "";
interface Page {
  items: { objectID: string; title: string }[];
  total: number;
  correctedQuery: string | null;
  originalQuery: string | null;
}

async function search(params: Record<string, string>): Promise<Page> {
  const res = await call(productsApi, `/api/products?${new URLSearchParams(params)}`, { cookie });
  expect(res.status).toBe(200);
  return (await res.json()) as Page;
}

beforeAll(async () => {
  await insertProducts(db, catalogue);
  cookie = (await createSignedInUser({ userSubscribed: "yes" })).cookie;
});

describe("real words are not corrected into other products (issue 35, item 12)", () => {
  it("“air fryer” is not a misspelt “hair dryer”", async () => {
    const page = await search({ q: "air fryer" });
    expect(page.correctedQuery).toBeNull();
    expect(page.originalQuery).toBeNull();
    expect(page.items.map((i) => i.title)).not.toContain("Ionic Hair Dryer Brush");
  });

  it("a seller's sentence keeps its words: no “pet projects”, no “gold margin”", async () => {
    const page = await search({ q: "cheap pet products under $20 with good margin", pageSize: "48" });
    expect(page.correctedQuery).toBeNull();
    // The one word of it the catalogue has is "pet": the pet products, not the gold jewellery or the projects kit.
    const pets = catalogue.filter((p) => p.niches.includes("pets")).map((p) => p.objectID);
    expect(page.items.map((i) => i.objectID).sort()).toEqual(pets.sort());
  });

  it("a misspelt word beside English words is still corrected", async () => {
    const page = await search({ q: "cheap orgaizer" });
    expect(page.correctedQuery).toBe("cheap organizer");
  });
});

describe("a misspelt word with a filter (issue 35, item 19)", () => {
  it("is corrected where the filter keeps the corrected word's products", async () => {
    const page = await search({ q: "orgaizer", niche: "storage-organization", sort: "margin" });
    expect(page).toMatchObject({ correctedQuery: "organizer", originalQuery: "orgaizer", total: 4 });
  });

  it("is corrected where the filter leaves none of them: the seller sees the word was fixed and the niche has none", async () => {
    const page = await search({ q: "orgaizer", niche: "camping", sort: "margin" });
    expect(page).toMatchObject({ correctedQuery: "organizer", originalQuery: "orgaizer", total: 0, items: [] });
  });

  it("does not walk the catalogue's order when the filters keep none of the text's matches", async () => {
    const engine = new CatalogSearch(sqlReader);
    const q = (params: Record<string, string>) => parseProductQuery(new URLSearchParams(params));
    const none = await engine.search(q({ q: "organizer", niche: "camping", sort: "margin" }));
    expect(none).toMatchObject({ ids: [], total: 0, hasMore: false });
    // The matches the filters keep are counted first; none (or few) are sorted, not looked for along the order.
    expect(none.plan).toBe("sorted-matches");
    // Matches the filters keep plenty of are still found along the order.
    const some = await engine.search(q({ q: "organizer", sort: "margin" }));
    expect(some).toMatchObject({ total: catalogue.filter((p) => /organizer/i.test(p.title)).length, plan: "walk-matches" });
  });
});
