// The research assistant through its JSON API and service, on the migrated test database with the app's
// own product search: threads (create, list, rename, delete; another user's thread is 404), questions
// answered with the grid's filters and products (built-in parser, labelled), follow-ups that refine the
// last answer, "like X" through the product service, the length cap and the hourly cap, what a plan
// without insights is told, and the grid's parse call.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { loader as apiParse } from "~/routes/api.products.parse";
import { action as apiThreadAction, loader as apiThread } from "~/routes/api.threads.$id";
import { action as apiMessages } from "~/routes/api.threads.$id.messages";
import { action as apiCreate, loader as apiList } from "~/routes/api.threads";
import { createAssistant } from "~/services/assistant.server";
import { products } from "~/services/index.server";
import { fixtureCatalogue, insertProducts, type FixtureProduct } from "../../helpers/products";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

const DAY = "2026-10-01T00:00:00.000Z";

/** [objectID, title, niche, price $, margin %, orders, stage] */
const ROWS: [string, string, string, number, number, number, FixtureProduct["lifecycleStage"]][] = [
  ["as-brush", "Zorblat slicker brush", "pets", 24.99, 62, 1840, "rising"],
  ["as-mat", "Zorblat lick mat", "pets", 12.5, 55, 900, "rising"],
  ["as-bowl", "Zorblat slow feeder bowl", "pets", 18, 40, 2500, "rising"],
  ["as-bed", "Zorblat calming bed", "pets", 45, 70, 3000, "peak"],
  ["as-leash", "Zorblat reflective leash", "pets", 9.99, 52, 300, "declining"],
  ["as-posture", "Quillon posture corrector", "fitness", 29.99, 58, 1200, "rising"],
  ["as-bands", "Quillon resistance bands", "fitness", 19.99, 66, 800, "emerging"],
  ["as-roller", "Quillon ab roller", "fitness", 14.99, 48, 650, "rising"],
  ["as-kettle", "Quillon kettlebell", "fitness", 39.99, 35, 400, "peak"],
  ["as-garlic", "Vexmor garlic press", "kitchen", 15, 60, 700, "rising"],
];

beforeAll(async () => {
  const base = fixtureCatalogue(ROWS.length, 12);
  await insertProducts(
    db,
    ROWS.map(([objectID, title, niche, price, margin, orders, stage], i) => {
      const priceCents = Math.round(price * 100);
      const costCents = Math.round(priceCents * (1 - margin / 100));
      return { ...base[i], objectID, title, description: title, niches: [niche], priceCents, costCents, marginBps: margin * 100, orders, revenueCents: orders * priceCents, lifecycleStage: stage, winningScore: 50 + i, firstSeenAt: DAY, storesSelling: 5 + i };
    }),
  );
});

const paid = { userSubscribed: "yes" };

async function newThread(cookie: string, title?: string) {
  const res = await call(apiCreate, "/api/threads", { cookie, json: title === undefined ? {} : { title } });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: number; title: string };
}

async function ask(cookie: string, id: number, text: string) {
  return call(apiMessages, `/api/threads/${id}/messages`, { cookie, json: { text }, params: { id: String(id) } });
}

type Answer = {
  role: string;
  text: string;
  query: Record<string, unknown>;
  gridParams: string;
  products: { objectID: string; priceCents: number; why: string[] }[];
  source: string;
  sourceLabel: string;
  notes: string[];
  total: number;
};

async function answerOf(cookie: string, id: number, text: string): Promise<Answer> {
  const res = await ask(cookie, id, text);
  expect(res.status).toBe(201);
  return (await res.json()) as Answer;
}

