// Saved searches that alert (docs/decisions/030), on the migrated test database and a virtual clock: new
// products entering a saved search's results become one notification per search per day at most, saying how
// many and linking to the search; none after opting out (the Saved page's toggle and PATCH
// /api/saved-searches/{id}); products added while off never alert. The check runs the built-in search engine.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { db, sqlReader } from "~/db.server";
import { loader as apiSearches } from "~/routes/api.saved-searches";
import { action as apiSetAlerts } from "~/routes/api.saved-searches.$id";
import { action as savedAction, loader as savedLoader } from "~/routes/dashboard.saved";
import { createJobs, type JobsLog } from "~/services/jobs.server";
import { createNotifications } from "~/services/notifications.server";
import { saveSearch } from "~/services/products.server";
import { ALERT_CHECK_JOB, createSavedSearchAlerts } from "~/services/products/saved-search-alerts.server";
import { CatalogSearch } from "~/services/search/catalog-search.server";
import { fixtureCatalogue, insertProducts, type FixtureProduct } from "../../helpers/products";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

const HOUR = 3_600_000;
const clock = { t: Date.parse("2026-11-02T08:00:00Z") };
const now = () => new Date(clock.t);
const quiet: JobsLog = { info() {}, warn() {}, error() {} };
const engine = new CatalogSearch(sqlReader);
const alerts = createSavedSearchAlerts({ db, engine, notifications: createNotifications({ db, now }), now });

let serial = 0;
/** Products added now: `pets` ones titled "Glow collar" match the saved search below, kitchen ones do not. */
async function addProducts(pets: number, kitchen = 0): Promise<string[]> {
  const base = fixtureCatalogue(pets + kitchen, 100 + serial);
  const rows: FixtureProduct[] = base.map((p, i) => {
    const n = serial++;
    return i < pets
      ? { ...p, objectID: `ssa-pet-${n}`, title: `Glow collar ${n}`, niches: ["pets"], priceCents: 1999 }
      : { ...p, objectID: `ssa-kit-${n}`, title: `Glow kettle ${n}`, niches: ["kitchen"], priceCents: 1999 };
  });
  if (rows.length > 0) await insertProducts(db, rows);
  return rows.filter((r) => r.niches[0] === "pets").map((r) => r.title);
}

async function alertsFor(userId: string) {
  return db.notification.findMany({
    where: { userId, kind: "saved-search.new-products" },
    orderBy: { id: "asc" },
    select: { title: true, body: true, url: true, createdAt: true },
  });
}

const QUERY = "q=glow&niche=pets&maxPrice=30";

beforeAll(async () => {
  // A catalogue that exists before any search is saved: never "new".
  await insertProducts(db, fixtureCatalogue(40, 3).map((p) => ({ ...p, objectID: `ssa-old-${p.objectID}` })));
  await addProducts(3, 2);
});

describe("the alert check", () => {
  it("alerts once a day with the count, the first titles and the search's link; the next day counts what came since", async () => {
    const user = await createSignedInUser({ userSubscribed: "yes" });
    const saved = await saveSearch(db, user.id, { name: "Glowing pet gear", params: new URLSearchParams(QUERY) });

    // Nothing new yet: the products that existed at save time do not count.
    expect(await alerts.check()).toMatchObject({ alerted: 0 });
    expect(await alertsFor(user.id)).toEqual([]);

    const titles = await addProducts(2, 3);
    const first = await alerts.check();
    expect(first.alerted).toBe(1);
    const [alert] = await alertsFor(user.id);
    expect(alert).toMatchObject({
      title: "2 new products in “Glowing pet gear”",
      body: `2 new products added to the database match your saved search “Glowing pet gear”: ${titles[1]} and ${titles[0]}.`,
      url: `/dashboard/products?${QUERY}&savedSearch=${saved.id}`,
    });

    // Later the same day: more products, no second alert.
    clock.t += 3 * HOUR;
    await addProducts(4);
    expect((await alerts.check()).alerted).toBe(0);
    clock.t += 3 * HOUR;
    await addProducts(1);
    expect((await alerts.check()).alerted).toBe(0);
    expect(await alertsFor(user.id)).toHaveLength(1);

    // The next day: one alert counting the five that came after the first alert.
    clock.t += 24 * HOUR;
    expect((await alerts.check()).alerted).toBe(1);
    const second = (await alertsFor(user.id))[1];
    expect(second.title).toBe("5 new products in “Glowing pet gear”");
    expect(second.body).toContain("and 2 more.");
    // Nothing new since: no third.
    clock.t += 24 * HOUR;
    expect((await alerts.check()).alerted).toBe(0);
  });

  it("one product is worded in the singular; products that do not match never alert", async () => {
    const user = await createSignedInUser();
    await saveSearch(db, user.id, { name: "Pets", params: new URLSearchParams("niche=pets&q=glow") });
    clock.t += 24 * HOUR;
    await addProducts(0, 4);
    await alerts.check();
    expect(await alertsFor(user.id)).toEqual([]);
    const [title] = await addProducts(1);
    await alerts.check();
    expect(await alertsFor(user.id)).toMatchObject([
      { title: "1 new product in “Pets”", body: `1 new product added to the database matches your saved search “Pets”: ${title}.` },
    ]);
  });

  it("never more than one alert per search per day, whatever arrives when (a virtual clock)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ hours: fc.integer({ min: 1, max: 20 }), pets: fc.integer({ min: 0, max: 2 }), kitchen: fc.integer({ min: 0, max: 1 }) }), {
          minLength: 1,
          maxLength: 8,
        }),
        async (steps) => {
          const user = await createSignedInUser();
          await saveSearch(db, user.id, { name: "Prop", params: new URLSearchParams(QUERY) });
          clock.t += 48 * HOUR;
          let added = 0;
          for (const step of steps) {
            clock.t += step.hours * HOUR;
            added += (await addProducts(step.pets, step.kitchen)).length;
            await alerts.check();
          }
          // A last check the next day reports whatever was still waiting.
          clock.t += 24 * HOUR;
          await alerts.check();
          const got = await alertsFor(user.id);
          const days = got.map((a) => a.createdAt.toISOString().slice(0, 10));
          expect(new Set(days).size).toBe(days.length);
          const counted = got.reduce((sum, a) => sum + Number(/^(\d+) new/.exec(a.title)![1]), 0);
          expect(counted).toBe(added);
        },
      ),
      { numRuns: 12 },
    );
  }, 120_000);

  it("runs as a job, queued with one key however often it is asked for", async () => {
    const jobs = createJobs({ db, ownerId: `alerts-${Math.random()}`, now, log: quiet });
    const queued = createSavedSearchAlerts({ db, engine, notifications: createNotifications({ db, now }), now, jobs });
    queued.registerJobs(jobs);
    const user = await createSignedInUser();
    await saveSearch(db, user.id, { name: "Job", params: new URLSearchParams(QUERY) });
    clock.t += 24 * HOUR;
    await addProducts(2);
    await queued.enqueueCheck();
    await queued.enqueueCheck();
    expect(await db.job.count({ where: { kind: ALERT_CHECK_JOB, status: "queued" } })).toBe(1);
    await jobs.runDue({ kinds: [ALERT_CHECK_JOB] });
    expect(await alertsFor(user.id)).toHaveLength(1);
  });
});

