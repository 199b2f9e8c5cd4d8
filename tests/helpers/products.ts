// Hand-made product rows for search tests, written with plain SQL (the FTS5 index follows by trigger).
import type { Db } from "~/db.server";

export interface FixtureProduct {
  objectID: string;
  title: string;
  description?: string;
  niches: string[];
  tags?: string[];
  priceCents: number;
  costCents: number;
  marginBps: number;
  /**
   * The margin after duty and fees the grid filters and sorts on (decision 065). Hand-made rows default to their
   * marginBps; tests of the figure itself set real products' costs and run refreshLandedMargins.
   */
  landedMarginBps?: number | null;
  amazonPriceCents?: number | null;
  orders: number;
  revenueCents: number;
  likes: number;
  comments: number;
  shares: number;
  views: number;
  storesSelling: number;
  firstSeenAt: string;
  randomSortKey: number;
  winningScore: number;
  lifecycleStage: "emerging" | "rising" | "peak" | "declining";
  trendingScore: number;
}

export async function insertProducts(db: Db, products: FixtureProduct[]) {
  for (const p of products) {
    await db.$executeRawUnsafe(
      `INSERT INTO "Product" ("objectID","title","description","niches","primaryNiche","tags","images","costCents","priceCents",
        "shippingCents","amazonPriceCents","orders","revenueCents","likes","comments","shares","views","storesSelling",
        "firstSeenAt","lastUpdatedAt","randomSortKey","winningScore","lifecycleStage","saturation","marginBps","orders7d",
        "ordersGrowth7d","trendingScore","reasons","insightsAt","landedMarginBps")
       VALUES (?,?,?,?,?,?,?,?,?,0,?,?,?,?,?,?,?,?,?,?,?,?,?,50,?,0,NULL,?,?,?,?)`,
      p.objectID,
      p.title,
      p.description ?? p.title,
      JSON.stringify(p.niches),
      p.niches[0],
      JSON.stringify(p.tags ?? []),
      JSON.stringify([`/product-images/${p.objectID}-1.svg`]),
      p.costCents,
      p.priceCents,
      p.amazonPriceCents ?? null,
      p.orders,
      p.revenueCents,
      p.likes,
      p.comments,
      p.shares,
      p.views,
      p.storesSelling,
      p.firstSeenAt,
      p.firstSeenAt,
      p.randomSortKey,
      p.winningScore,
      p.lifecycleStage,
      p.marginBps,
      p.trendingScore,
      JSON.stringify(["reason one", "reason two", "reason three"]),
      p.firstSeenAt,
      p.landedMarginBps === undefined ? p.marginBps : p.landedMarginBps,
    );
  }
  await db.$executeRawUnsafe(`UPDATE "CatalogState" SET "version" = "version" + 1 WHERE "id" = 1`);
}

/** A deterministic pseudo-random catalogue with known words for relevance and broad/rare cases. */
export function fixtureCatalogue(count: number, seed = 7): FixtureProduct[] {
  let s = seed >>> 0;
  const rnd = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const niches = ["pets", "kitchen", "beauty", "fitness", "home-decor", "baby"];
  const nouns = ["brush", "bottle", "lamp", "mat", "organizer", "blender", "collar", "mirror", "band", "pillow"];
  const adjectives = ["portable", "smart", "foldable", "wireless", "magnetic", "ergonomic"];
  const stages = ["emerging", "rising", "peak", "declining"] as const;
  const out: FixtureProduct[] = [];
  for (let i = 0; i < count; i++) {
    const price = 500 + Math.floor(rnd() * 9500);
    const cost = Math.floor(price * (0.15 + rnd() * 0.4));
    const orders = Math.floor(rnd() ** 3 * 5000);
    const title = `${adjectives[i % adjectives.length]} ${nouns[Math.floor(rnd() * nouns.length)]}${i === 3 ? " zanzibar" : ""}`;
    out.push({
      objectID: `fx-${i}`,
      title,
      niches: [niches[i % niches.length], ...(i % 5 === 0 ? [niches[(i + 1) % niches.length]] : [])],
      priceCents: price,
      costCents: cost,
      marginBps: Math.round(((price - cost) / price) * 10000),
      amazonPriceCents: i % 3 === 0 ? 1000 + Math.floor(rnd() * 4000) : null,
      orders,
      revenueCents: orders * price,
      likes: Math.floor(rnd() * 1000),
      comments: Math.floor(rnd() * 100),
      shares: Math.floor(rnd() * 50),
      views: Math.floor(rnd() * 100000),
      storesSelling: Math.floor(rnd() * 60),
      firstSeenAt: new Date(Date.UTC(2026, 7, 1) + Math.floor(rnd() * 100) * 86_400_000).toISOString(),
      randomSortKey: Math.floor(rnd() * 2 ** 31),
      winningScore: Math.floor(rnd() * 101),
      lifecycleStage: stages[Math.floor(rnd() * 4)],
      trendingScore: Math.floor(rnd() * 1000) - 200,
    });
  }
  return out;
}

/**
 * A plain product's figures for tests that care about cost, price and landed cost, not the catalogue's spread:
 * $29.99 with a $6.40 cost, 100 orders, sold by 3 stores, rising, first seen 1 October 2026. Spread it and add an
 * objectID, a title and niches (and a winning score where the order matters).
 */
export const PLAIN_FIXTURE: Omit<FixtureProduct, "objectID" | "title" | "niches"> = {
  priceCents: 2999,
  costCents: 640,
  marginBps: 7866,
  orders: 100,
  revenueCents: 299900,
  likes: 1,
  comments: 1,
  shares: 1,
  views: 10,
  storesSelling: 3,
  firstSeenAt: "2026-10-01T00:00:00.000Z",
  randomSortKey: 1,
  winningScore: 50,
  lifecycleStage: "rising",
  trendingScore: 1,
};