describe("threads", () => {
  it("are created, listed, renamed and deleted by their owner", async () => {
    const me = await createSignedInUser(paid);
    const a = await newThread(me.cookie);
    expect(a.title).toBe("New thread");
    const b = await newThread(me.cookie, "Pet ideas");
    let list = (await (await call(apiList, "/api/threads", { cookie: me.cookie })).json()) as { threads: { id: number; title: string }[] };
    expect(list.threads.map((t) => t.title).sort()).toEqual(["New thread", "Pet ideas"]);

    const renamed = await call(apiThreadAction, `/api/threads/${b.id}`, { cookie: me.cookie, method: "PATCH", json: { title: "Dogs under $30" }, params: { id: String(b.id) } });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ id: b.id, title: "Dogs under $30" });

    const empty = await call(apiThreadAction, `/api/threads/${b.id}`, { cookie: me.cookie, method: "PATCH", json: { title: "  " }, params: { id: String(b.id) } });
    expect(empty.status).toBe(422);
    expect(await empty.json()).toMatchObject({ error: "Give the thread a title." });

    const deleted = await call(apiThreadAction, `/api/threads/${a.id}`, { cookie: me.cookie, method: "DELETE", params: { id: String(a.id) } });
    expect(await deleted.json()).toEqual({ deleted: true });
    expect((await call(apiThread, `/api/threads/${a.id}`, { cookie: me.cookie, params: { id: String(a.id) } })).status).toBe(404);
    list = (await (await call(apiList, "/api/threads", { cookie: me.cookie })).json()) as typeof list;
    expect(list.threads.map((t) => t.id)).toEqual([b.id]);
  });

  it("of another user are not found, whatever is asked of them, and stay as they were", async () => {
    const owner = await createSignedInUser(paid);
    const other = await createSignedInUser(paid);
    const t = await newThread(owner.cookie, "Mine");
    await answerOf(owner.cookie, t.id, "pet products under $30");
    const params = { id: String(t.id) };
    expect((await call(apiThread, `/api/threads/${t.id}`, { cookie: other.cookie, params })).status).toBe(404);
    expect((await call(apiThreadAction, `/api/threads/${t.id}`, { cookie: other.cookie, method: "PATCH", json: { title: "Theirs" }, params })).status).toBe(404);
    expect((await call(apiThreadAction, `/api/threads/${t.id}`, { cookie: other.cookie, method: "DELETE", params })).status).toBe(404);
    const posted = await ask(other.cookie, t.id, "cheaper");
    expect(posted.status).toBe(404);
    expect(await posted.json()).toEqual({ error: "No thread with that id." });
    const mine = (await (await call(apiThread, `/api/threads/${t.id}`, { cookie: owner.cookie, params })).json()) as { thread: { title: string }; messages: unknown[] };
    expect(mine.thread.title).toBe("Mine");
    expect(mine.messages).toHaveLength(2);
  });

  it("refuse anonymous callers and ids that are not ids", async () => {
    expect((await call(apiList, "/api/threads")).status).toBe(401);
    const me = await createSignedInUser();
    expect((await call(apiThread, "/api/threads/abc", { cookie: me.cookie, params: { id: "abc" } })).status).toBe(404);
    expect((await call(apiCreate, "/api/threads", { cookie: me.cookie, json: { title: 42 } })).status).toBe(400);
  });
});

