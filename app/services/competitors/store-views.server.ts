// A followed store's page (docs/decisions/023): its current catalogue with each product's measured signals,
// the launches and changes as sentences, the catalogue's size over time, and the estimate with its evidence.
// Reads only; every number is labelled measured or estimated.
import { parseStringList, type Db } from "~/db.server";
import { describeChange, type CatalogueChange, type CataloguePoint, type ChangeKind } from "~/domain/competitors/insights";
import type { VariantSnapshot } from "~/domain/crawl/store-snapshot";
import { estimateOf, estimateWindow, type EstimateView } from "~/services/competitors/estimates.server";
import {
  changeSelect,
  importedObjectId,
  iso,
  ownFollow,
  parseChange,
  parseVariants,
  productSelect,
  summaryOf,
  trackedFirstSeen,
  type ChangeRow,
  type CompetitorSummary,
} from "~/services/competitors/shared.server";

const PRODUCTS_SHOWN = 500;
const CHANGES_SHOWN = 200;
const LAUNCHES_SHOWN = 50;
const SERIES_POINTS = 500;

export interface ProductSignals {
  kind: "measured";
  /** Over the last COMPETITOR_RULES.estimateWindowDays days of reads. */
  sellOuts: number;
  restocks: number;
  priceDrops: number;
  priceRises: number;
  /** Launched while we watched (a "launch" change), with its date when the store published one. */
  launched: boolean;
  launchedAt: string | null;
  lastChangeAt: string | null;
}

export interface CompetitorProductView {
  productId: string;
  handle: string;
  title: string;
  productType: string;
  vendor: string;
  tags: string[];
  images: string[];
  variants: VariantSnapshot[];
  priceMinCents: number | null;
  priceMaxCents: number | null;
  currency: string | null;
  available: boolean | null;
  createdAt: string | null;
  publishedAt: string | null;
  /** The earlier of its published day and our first read (trackedFirstSeen): its page in the product database says the same. */
  firstSeenAt: string;
  lastSeenAt: string;
  /** Its id in the product database once someone added it there (its page's link), else null. */
  objectID: string | null;
  /** The product's page on the rival store. */
  url: string;
  /** The user follows this product (price-drop alerts). */
  followed: boolean;
  signals: ProductSignals;
}

export interface ChangeView {
  id: number;
  kind: "measured";
  /** What changed: launch, removal, price-change, compare-at-change, sold-out, restock, variant-added/removed. */
  type: ChangeKind;
  /** The read that saw it. */
  at: string;
  productId: string;
  handle: string;
  title: string;
  /** The change as a sentence. */
  sentence: string;
  detail: CatalogueChange;
}

export interface CompetitorDetail extends CompetitorSummary {
  fetchDomain: string;
  products: CompetitorProductView[];
  launches: ChangeView[];
  changes: ChangeView[];
  series: CataloguePoint[];
  estimate: EstimateView | null;
  /** Why there is no estimate ("not enough evidence: ..."), null when there is one. */
  estimateReason: string | null;
}

function changeView(row: ChangeRow): ChangeView | null {
  const detail = parseChange(row.detail);
  if (!detail) return null;
  return {
    id: row.id,
    kind: "measured",
    type: row.kind as ChangeKind,
    at: row.at.toISOString(),
    productId: row.productId,
    handle: row.handle,
    title: row.title,
    sentence: describeChange(detail),
    detail,
  };
}
const changeViews = (rows: ChangeRow[]) => rows.map(changeView).filter((c): c is ChangeView => c !== null);

