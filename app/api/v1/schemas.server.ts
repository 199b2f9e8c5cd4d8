// The public API's answers as zod schemas (docs/decisions/053). The OpenAPI document (openapi.server.ts) is
// generated from these by @asteasolutions/zod-to-openapi, and the answers (answers.server.ts) are typed by them,
// so the document cannot drift from what is sent. Each `.meta({ id })` becomes a named component.
import { z } from "zod";
import { LANDED_MARGIN_INCLUDES } from "~/domain/landed-cost/margin";

/** A named schema or null: a union, so the generated document says `anyOf: [$ref, null]` (a nullable $ref is not valid 3.1). */
const orNull = <T extends z.ZodType>(schema: T) => z.union([schema, z.null()]);

export const IsoDateTime = z.iso.datetime({ offset: true }).meta({ description: "ISO 8601 date and time (UTC)", example: "2026-11-26T09:30:00.000Z" });
export const IsoDate = z.iso.date().meta({ description: "ISO 8601 day (UTC)", example: "2026-11-26" });

export const Money = z
  .object({
    cents: z.number().int().meta({ description: "Whole cents" }),
    currency: z
      .string()
      .length(3)
      .nullable()
      .meta({ description: "ISO 4217 code; null when the store publishes no currency (never assumed to be US dollars)", example: "USD" }),
  })
  .meta({ id: "Money", description: "An amount of money in whole cents (minor units) with its currency, null when unknown." });

/** `{ value, measured, asOf }`: the value, whether we measured it (false: derived, estimated or sample data), and its day. */
function figureOf<T extends z.ZodType>(value: T, id: string, description: string) {
  return z
    .object({
      value,
      measured: z.boolean().meta({ description: "true: counted by us; false: derived from counts, estimated, or sample data" }),
      asOf: IsoDate,
    })
    .meta({ id, description });
}

export const IntFigure = figureOf(z.number().int(), "IntFigure", "A whole-number figure with whether it was measured and its day.");
export const NumberFigure = figureOf(z.number(), "NumberFigure", "A figure with whether it was measured and its day.");
export const NullableIntFigure = figureOf(z.number().int().nullable(), "NullableIntFigure", "A whole-number figure that may be unknown (null).");
export const TextFigure = figureOf(z.string(), "TextFigure", "A label (a stage, a date) with whether it was measured and its day.");
export const MoneyFigure = figureOf(Money, "MoneyFigure", "An amount of money with whether it was measured and its day.");
export const EngagementFigure = figureOf(
  z.object({ likes: z.number().int(), comments: z.number().int(), shares: z.number().int(), views: z.number().int() }),
  "EngagementFigure",
  "Likes, comments, shares and views over 30 days.",
);

export const ConvertedMoney = z
  .object({
    cents: z.number().int().meta({ description: "Whole cents of `currency`" }),
    currency: z.string().length(3).meta({ description: "ISO 4217 code of the converted amount (US dollars)", example: "USD" }),
    rateDate: IsoDate.meta({ description: "The day of the reference rate it was converted at (the European Central Bank's euro reference rates)" }),
  })
  .meta({
    id: "ConvertedMoney",
    description: "An amount converted into US dollars at a dated reference rate (half-up to the cent), always given beside the amount as listed.",
  });

export const ProductSource = z.enum(["sample", "measured", "tracked-store"]).meta({
  id: "ProductSource",
  description: "measured: what real stores sell, counted by us; sample: the research database's sample data; tracked-store: added from a store a user follows (price only).",
});

export const ProductFigures = z
  .object({
    storesSelling: orNull(IntFigure),
    storesAdded7d: orNull(IntFigure),
    storesAdded30d: orNull(IntFigure),
    winningScore: orNull(NumberFigure),
    lifecycleStage: orNull(TextFigure),
    saturation: orNull(NumberFigure),
    orders: orNull(IntFigure),
    orders7d: orNull(IntFigure),
    ordersGrowth7d: orNull(NumberFigure),
    revenue: orNull(MoneyFigure),
    engagement: orNull(EngagementFigure),
  })
  .meta({ id: "ProductFigures", description: "Every figure of a product; null where the product has no such figure (see noSalesData)." });