describe("questions", () => {
  it("are answered with the grid's filters, products that match and why each fits, labelled as the built-in parser's", async () => {
    const me = await createSignedInUser(paid);
    const t = await newThread(me.cookie);
    const a = await answerOf(me.cookie, t.id, "pet products under $30 with high margin that are rising");
    expect(a.role).toBe("assistant");
    expect(a.source).toBe("built-in parser");
    expect(a.sourceLabel).toBe("from the built-in parser");
    expect(a.query).toEqual({ niche: ["pets"], stage: ["rising"], maxPrice: 30, minMargin: 50 });
    expect(a.gridParams).toBe("niche=pets&stage=rising&maxPrice=30&minMargin=50");
    // Brush (62%, $24.99) and lick mat (55%, $12.50); the bowl's margin is 40%, the bed costs $45.
    expect(a.products.map((p) => p.objectID).sort()).toEqual(["as-brush", "as-mat"]);
    expect(a.total).toBe(2);
    const brush = a.products.find((p) => p.objectID === "as-brush")!;
    expect(brush.why).toEqual(["$24.99", "in Pets", "stage Rising (estimate)", "margin after duty and fees 62%", "1,840 orders in 30 days", "winning score 50/100"]);
    expect(a.text).toContain("I searched for niche Pets, stage Rising (estimate), price $30.00 or less, margin after duty and fees 50% or more.");
    expect(a.text).toContain("2 products match");
    expect(a.notes).toContain("“High margin” means a margin after duty and fees of 50% or more.");

    // The first question names the thread; the thread keeps both messages.
    const got = (await (await call(apiThread, `/api/threads/${t.id}`, { cookie: me.cookie, params: { id: String(t.id) } })).json()) as {
      thread: { title: string };
      messages: Answer[];
    };
    expect(got.thread.title).toBe("pet products under $30 with high margin that are rising");
    expect(got.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(got.messages[1].products.map((p) => p.objectID)).toEqual(a.products.map((p) => p.objectID));
  });

  it("say what they cannot do instead of guessing", async () => {
    const me = await createSignedInUser(paid);
    const t = await newThread(me.cookie);
    const a = await answerOf(me.cookie, t.id, "pet products that ship from the US");
    expect(a.query).toEqual({ niche: ["pets"] });
    expect(a.text).toContain("I can't filter by shipping country, delivery time or free shipping yet.");
  });

  it("follow-ups refine the last answer: cheaper, only rising ones, more like the second, sort by margin", async () => {
    const me = await createSignedInUser(paid);
    const t = await newThread(me.cookie);
    const first = await answerOf(me.cookie, t.id, "pet products under $30 sorted by most orders");
    expect(first.products.map((p) => p.objectID)).toEqual(["as-bowl", "as-brush", "as-mat", "as-leash"]);

    const cheaper = await answerOf(me.cookie, t.id, "cheaper");
    expect(cheaper.query).toEqual({ niche: ["pets"], maxPrice: 22, sort: "orders" });
    expect(cheaper.products.map((p) => p.objectID)).toEqual(["as-bowl", "as-mat", "as-leash"]);
    expect(cheaper.products.every((p) => p.priceCents <= 2200)).toBe(true);

    const rising = await answerOf(me.cookie, t.id, "only rising ones");
    expect(rising.query).toEqual({ niche: ["pets"], stage: ["rising"], maxPrice: 22, sort: "orders" });
    expect(rising.products.map((p) => p.objectID)).toEqual(["as-bowl", "as-mat"]);

    // The second product of that answer is the lick mat ($12.50): pets from $9 to $16.
    const like = await answerOf(me.cookie, t.id, "more like the second");
    expect(like.query).toEqual({ niche: ["pets"], stage: ["rising"], minPrice: 9, maxPrice: 16, sort: "orders" });
    expect(like.notes).toContain("Like “Zorblat lick mat”: the same niche (Pets), priced within about 25% of its $12.50.");

    const byMargin = await answerOf(me.cookie, t.id, "under $50, sort by margin");
    expect(byMargin.query).toEqual({ niche: ["pets"], stage: ["rising"], maxPrice: 50, sort: "margin" });
    expect(byMargin.products.map((p) => p.objectID)).toEqual(["as-brush", "as-mat", "as-bowl"]);
  });

  it("“like X” finds X by its title through the product search and leaves it out of the answer", async () => {
    const me = await createSignedInUser(paid);
    const t = await newThread(me.cookie);
    const a = await answerOf(me.cookie, t.id, "something like the posture corrector but cheaper");
    expect(a.query).toEqual({ niche: ["fitness"], maxPrice: 29.98 });
    expect(a.products.map((p) => p.objectID)).not.toContain("as-posture");
    expect(a.products.map((p) => p.objectID).sort()).toEqual(["as-bands", "as-roller"]);
    expect(a.notes).toContain("Like “Quillon posture corrector”: the same niche (Fitness), priced cheaper than its $29.99.");

    const none = await answerOf(me.cookie, t.id, "something like the flux capacitor");
    expect(none.text).toContain("I couldn't find a product called “flux capacitor”, so I searched without it.");
  });

  it("are capped at 500 characters, with a sentence, and nothing is saved", async () => {
    const me = await createSignedInUser(paid);
    const t = await newThread(me.cookie);
    const long = await ask(me.cookie, t.id, "pets ".repeat(101));
    expect(long.status).toBe(422);
    expect(await long.json()).toMatchObject({ error: "A question can be at most 500 characters; this one has 504.", field: "text" });
    const empty = await ask(me.cookie, t.id, "   ");
    expect(empty.status).toBe(422);
    expect(((await empty.json()) as { error: string }).error).toMatch(/^Write a question first/);
    const missing = await call(apiMessages, `/api/threads/${t.id}/messages`, { cookie: me.cookie, json: {}, params: { id: String(t.id) } });
    expect(missing.status).toBe(400);
    expect(await db.threadMessage.count({ where: { threadId: t.id } })).toBe(0);
  });

  it("never quote a margin the user's plan does not show", async () => {
    const me = await createSignedInUser();
    const t = await newThread(me.cookie);
    const a = await answerOf(me.cookie, t.id, "high margin pets sorted by margin");
    expect(a.products.length).toBeGreaterThan(0);
    for (const p of a.products) expect(p.why.join(" ")).not.toMatch(/margin/);
  });

  it("are capped per hour across threads (429), and cost no credit", async () => {
    const me = await createSignedInUser(paid);
    const assistant = createAssistant({
      db,
      products: { search: products.search, productCards: products.productCards, niches: products.niches },
      messagesPerHour: 2,
    });
    const user = { id: me.id, userSubscribed: "yes" };
    const t = await assistant.create(me.id);
    await assistant.post(user, t.id, "pets");
    await assistant.post(user, (await assistant.create(me.id)).id, "fitness");
    const refused = assistant.post(user, t.id, "kitchen");
    await expect(refused).rejects.toMatchObject({ status: 429, message: "You have asked 2 questions in the last hour. Wait a few minutes and ask again." });
    // The refusal says when the hour's first question leaves the window (the answer's Retry-After).
    const seconds = ((await refused.catch((error: unknown) => error)) as { details: { retryAfterSeconds: number } }).details.retryAfterSeconds;
    expect(seconds).toBeGreaterThan(3500);
    expect(seconds).toBeLessThanOrEqual(3600);
    expect(await db.creditLedger.count({ where: { userId: me.id } })).toBe(0);
  });
});

describe("GET /api/products/parse", () => {
  it("turns a question into the grid's filters without searching or saving", async () => {
    const me = await createSignedInUser(paid);
    const res = await call(apiParse, `/api/products/parse?q=${encodeURIComponent("rising kitchen gadgets over $10 with high margin")}`, { cookie: me.cookie });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      query: { niche: ["kitchen"], stage: ["rising"], minPrice: 10, minMargin: 50 },
      gridParams: "niche=kitchen&stage=rising&minPrice=10&minMargin=50",
      sourceLabel: "from the built-in parser",
      problem: null,
    });
    expect(await db.thread.count({ where: { userId: me.id } })).toBe(0);
  });

  it("refuses an empty question and anonymous callers", async () => {
    const me = await createSignedInUser();
    expect((await call(apiParse, "/api/products/parse?q=", { cookie: me.cookie })).status).toBe(422);
    expect((await call(apiParse, "/api/products/parse?q=pets")).status).toBe(401);
  });
});
