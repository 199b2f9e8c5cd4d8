// Measured products as the rest of the product reads them (docs/decisions/046). This module owns the Product rows
// of source "measured" (their figures) and their ProductSignals rows. For each product it reads its member
// listings and their history (listings.server.ts; a batch of products in a few queries, never one per listing), counts the daily series and derives the insights
// (app/domain/catalogue/signals.ts), and writes:
// - title, pictures, niche and tags from its most typical listing (the one whose title shares most words with
//   the others), the price as the median of its present listings' lowest prices in their most common known
//   currency, other currencies converted at a dated reference rate, and in dollars for the price filter (decision 089);
// - stores selling, stores added in 7 and 30 days, first seen anywhere, stage, saturation, score and reasons,
//   all measured or derived from measured counts; thin evidence said so (Product.thinEvidence); the reviews its
//   stores' product pages publish, summed, with those gained in 7 and 30 days (decision 094), kept beside the
//   series in ProductSignals and feeding the score and reasons;
// - the sales columns stay 0 placeholders: orders are not measured, and every reader treats source "measured"
//   as having no sales data (docs/decisions/026).
// Then the catalogue version is bumped so search caches refresh.
import { createHash } from "node:crypto";
import { retryBusy, type Db } from "~/db.server";
import { reviewSummary } from "~/domain/catalogue/review-signals";
import { measuredInsights, measuredSeries, type ListingHistory } from "~/domain/catalogue/signals";
import { compareTitles, normaliseTitle } from "~/domain/catalogue/title";
import { dayOf, dayString } from "~/domain/products/insights";
import { productPriceCurrency } from "~/domain/catalogue/measured-product";
import { centsIn, productPrice } from "~/domain/catalogue/prices";
import type { RateTable } from "~/domain/landed-cost/exchange-rates";
import { storeProductNiche } from "~/domain/products/product-import";
import { listingHistory, readListingChanges, readListingDetails, type ListingChangeRow, type ListingDetail } from "~/services/catalogue/listings.server";
import { readReviewPoints, REVIEW_POINTS_DAYS, type ReviewPoints } from "~/services/catalogue/reviews.server";
import { currentRateTable } from "~/services/landed-cost/exchange-rates.server";
import { bumpCatalogVersion } from "~/services/search/catalog-version.server";

/** Days of signals kept per product (the chart and the 30-day figures). */
export const SIGNAL_DAYS = 90;

/** Products recomputed together: their listings and histories are read in a few queries, written in one transaction. */
const PRODUCTS_PER_BATCH = 100;

export interface MaterialiseSummary {
  products: number;
  ms: number;
}

export interface CatalogueMaterialiseDeps {
  db: Db;
  now: () => Date;
}

function mostCommon<T>(values: T[]): T | undefined {
  const counts = new Map<T, number>();
  let best: T | undefined;
  let bestCount = 0;
  for (const v of values) {
    const c = (counts.get(v) ?? 0) + 1;
    counts.set(v, c);
    if (c > bestCount) {
      best = v;
      bestCount = c;
    }
  }
  return best;
}

/** The listing whose title shares most words with the others (ties: the shorter title, then the older listing). */
function typicalListing(listings: ListingDetail[]): ListingDetail {
  const titles = listings.map((l) => normaliseTitle(l.title));
  let best = 0;
  let bestScore = -1;
  for (let i = 0; i < listings.length; i++) {
    let score = 0;
    for (let j = 0; j < listings.length; j++) if (i !== j) score += compareTitles(titles[i], titles[j]).shared.length;
    const better =
      score > bestScore ||
      (score === bestScore && listings[i].title.length < listings[best].title.length) ||
      (score === bestScore && listings[i].title.length === listings[best].title.length && listings[i].id < listings[best].id);
    if (better) {
      best = i;
      bestScore = score;
    }
  }
  return listings[best];
}