export async function storeDetail(db: Db, userId: string, id: number): Promise<CompetitorDetail> {
  const follow = await ownFollow(db, userId, id);
  const storeId = follow.storeId;
  const window = await estimateWindow(db, storeId);
  const windowChanges = window.changes;

  const [products, followed, recentChanges, launchRows, checks] = await Promise.all([
    db.competitorProduct.findMany({
      where: { storeId, removedAt: null },
      orderBy: [{ publishedAt: { sort: "desc", nulls: "last" } }, { firstSeenAt: "desc" }, { id: "desc" }],
      take: PRODUCTS_SHOWN,
      select: productSelect,
    }),
    db.competitorProductFollow.findMany({ where: { competitorId: follow.id }, select: { productId: true } }),
    db.competitorChange.findMany({ where: { storeId }, orderBy: [{ at: "desc" }, { id: "desc" }], take: CHANGES_SHOWN, select: changeSelect }),
    db.competitorChange.findMany({ where: { storeId, kind: "launch" }, orderBy: [{ at: "desc" }, { id: "desc" }], take: LAUNCHES_SHOWN, select: changeSelect }),
    db.competitorCheck.findMany({
      where: { storeId, ok: true },
      orderBy: { takenAt: "desc" },
      take: SERIES_POINTS,
      select: { takenAt: true, products: true, variants: true, inStock: true, outOfStock: true, truncated: true },
    }),
  ]);

  // Per-product signals over the estimate's window.
  const signals = new Map<string, ProductSignals>();
  const signalOf = (productId: string) => {
    let s = signals.get(productId);
    if (!s) {
      s = { kind: "measured", sellOuts: 0, restocks: 0, priceDrops: 0, priceRises: 0, launched: false, launchedAt: null, lastChangeAt: null };
      signals.set(productId, s);
    }
    return s;
  };
  const windowParsed: CatalogueChange[] = [];
  for (const row of windowChanges) {
    const change = parseChange(row.detail);
    if (!change) continue;
    windowParsed.push(change);
    const s = signalOf(row.productId);
    s.lastChangeAt = row.at.toISOString();
    if (change.kind === "sold-out") s.sellOuts++;
    else if (change.kind === "restock") s.restocks++;
    else if (change.kind === "price-change" && change.direction === "down") s.priceDrops++;
    else if (change.kind === "price-change") s.priceRises++;
    else if (change.kind === "launch") {
      s.launched = true;
      s.launchedAt = change.launchedAt;
    }
  }

  const { estimate, estimateReason } = estimateOf(window, windowParsed);

  const followedIds = new Set(followed.map((f) => f.productId));
  const currency = follow.store.currency;
  const productDomain = follow.store.domain;
  // The product database is shared by every user: a product anyone added is linked, not offered again.
  const idOf = new Map(products.map((p) => [p.productId, importedObjectId(productDomain, p.productId)]));
  const inDatabase = new Set(
    (await db.product.findMany({ where: { objectID: { in: [...idOf.values()] } }, select: { objectID: true } })).map((r) => r.objectID),
  );
  return {
    ...summaryOf(follow),
    fetchDomain: follow.store.fetchDomain,
    products: products.map((p) => ({
      productId: p.productId,
      handle: p.handle,
      title: p.title,
      productType: p.productType,
      vendor: p.vendor,
      tags: parseStringList(p.tags),
      images: parseStringList(p.images),
      variants: parseVariants(p.variants),
      priceMinCents: p.priceMinCents,
      priceMaxCents: p.priceMaxCents,
      // The currency its store published when this listing was read (decision 089), else the store's.
      currency: p.currency ?? currency,
      available: p.available,
      createdAt: iso(p.createdAt),
      publishedAt: iso(p.publishedAt),
      firstSeenAt: trackedFirstSeen(p).toISOString(),
      lastSeenAt: p.lastSeenAt.toISOString(),
      objectID: inDatabase.has(idOf.get(p.productId)!) ? idOf.get(p.productId)! : null,
      url: `https://${productDomain}/products/${encodeURIComponent(p.handle)}`,
      followed: followedIds.has(p.productId),
      signals: signals.get(p.productId) ?? signalOf(p.productId),
    })),
    launches: changeViews(launchRows),
    changes: changeViews(recentChanges),
    series: checks.reverse().map((c) => ({
      kind: "measured" as const,
      takenAt: c.takenAt.toISOString(),
      products: c.products,
      variants: c.variants,
      inStockVariants: c.inStock,
      outOfStockVariants: c.outOfStock,
      unknownStockVariants: Math.max(0, c.variants - c.inStock - c.outOfStock),
      truncated: c.truncated,
    })),
    estimate,
    estimateReason,
  };
}
