// Issue 35, item 17: the assistant keeps the noun that matters. "dog toys" chooses the pets niche and searches
// the words too, so the answer is dog toys, not the pet products with the best score (a cooling mat). Through
// the assistant's API on a real migrated SQLite file, with the built-in parser (no model configured).
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { loader as apiParse } from "~/routes/api.products.parse";
import { action as apiMessages } from "~/routes/api.threads.$id.messages";
import { action as apiCreate } from "~/routes/api.threads";
import { fixtureCatalogue, insertProducts, type FixtureProduct } from "../../helpers/products";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

const base = fixtureCatalogue(20, 35);
let n = 0;
const product = (title: string, niche: string, score: number, tags: string[] = []): FixtureProduct => ({
  ...base[n % base.length],
  objectID: `noun-${n++}`,
  title,
  description: `${title}.`,
  niches: [niche],
  tags,
  winningScore: score,
  priceCents: 1500,
  costCents: 500,
  marginBps: 6667,
});

// The cooling mat and the calming bed score highest among the pet products; the toys lower.
const catalogue = [
  product("Gel Cooling Mat", "pets", 99, ["summer"]),
  product("Orthopedic Calming Bed", "pets", 97, ["pet beds"]),
  product("Squeaky Chew Toy for Large Dogs", "pets", 60, ["dogs", "pet toys"]),
  product("Rubber Chew Toy for Puppies", "pets", 55, ["dogs", "pet toys"]),
  product("Catnip Cat Toy with Feather Wand", "pets", 58, ["cats", "pet toys", "cat toys"]),
  product("Wooden Building Blocks Toy", "kids-toys", 98, ["educational toys"]),
];

type Answer = { text: string; query: Record<string, unknown>; products: { objectID: string; title: string }[] };

let cookie = "";
beforeAll(async () => {
  await insertProducts(db, catalogue);
  cookie = (await createSignedInUser({ userSubscribed: "yes" })).cookie;
});

async function ask(text: string): Promise<Answer> {
  const created = await call(apiCreate, "/api/threads", { cookie, json: {} });
  const id = ((await created.json()) as { id: number }).id;
  const res = await call(apiMessages, `/api/threads/${id}/messages`, { cookie, json: { text }, params: { id: String(id) } });
  expect(res.status).toBe(201);
  return (await res.json()) as Answer;
}

describe("the assistant keeps the noun that matters (issue 35, item 17)", () => {
  it("“dog toys” answers with the dog toys, not the cooling mat", async () => {
    const answer = await ask("dog toys");
    expect(answer.query).toMatchObject({ q: "dog toys", niche: ["pets"] });
    expect(answer.products.map((p) => p.title)).toEqual(["Squeaky Chew Toy for Large Dogs", "Rubber Chew Toy for Puppies"]);
  });

  it("“cat toys under $20” answers with the cat toy", async () => {
    const answer = await ask("cat toys under $20");
    expect(answer.products.map((p) => p.title)).toEqual(["Catnip Cat Toy with Feather Wand"]);
  });

  it("“pet products” still means the whole niche", async () => {
    const answer = await ask("pet products");
    expect(answer.query).toEqual({ niche: ["pets"] });
    expect(answer.products[0].title).toBe("Gel Cooling Mat");
  });

  it("the grid's question box gets the same filters", async () => {
    const res = await call(apiParse, `/api/products/parse?${new URLSearchParams({ q: "dog toys" })}`, { cookie });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { gridParams: string }).gridParams).toBe("q=dog+toys&niche=pets");
  });
});
