// The rows behind Algolia's hits and records, read with one `objectID IN (...)` query each (the adapter,
// app/integrations/algolia.server.ts, takes this source as its port and reads no database itself).
import type { Db } from "~/db.server";
import type { AlgoliaRowSource } from "~/domain/products/algolia-rows";

/** The figures a hit is filtered and ordered on again, which a record also carries. */
const figureSelect = {
  objectID: true,
  niches: true,
  lifecycleStage: true,
  priceCents: true,
  priceCurrency: true,
  priceUsdCents: true,
  costCents: true,
  marginBps: true,
  landedMarginBps: true,
  amazonPriceCents: true,
  orders: true,
  revenueCents: true,
  likes: true,
  comments: true,
  shares: true,
  views: true,
  storesSelling: true,
  firstSeenAt: true,
  winningScore: true,
  trendingScore: true,
  randomSortKey: true,
  source: true,
  storesAdded7d: true,
} as const;

const hitSelect = { id: true, ...figureSelect } as const;

const recordSelect = {
  ...figureSelect,
  title: true,
  description: true,
  primaryNiche: true,
  tags: true,
  images: true,
  lastUpdatedAt: true,
} as const;

export function algoliaRowSource(db: Db): AlgoliaRowSource {
  return {
    hits: (objectIDs) => db.product.findMany({ where: { objectID: { in: objectIDs } }, select: hitSelect }),
    records: (objectIDs) => db.product.findMany({ where: { objectID: { in: objectIDs } }, select: recordSelect }),
  };
}
