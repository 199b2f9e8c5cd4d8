// The rows the Algolia adapter (app/integrations/algolia.server.ts) works on, and the port it reads them
// through: the adapter never queries the database, the search service passes it a source
// (app/services/search/algolia-rows.server.ts) that loads them with an explicit select.

/** What a product's record is rebuilt from when it is pushed to the index. */
export interface AlgoliaRecordRow {
  objectID: string;
  title: string;
  description: string;
  niches: string;
  primaryNiche: string;
  tags: string;
  images: string;
  priceCents: number;
  /** null: US dollars (decision 059). */
  priceCurrency?: string | null;
  /** A price in another currency in dollars at a dated reference rate (decision 089); null when it has none. */
  priceUsdCents?: number | null;
  costCents: number | null;
  marginBps: number | null;
  /** The margin after duty and fees the margin filter and sort read (decision 065); null when the product has none. */
  landedMarginBps: number | null;
  amazonPriceCents: number | null;
  orders: number;
  revenueCents: bigint;
  likes: number;
  comments: number;
  shares: number;
  views: number;
  storesSelling: number;
  lifecycleStage: string;
  firstSeenAt: Date;
  winningScore: number;
  trendingScore: number;
  randomSortKey: number;
  lastUpdatedAt: Date;
  source: string;
  storesAdded7d: number;
}

/** A hit's current figures, read back after Algolia's search: the database has the last word. */
export type AlgoliaHitRow = Omit<AlgoliaRecordRow, "title" | "description" | "primaryNiche" | "tags" | "images" | "lastUpdatedAt"> & {
  id: number;
};

/** Loads the rows for these objectIDs (those no longer in the database are simply absent). */
export interface AlgoliaRowSource {
  hits(objectIDs: string[]): Promise<AlgoliaHitRow[]>;
  records(objectIDs: string[]): Promise<AlgoliaRecordRow[]>;
}
