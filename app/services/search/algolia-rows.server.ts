// The rows behind Algolia's hits and records, read with one `objectID IN (...)` query each (the adapter,
// app/integrations/algolia.server.ts, takes this source as its port and reads no database itself).
import type { Db } from "~/db.server";
import type { AlgoliaRowSource } from "~/domain/algolia-rows";

const hitSelect = {
  id: true,
  objectID: true,
  niches: true,
  lifecycleStage: true,
  priceCents: true,
  costCents: true,
  marginBps: true,
  orders: true,
  revenueCents: true,
  likes: true,
  comments: true,
  shares: true,
  views: true,
  storesSelling: true,
  firstSeenAt: true,
  amazonPriceCents: true,
  winningScore: true,
  trendingScore: true,
  randomSortKey: true,
  source: true,
  storesAdded7d: true,
} as const;

const recordSelect = {
  objectID: true,
  title: true,
  description: true,
  niches: true,
  primaryNiche: true,
  tags: true,
  images: true,
  priceCents: true,
  costCents: true,
  marginBps: true,
  amazonPriceCents: true,
  orders: true,
  revenueCents: true,
  likes: true,
  comments: true,
  shares: true,
  views: true,
  storesSelling: true,
  lifecycleStage: true,
  firstSeenAt: true,
  winningScore: true,
  trendingScore: true,
  randomSortKey: true,
  lastUpdatedAt: true,
  source: true,
  storesAdded7d: true,
} as const;

export function algoliaRowSource(db: Db): AlgoliaRowSource {
  return {
    hits: (objectIDs) => db.product.findMany({ where: { objectID: { in: objectIDs } }, select: hitSelect }),
    records: (objectIDs) => db.product.findMany({ where: { objectID: { in: objectIDs } }, select: recordSelect }),
  };
}