export const ProductInsights = z
  .object({
    reasons: z.array(z.string()).meta({ description: "Why the product scores as it does, as sentences" }),
    cost: orNull(Money).meta({ description: "Supplier cost; null when unknown" }),
    shipping: Money,
    marginBps: z.number().int().nullable().meta({ description: "Gross margin (price minus cost and shipping) in basis points; null when the cost is unknown" }),
    landedMarginBps: z
      .number()
      .int()
      .nullable()
      .meta({ description: `Margin after duty and fees in basis points, what minMargin, maxMargin and sort=margin read: ${LANDED_MARGIN_INCLUDES}` }),
    amazonPrice: orNull(Money),
    trendingScore: z.number().nullable(),
  })
  .meta({ id: "ProductInsights" });

export const Product = z
  .object({
    objectID: z.string(),
    title: z.string(),
    url: z.url().meta({ description: "The product's page in our app" }),
    image: z.string().nullable(),
    niches: z.array(z.string()),
    source: ProductSource,
    price: Money,
    priceConverted: orNull(ConvertedMoney).meta({
      description: "The price in US dollars at a dated reference rate when it is listed in another currency: what minPrice, maxPrice and the price sorts read. null when the price is in dollars, or its currency is unknown or has no rate (then it is in no price filter).",
    }),
    asOf: IsoDate.meta({ description: "The day the product's figures hold for" }),
    figures: ProductFigures,
    noSalesData: z.string().nullable().meta({ description: "Why there are no sales figures, when there are none" }),
    thinEvidence: z.string().nullable(),
    firstSeenAt: IsoDateTime,
    lastUpdatedAt: IsoDateTime,
    saved: z.boolean(),
    tracked: z.boolean(),
    insights: orNull(ProductInsights),
  })
  .meta({ id: "Product", description: "A product as the grid shows it, with every figure's evidence." });

export const SinceTracking = z
  .object({
    trackedAt: IsoDateTime,
    orders: z.number().int().nullable(),
    revenueCents: z.number().int().nullable(),
    priceCents: z.number().int().meta({ description: "Change of the price, in priceCurrency" }),
    priceCurrency: z.string().length(3).nullable().meta({ description: "ISO 4217 code of the price change; null when the stores publish no currency (never dollars)" }),
    priceChangeConverted: orNull(ConvertedMoney).meta({ description: "The price change in US dollars at a dated reference rate, for a price in another currency; null otherwise" }),
    storesSelling: z.number().int().nullable(),
    winningScore: z.number().nullable(),
  })
  .meta({ id: "SinceTracking", description: "Change of each figure since the product was tracked (null: no such figure)." });

export const Offer = z
  .object({
    store: z.string(),
    url: z.string(),
    title: z.string(),
    price: z
      .object({ cents: z.number().int().nullable(), currency: z.string().length(3).nullable() })
      .meta({ description: "As listed: cents null: the store publishes no price; currency null: it publishes no currency (never assumed to be dollars)" }),
    converted: orNull(ConvertedMoney).meta({ description: "The price in US dollars at a dated reference rate; null for dollars or when it cannot be converted (see conversionNote)" }),
    conversionNote: z.string().nullable().meta({ description: "Why the price was not converted (the store publishes no currency, or no reference rate for it); null otherwise" }),
    available: z.boolean().nullable(),
    firstSeenAt: IsoDateTime,
    reviews: z
      .number()
      .int()
      .nullable()
      .meta({ description: "Reviews the store's product page publishes (schema.org aggregateRating.reviewCount), read at most once a day; null: no review data (never 0 for unknown)" }),
    reviewsAsOf: IsoDate.nullable().meta({ description: "The day the review count was read; null without a count" }),
    reviewsNote: z.string().nullable().meta({ description: "Why there is no review count, in a sentence; null with a count or before the first read" }),
  })
  .meta({ id: "Offer", description: "A listing of a measured product on one store." });