export function createCatalogueMaterialise(deps: CatalogueMaterialiseDeps) {
  const { db, now } = deps;
  /** The reference rates this run converts prices at (the newest stored day, else the starter; decision 089). */
  let rates: RateTable | null = null;

  /** One product's row and signals, from its listings and their changes (read for the whole batch). */
  function one(productId: number, objectID: string, listings: ListingDetail[], changes: Map<number, ListingChangeRow[]>, reviewPoints: ReviewPoints) {
    if (listings.length === 0) return null;
    const present = listings.filter((l) => l.removedAt === null);
    const shown = typicalListing(present.length > 0 ? present : listings);
    // The median of the present listings' prices in their most common known currency, the others converted at the
    // reference rates of one dated table, and that median in dollars for the price filter (decision 089).
    const priced = productPrice(present.length > 0 ? present.map((l) => ({ priceCents: l.priceMinCents, currency: l.currency })) : [{ priceCents: shown.priceMinCents, currency: shown.currency }], rates);
    const currency = priced.currency;
    const price = priced.cents ?? 0;
    // The price series (min, median, max) in the product's currency: a listing that cannot be converted is counted, not priced.
    const histories: ListingHistory[] = listings.map((l) => {
      const history = listingHistory(l, changes.get(l.id) ?? []);
      if (l.currency === currency) return history;
      const shownPrices = history.prices.map((p) => ({ at: p.at, cents: centsIn(p.cents, l.currency, currency, rates) }));
      return { ...history, shownPrices: shownPrices.every((p) => p.cents !== null) ? (shownPrices as ListingHistory["prices"]) : null };
    });
    const firstSeenAnywhere = listings.reduce<Date>((min, l) => {
      const d = l.publishedAt && l.publishedAt < l.firstSeenAt ? l.publishedAt : l.firstSeenAt;
      return d < min ? d : min;
    }, listings[0].firstSeenAt);
    const observedSince = listings.reduce<Date>((min, l) => {
      const d = l.storeFirstReadAt ?? l.firstSeenAt;
      return d < min ? d : min;
    }, listings[0].storeFirstReadAt ?? listings[0].firstSeenAt);
    const today = dayOf(now());
    const start = Math.max(today - SIGNAL_DAYS + 1, Math.min(dayOf(observedSince), today));
    const series = measuredSeries(histories, dayString(start), dayString(today));
    // Reviews summed over the present listings whose pages publish a count (decision 094); null: no review data.
    const reviews = reviewSummary(
      present.map((l) => ({ store: l.storeDomain, points: reviewPoints.get(l.id) ?? [] })),
      dayString(today),
    );
    const insights = measuredInsights(series, dayString(Math.min(dayOf(observedSince), today)), firstSeenAnywhere.toISOString(), reviews);
    // The known niche the listings' types (or tags) name; none when they name none (decision 084).
    const niche = mostCommon(listings.map((l) => storeProductNiche(l.productType, l.tags)).filter((n): n is string => n !== null));
    const stores = [...new Set(present.map((l) => l.storeDomain))].sort();
    const at = now();
    const randomSortKey = createHash("sha256").update(objectID).digest().readUInt32BE(0) >>> 1;
    const fields = {
      title: shown.title.slice(0, 300),
      description: `Sold by ${stores.length === 1 ? "1 store" : `${stores.length} stores`} we observe${stores.length ? `: ${stores.slice(0, 10).join(", ")}${stores.length > 10 ? ", ..." : ""}` : ""}.${currency && currency !== "USD" ? ` Prices as listed, in ${currency}.` : ""}${currency === null ? " Its stores publish no currency: prices as listed, never taken for dollars." : ""}`,
      niches: JSON.stringify(niche ? [niche] : []),
      primaryNiche: niche ?? "",
      tags: JSON.stringify([...new Set(listings.flatMap((l) => l.tags))].slice(0, 20)),
      images: JSON.stringify(shown.images.filter((u) => /^https?:\/\//i.test(u)).slice(0, 8)),
      priceCents: price,
      // Not US dollars (or an unknown currency): kept out of the dollar price filter and sorts (decision 059).
      priceCurrency: productPriceCurrency(currency),
      // In dollars at a dated reference rate: the price filter and price sorts read it (decision 089).
      priceUsdCents: currency === "USD" ? null : priced.usdCents,
      priceRateDate: priced.rateDate,
      storesSelling: insights.storesSelling,
      storesAdded7d: insights.storesAdded7d,
      storesAdded30d: insights.storesAdded30d,
      thinEvidence: insights.thinEvidence,
      firstSeenAt: firstSeenAnywhere,
      lastUpdatedAt: at,
      randomSortKey,
      winningScore: insights.winningScore,
      lifecycleStage: insights.lifecycleStage,
      saturation: insights.saturation,
      trendingScore: insights.adoptionScore,
      reasons: JSON.stringify(insights.reasons),
      insightsAt: at,
    };
    const signals = { startDay: series.startDay, endDay: series.endDay, series: JSON.stringify({ ...series, reviews }), computedAt: at };
    return { productId, fields, signals };
  }

  /**
   * A batch of products: their members, listings and listings' changes in a few queries for the whole batch
   * (never one per listing), then every product's row and signals in one transaction.
   */
  async function batch(products: Array<{ id: number; objectID: string }>): Promise<void> {
    const members = await db.catalogueMember.findMany({ where: { productId: { in: products.map((p) => p.id) } }, select: { listingId: true, productId: true } });
    const details = await readListingDetails(
      db,
      members.map((m) => m.listingId),
    );
    const changes = await readListingChanges(db, [...details.values()]);
    const reviewPoints = await readReviewPoints(db, [...details.keys()], dayString(dayOf(now()) - REVIEW_POINTS_DAYS));
    const byProduct = new Map<number, ListingDetail[]>();
    for (const m of members) {
      const detail = details.get(m.listingId);
      if (detail) byProduct.set(m.productId, [...(byProduct.get(m.productId) ?? []), detail]);
    }
    const writes = products.flatMap((p) => one(p.id, p.objectID, (byProduct.get(p.id) ?? []).sort((a, b) => a.id - b.id), changes, reviewPoints) ?? []);
    if (writes.length === 0) return;
    await retryBusy(() =>
      db.$transaction(
        writes.flatMap(({ productId, fields, signals }) => [
          db.product.update({ where: { id: productId }, data: fields, select: { id: true } }),
          db.productSignals.upsert({ where: { productId }, create: { productId, ...signals }, update: signals, select: { productId: true } }),
        ]),
      ),
    );
  }

  /** Recomputes the given measured products (by objectID), or every one when none are given. */
  async function run(objectIDs?: string[]): Promise<MaterialiseSummary> {
    const started = Date.now();
    rates = await currentRateTable(db);
    const products: Array<{ id: number; objectID: string }> = [];
    if (objectIDs === undefined) {
      products.push(...(await db.product.findMany({ where: { source: "measured" }, select: { id: true, objectID: true } })));
    } else {
      for (let i = 0; i < objectIDs.length; i += 500) {
        products.push(
          ...(await db.product.findMany({ where: { source: "measured", objectID: { in: objectIDs.slice(i, i + 500) } }, select: { id: true, objectID: true } })),
        );
      }
    }
    for (let i = 0; i < products.length; i += PRODUCTS_PER_BATCH) await batch(products.slice(i, i + PRODUCTS_PER_BATCH));
    if (products.length > 0) await bumpCatalogVersion(db, now());
    return { products: products.length, ms: Date.now() - started };
  }

  return { run };
}

export type CatalogueMaterialise = ReturnType<typeof createCatalogueMaterialise>;
