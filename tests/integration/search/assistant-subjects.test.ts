// Issue 25, item 13: the research assistant keeps track of what the seller means. A question with its own
// subject starts fresh (no niche or stage left over from the last answer), "which of these ..." narrows
// the products just shown (not the whole catalogue behind them), words it does not understand are named
// in the answer, and figures read as English ("1 order", "sold by 1 store").
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { action as apiMessages } from "~/routes/api.threads.$id.messages";
import { action as apiCreate } from "~/routes/api.threads";
import { fixtureCatalogue, insertProducts, type FixtureProduct } from "../../helpers/products";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

const DAY = "2026-10-01T00:00:00.000Z";

/** [objectID, title, niche, price $, margin %, orders, stage, stores] */
const ROWS: [string, string, string, number, number, number, FixtureProduct["lifecycleStage"], number][] = [
  ["su-brush", "Zorblat slicker brush", "pets", 24.99, 62, 1840, "rising", 5],
  ["su-mat", "Zorblat lick mat", "pets", 12.5, 55, 900, "rising", 6],
  ["su-bowl", "Zorblat slow feeder bowl", "pets", 18, 40, 2500, "rising", 7],
  ["su-bed", "Zorblat calming bed", "pets", 45, 70, 3000, "peak", 8],
  ["su-leash", "Zorblat reflective leash", "pets", 9.99, 52, 1, "declining", 1],
  ["su-posture", "Quillon posture corrector", "fitness", 29.99, 58, 1200, "rising", 10],
  ["su-bands", "Quillon resistance bands", "fitness", 19.99, 66, 800, "emerging", 11],
  ["su-roller", "Quillon ab roller", "fitness", 14.99, 48, 650, "rising", 12],
  ["su-kettle", "Quillon kettlebell", "fitness", 39.99, 35, 400, "peak", 13],
  ["su-garlic", "Vexmor garlic press", "kitchen", 15, 60, 700, "rising", 14],
  ["su-peeler", "Vexmor peeler", "kitchen", 9, 50, 500, "rising", 15],
];

beforeAll(async () => {
  const base = fixtureCatalogue(ROWS.length, 12);
  await insertProducts(
    db,
    ROWS.map(([objectID, title, niche, price, margin, orders, stage, stores], i) => {
      const priceCents = Math.round(price * 100);
      const costCents = Math.round(priceCents * (1 - margin / 100));
      return { ...base[i], objectID, title, description: title, niches: [niche], priceCents, costCents, marginBps: margin * 100, orders, revenueCents: orders * priceCents, lifecycleStage: stage, winningScore: 50 + i, firstSeenAt: DAY, storesSelling: stores };
    }),
  );
});

type Answer = { text: string; query: Record<string, unknown>; products: { objectID: string; why: string[] }[]; notes: string[]; total: number };

async function thread(cookie: string): Promise<number> {
  const res = await call(apiCreate, "/api/threads", { cookie, json: {} });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

async function ask(cookie: string, id: number, text: string): Promise<Answer> {
  const res = await call(apiMessages, `/api/threads/${id}/messages`, { cookie, json: { text }, params: { id: String(id) } });
  expect(res.status).toBe(201);
  return (await res.json()) as Answer;
}

describe("the assistant (issue 25)", () => {
  it("starts fresh on a new subject: no niche or stage left over", async () => {
    const me = await createSignedInUser({ userSubscribed: "yes" });
    const t = await thread(me.cookie);
    const first = await ask(me.cookie, t, "rising kitchen gadgets under $20");
    expect(first.query).toEqual({ niche: ["kitchen"], stage: ["rising"], maxPrice: 20 });
    const like = await ask(me.cookie, t, "something like the posture corrector but cheaper");
    expect(like.query).toEqual({ niche: ["fitness"], maxPrice: 29.98 });
    expect(like.products.map((p) => p.objectID).sort()).toEqual(["su-bands", "su-roller"]);
  });

  it("reads “which of these” as the products just shown", async () => {
    const me = await createSignedInUser({ userSubscribed: "yes" });
    const t = await thread(me.cookie);
    const first = await ask(me.cookie, t, "products sorted by most orders");
    expect(first.products.map((p) => p.objectID)).toEqual(["su-bed", "su-bowl", "su-brush", "su-posture", "su-mat", "su-bands"]);
    const cheap = await ask(me.cookie, t, "which of these are under $20?");
    // The garlic press, the ab roller, the peeler and the leash are under $20 too, but were not shown.
    expect(cheap.products.map((p) => p.objectID)).toEqual(["su-bowl", "su-mat", "su-bands"]);
    expect(cheap.total).toBe(3);
    expect(cheap.text).toContain("Of the 6 products I just showed");
  });

  it("names the words it did not understand instead of searching them silently", async () => {
    const me = await createSignedInUser({ userSubscribed: "yes" });
    const t = await thread(me.cookie);
    const a = await ask(me.cookie, t, "pet products for after ads");
    expect(a.text).toContain("I did not understand “after ads”");
    expect(a.query).toEqual({ niche: ["pets"] });
    expect(a.products.length).toBe(5);
    // Not a word of the catalogue, though the start of one ("Zorblat"): named too, not searched as a prefix.
    const b = await ask(me.cookie, t, "pet products for zor");
    expect(b.text).toContain("I did not understand “zor”");
    expect(b.query).toEqual({ niche: ["pets"] });
    // A plural of a catalogue word is understood as words to search.
    const c = await ask(me.cookie, t, "pet slicker brushes");
    expect(c.query).toEqual({ q: "slicker brushes", niche: ["pets"] });
    expect(c.text).not.toContain("did not understand");
  });

  it("writes figures as English: 1 order, sold by 1 store", async () => {
    const me = await createSignedInUser({ userSubscribed: "yes" });
    const t = await thread(me.cookie);
    const a = await ask(me.cookie, t, "pet products sold by only 1 store");
    expect(a.products.map((p) => p.objectID)).toEqual(["su-leash"]);
    expect(a.products[0].why).toContain("1 order in 30 days");
    expect(a.products[0].why).toContain("sold by 1 store");
    expect(a.text).not.toMatch(/\b1 (?:stores|orders|products)\b/);
  });
});