export const MatchEvidence = z
  .object({
    listing: z.object({ store: z.string(), title: z.string(), url: z.string() }),
    via: z.string(),
    reason: z.string(),
  })
  .meta({ id: "MatchEvidence", description: "Why a store's listing was counted as this product." });

export const Signals = z
  .object({
    asOf: IsoDate,
    storesSelling: IntFigure,
    storesAdded7d: IntFigure,
    storesAdded30d: IntFigure,
    storesDropped7d: IntFigure,
    priceMinCents: NullableIntFigure,
    priceMedianCents: NullableIntFigure,
    priceMaxCents: NullableIntFigure,
    priceCurrency: z.string().length(3).nullable().meta({ description: "ISO 4217 code of priceMinCents, priceMedianCents and priceMaxCents; null when its stores publish none" }),
    priceRateDate: IsoDate.nullable().meta({ description: "The day of the reference rate listings in other currencies were converted at for those figures; null when none was converted" }),
    outOfStock: IntFigure,
    restocked30d: IntFigure,
    priceChanges7d: IntFigure,
    firstSeenAnywhere: TextFigure,
    reviews: orNull(IntFigure).meta({
      description: "Reviews its stores' product pages publish, summed over the stores that publish a count; asOf is the newest read. null: no review data (none of its stores publishes a count), never 0",
    }),
    reviewsGained7d: orNull(IntFigure).meta({ description: "Reviews gained in 7 days across those stores (each store's gain, never below 0); null: no review data" }),
    reviewsGained30d: orNull(IntFigure).meta({ description: "Reviews gained in 30 days across those stores; null: no review data" }),
    reviewStores: z.number().int().meta({ description: "Stores whose product pages publish a review count (0: no review data)" }),
    series: z
      .object({ startDay: IsoDate, endDay: IsoDate, storesSelling: z.array(z.number().int()), added: z.array(z.number().int()), dropped: z.array(z.number().int()) })
      .nullable(),
  })
  .meta({ id: "Signals", description: "A measured product's signals, each counted from its listings." });

export const ProductDetail = Product.extend({
  description: z.string().nullable(),
  tags: z.array(z.string()),
  images: z.array(z.string()),
  supplier: z.object({ name: z.string().nullable(), url: z.string().nullable() }).nullable(),
  history: z
    .object({ startDay: z.union([z.string(), z.number()]), days: z.number().int() })
    .loose()
    .nullable()
    .meta({ description: "Daily series of a sample product (orders, revenueCents, views, ...)" }),
  sinceTracking: orNull(SinceTracking),
  offers: z.array(Offer),
  signals: orNull(Signals),
  matchEvidence: z.array(MatchEvidence),
}).meta({ id: "ProductDetail", description: "One product with its insights, offers, signals and match evidence." });

export const ProductPage = z
  .object({
    items: z.array(Product),
    total: z.number().int(),
    totalIsEstimate: z.boolean(),
    limit: z.number().int(),
    nextCursor: z.string().nullable().meta({ description: "Pass as cursor for the next page; null on the last page" }),
    correctedQuery: z.string().nullable(),
    originalQuery: z.string().nullable(),
  })
  .meta({ id: "ProductPage" });

export const ProductList = z.object({ items: z.array(Product) }).meta({ id: "ProductList" });
export const TrackedList = z.object({ items: z.array(Product.extend({ sinceTracking: SinceTracking })) }).meta({ id: "TrackedList" });
export const NicheList = z.object({ items: z.array(z.string()) }).meta({ id: "NicheList" });