describe("opting out", () => {
  it("from the Saved page: no alert while off, and products added while off never alert once back on", async () => {
    const user = await createSignedInUser();
    const saved = await saveSearch(db, user.id, { name: "Quiet", params: new URLSearchParams(QUERY) });
    clock.t += 24 * HOUR;

    const off = await call(savedAction, "/dashboard/saved", { cookie: user.cookie, form: { intent: "search-alerts", id: String(saved.id), alerts: "off" } });
    expect(off.status).toBe(200);
    expect((await (await call(savedLoader, "/dashboard/saved", { cookie: user.cookie })).json()).searches[0]).toMatchObject({ id: saved.id, alertsEnabled: false });
    await addProducts(3);
    await alerts.check();
    expect(await alertsFor(user.id)).toEqual([]);

    await addProducts(2);
    await call(savedAction, "/dashboard/saved", { cookie: user.cookie, form: { intent: "search-alerts", id: String(saved.id), alerts: "on" } });
    await alerts.check();
    expect(await alertsFor(user.id)).toEqual([]);
    await addProducts(1);
    await alerts.check();
    expect((await alertsFor(user.id)).map((a) => a.title)).toEqual(["1 new product in “Quiet”"]);

    const bad = await call(savedAction, "/dashboard/saved", { cookie: user.cookie, form: { intent: "search-alerts", id: String(saved.id), alerts: "maybe" } });
    expect(bad.status).toBe(400);
  });

  it("through the API: PATCH /api/saved-searches/{id} { alerts }, listed in GET; another user's search is 404", async () => {
    const user = await createSignedInUser();
    const other = await createSignedInUser();
    const saved = await saveSearch(db, user.id, { name: "API", params: new URLSearchParams(QUERY) });
    const patch = (cookie: string | null, id: string, json: unknown) =>
      call(apiSetAlerts, `/api/saved-searches/${id}`, { method: "PATCH", cookie, json, params: { id } });

    const res = await patch(user.cookie, String(saved.id), { alerts: false });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: saved.id, alerts: false });
    const listed = await (await call(apiSearches, "/api/saved-searches", { cookie: user.cookie })).json();
    expect(listed.searches).toEqual([expect.objectContaining({ id: saved.id, name: "API", query: QUERY, alerts: false })]);

    clock.t += 24 * HOUR;
    await addProducts(2);
    await alerts.check();
    expect(await alertsFor(user.id)).toEqual([]);

    expect((await patch(other.cookie, String(saved.id), { alerts: true })).status).toBe(404);
    expect((await patch(user.cookie, String(saved.id), { alerts: "yes" })).status).toBe(400);
    expect((await patch(user.cookie, "abc", { alerts: true })).status).toBe(400);
    expect((await patch(null, String(saved.id), { alerts: true })).status).toBe(401);
    expect((await call(apiSearches, "/api/saved-searches")).status).toBe(401);
    expect((await db.savedSearch.findUnique({ where: { id: saved.id }, select: { alertsEnabled: true } }))?.alertsEnabled).toBe(false);
  });
});
