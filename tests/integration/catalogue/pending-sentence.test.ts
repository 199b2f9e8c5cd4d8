// The grid's "measured" view and a store's page say what the measured catalogue is waiting for (issue 37 item 1,
// decision 091): how many listings from how many stores are being read, how many pictures are pending, why and
// when they are tried again; never "try other words" while the catalogue is still coming in. Through the real
// route loaders on a real migrated database; the listings are placed by the real catalogue (composition root).
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { loader as storeLoader } from "~/routes/dashboard.competitors.$id";
import { loader as gridLoader } from "~/routes/dashboard.products._index";
import { catalogue } from "~/services/index.server";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

let cookie = "";
let userId = "";

interface Grid {
  results: { total: number; items: unknown[]; measuredPending: string | null } | null;
}

async function grid(query: string): Promise<Grid> {
  const res = await call(gridLoader, `/dashboard/products?${query}`, { cookie });
  expect(res.status).toBe(200);
  return (await res.json()) as Grid;
}

/** "10:05 UTC" when the time is today (UTC), the date too when not. */
function expectedTime(at: Date): string {
  const iso = at.toISOString();
  return iso.slice(0, 10) === new Date().toISOString().slice(0, 10) ? `${iso.slice(11, 16)} UTC` : `${iso.slice(0, 16).replace("T", " ")} UTC`;
}

let n = 0;
async function listing(storeId: number, title: string, picture: { failure: string | null; retryAt: Date | null } | null) {
  const at = new Date();
  const row = await db.competitorProduct.create({
    data: {
      storeId,
      productId: String(++n),
      handle: `listing-${n}`,
      title,
      productType: "",
      vendor: "",
      tags: "[]",
      images: JSON.stringify(picture ? [`https://cdn.pending.test/${n}.jpg`] : []),
      variants: JSON.stringify([{ id: "1", title: "Default", priceCents: 1999, available: true }]),
      priceMinCents: 1999,
      priceMaxCents: 1999,
      available: true,
      firstSeenAt: at,
      lastSeenAt: at,
    },
  });
  if (picture) {
    await db.listingPicture.create({
      data: { listingId: row.id, imageUrl: `https://cdn.pending.test/${n}.jpg`, status: "pending", failure: picture.failure, retryAt: picture.retryAt, attempts: picture.failure ? 1 : 0, updatedAt: at },
    });
  }
}

beforeAll(async () => {
  const user = await createSignedInUser({ userSubscribed: "yes" });
  cookie = user.cookie;
  userId = user.id;
});

describe("the measured grid and a store's page while pictures are pending", () => {
  let followId = 0;
  const retryAt = new Date(Date.now() + 25 * 60_000);

  it("an empty catalogue with nothing pending keeps the usual empty text", async () => {
    const page = await grid("source=measured");
    expect(page.results).toMatchObject({ total: 0, measuredPending: null });
  });

  it("says how many listings from how many stores are being read, how many pictures are pending, why and when", async () => {
    const a = await db.competitorStore.create({ data: { domain: "fans.pending.test", fetchDomain: "fans.pending.test", name: "Fans", currency: "USD", status: "ok" } });
    const b = await db.competitorStore.create({ data: { domain: "lamps.pending.test", fetchDomain: "lamps.pending.test", name: "Lamps", currency: "USD", status: "ok" } });
    await listing(a.id, "Portable neck fan with three speeds", { failure: "unreachable", retryAt });
    await listing(a.id, "Folding desk fan for travel", { failure: "unreachable", retryAt: new Date(retryAt.getTime() + 60 * 60_000) });
    await listing(b.id, "Sunset projection lamp with remote", { failure: null, retryAt: null });
    followId = (await db.competitor.create({ data: { userId, storeId: a.id, name: "Fans" } })).id;

    const page = await grid("source=measured");
    expect(page.results?.items).toHaveLength(0);
    expect(page.results?.measuredPending).toBe(
      `3 listings from 2 stores are being read; 3 pictures pending (the picture's server could not be reached: next try ${expectedTime(retryAt)}; waiting for a first read).`,
    );
    // Not the measured view: a text that matched nothing says so as before.
    expect((await grid("source=all&q=zzqxnothing")).results).toMatchObject({ total: 0, measuredPending: null });
  });

  it("once placed on their titles, the store's page says how many are without pictures, why and when", async () => {
    await catalogue.matchNow();
    const page = await grid("source=measured");
    expect(page.results?.total).toBeGreaterThan(0);
    // Placed, but their pictures are still pending: the grid still says so.
    expect(page.results?.measuredPending).toContain("3 listings from 2 stores are being read; 3 pictures pending");

    const res = await call(storeLoader, `/dashboard/competitors/${followId}`, { cookie, params: { id: String(followId) } });
    expect(res.status).toBe(200);
    const data = (await res.json()) as { picturesPending: string | null };
    expect(data.picturesPending).toBe(
      `2 listings are placed on their titles without their pictures and 2 pictures are pending (the picture's server could not be reached: next try ${expectedTime(retryAt)}).`,
    );
  });

  it("says nothing on a store's page, and the grid falls back, once every picture is in", async () => {
    await db.listingPicture.updateMany({ data: { status: "ok", hash: "0123456789abcdef", failure: null, retryAt: null } });
    await catalogue.matchNow({ full: true });
    const res = await call(storeLoader, `/dashboard/competitors/${followId}`, { cookie, params: { id: String(followId) } });
    expect(((await res.json()) as { picturesPending: string | null }).picturesPending).toBeNull();
    expect((await grid("source=measured")).results?.measuredPending).toBeNull();
  });
});