export const DropProduct = z
  .object({
    position: z.number().int(),
    objectID: z.string(),
    title: z.string(),
    url: z.url(),
    image: z.string().nullable(),
    niches: z.array(z.string()),
    price: Money,
    marginBps: z.number().int().nullable(),
    winningScore: z.number(),
    lifecycleStage: z.string(),
    reason: z.string(),
  })
  .meta({ id: "DropProduct" });

export const DropList = z
  .object({
    nextDropDate: IsoDate,
    items: z.array(z.object({ date: IsoDate, productCount: z.number().int(), products: z.array(DropProduct) })),
  })
  .meta({ id: "DropList", description: "The weekly drops this user revealed, newest first, with their products." });

export const Competitor = z
  .object({
    id: z.number().int(),
    domain: z.string(),
    name: z.string(),
    status: z.string(),
    lastCheckedAt: IsoDateTime.nullable(),
    nextCheckAt: IsoDateTime.nullable(),
    lastError: z.string().nullable(),
    currency: z.string().length(3).nullable().meta({ description: "ISO 4217 code the store publishes; null when it publishes none" }),
    productCount: z.number().int(),
    followedAt: IsoDateTime,
  })
  .meta({ id: "Competitor", description: "A rival store this user follows." });

export const CompetitorList = z.object({ items: z.array(Competitor) }).meta({ id: "CompetitorList" });

export const CompetitorChange = z
  .object({
    id: z.number().int(),
    measured: z.literal(true),
    type: z.string(),
    at: IsoDateTime,
    productId: z.string(),
    title: z.string(),
    sentence: z.string(),
  })
  .meta({ id: "CompetitorChange", description: "A change we saw on the store's public catalogue." });

export const CompetitorDetail = Competitor.extend({
  products: z.array(
    z.object({
      productId: z.string(),
      title: z.string(),
      url: z.string(),
      priceMin: orNull(Money),
      priceMax: orNull(Money),
      available: z.boolean().nullable(),
      publishedAt: IsoDateTime.nullable(),
      firstSeenAt: IsoDateTime,
      lastSeenAt: IsoDateTime,
      signals: z.object({ sellOuts: z.number().int(), restocks: z.number().int(), priceDrops: z.number().int(), priceRises: z.number().int(), launched: z.boolean() }),
    }),
  ),
  launches: z.array(CompetitorChange),
  changes: z.array(CompetitorChange),
  estimate: z.object({ low: z.number(), high: z.number(), unit: z.string(), confidence: z.string(), measured: z.literal(false) }).loose().nullable(),
  estimateReason: z.string().nullable(),
}).meta({ id: "CompetitorDetail", description: "A followed store with its products, launches, changes and estimate." });

export const NotificationList = z
  .object({
    items: z.array(z.object({ id: z.number().int(), kind: z.string(), title: z.string(), body: z.string(), url: z.string().nullable(), createdAt: IsoDateTime, readAt: IsoDateTime.nullable() })),
    unread: z.number().int(),
  })
  .meta({ id: "NotificationList" });

export const Profit = z
  .object({
    currency: z.string().length(3),
    priceCents: z.number().int(),
    cpaCents: z.number().int(),
    landedCostCents: z.number().int(),
    parts: z.record(z.string(), z.number().int()),
    duty: z.object({ htsCode: z.string(), origin: z.string(), ratePercent: z.number(), dutyCents: z.number().int(), asOf: IsoDate, explanation: z.string() }).loose(),
    netProfitCents: z.number().int(),
    marginBps: z.number().int(),
    breakEvenCpaCents: z.number().int(),
    breakEvenRoas: z.number().nullable(),
  })
  .loose()
  .meta({ id: "Profit", description: "Landed cost (duty layers in force that day, fees, reserves) and the profit of one order." });

export const ApiError = z.object({ error: z.string() }).loose().meta({ id: "Error", description: "A sentence saying what went wrong." });
