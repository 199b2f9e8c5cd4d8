// Reading product pages: the rows' selects, a page as the editor and the JSON API show it (its store, the
// research product it was made from, which images Shopify will receive), and the user-scoped loads every use
// case starts from. A page is only ever read through its owner's id.
import { parseStringList, type Db } from "~/db.server";
import { AppError } from "~/domain/errors";
import { descriptionHtmlToMarkdown, planMedia, shopifyAdminProductUrl, type MediaPlan, type ProductPageStatus } from "~/domain/product-pages/product-page";

export interface ViewsDeps {
  db: Db;
  /** The app's public URL, to make local image paths absolute for Shopify; null when there is none. */
  publicUrl: string | null;
}

export const pageSelect = {
  id: true,
  userId: true,
  objectID: true,
  storeId: true,
  status: true,
  title: true,
  descriptionHtml: true,
  descriptionMarkdown: true,
  bullets: true,
  seoTitle: true,
  seoDescription: true,
  priceCents: true,
  compareAtPriceCents: true,
  writer: true,
  shopifyProductId: true,
  error: true,
  creditLedgerId: true,
  createdAt: true,
  updatedAt: true,
  pushedAt: true,
} as const;

export type PageRow = {
  id: number;
  userId: string;
  objectID: string;
  storeId: number | null;
  status: string;
  title: string;
  descriptionHtml: string;
  /** null: written before descriptions were Markdown; converted from descriptionHtml when read. */
  descriptionMarkdown: string | null;
  bullets: string;
  seoTitle: string;
  seoDescription: string;
  priceCents: number;
  compareAtPriceCents: number | null;
  writer: string;
  shopifyProductId: string | null;
  error: string | null;
  creditLedgerId: number | null;
  createdAt: Date;
  updatedAt: Date;
  pushedAt: Date | null;
};

const productSelect = {
  id: true,
  objectID: true,
  title: true,
  description: true,
  niches: true,
  tags: true,
  reasons: true,
  images: true,
  priceCents: true,
  priceCurrency: true,
  costCents: true,
  shippingCents: true,
  supplierName: true,
  supplierUrl: true,
} as const;

export type ProductRow = {
  id: number;
  objectID: string;
  title: string;
  description: string;
  niches: string;
  tags: string;
  reasons: string;
  images: string;
  priceCents: number;
  /** null: the supplier cost is unknown (docs/decisions/026). */
  costCents: number | null;
  shippingCents: number;
  supplierName: string | null;
  supplierUrl: string | null;
};

export interface StoreSummary {
  id: number;
  shop: string;
  storeName: string;
}

export interface ProductPageView {
  id: number;
  objectID: string;
  status: ProductPageStatus;
  title: string;
  /** The description the seller edits (docs/decisions/029). */
  descriptionMarkdown: string;
  /** The description rendered from it: what Shopify receives (before the benefits list). */
  descriptionHtml: string;
  bullets: string[];
  seoTitle: string;
  seoDescription: string;
  priceCents: number;
  compareAtPriceCents: number | null;
  writer: string;
  store: StoreSummary | null;
  shopifyProductId: string | null;
  shopifyAdminUrl: string | null;
  error: string | null;
  /** Bought with automatic mode (its spend is refunded if the push fails). */
  automatic: boolean;
  createdAt: string;
  updatedAt: string;
  pushedAt: string | null;
  /** The research product it was made from (null if it left the catalogue). */
  product: {
    title: string;
    image: string | null;
    /** null when the supplier cost is unknown; the landed cost is then null too. */
    costCents: number | null;
    shippingCents: number;
    landedCostCents: number | null;
    /** What sellers charge for it in the research data, in marketPriceCurrency. */
    marketPriceCents: number;
    /** null for US dollars; another currency is shown with its code, never as dollars (decision 059). */
    marketPriceCurrency: string | null;
  } | null;
  /** Which product images Shopify will receive, and why others are skipped. */
  media: MediaPlan;
}

/** A page's description as Markdown: the stored one, or its older HTML converted. */
export function markdownOf(row: Pick<PageRow, "descriptionMarkdown" | "descriptionHtml">): string {
  return row.descriptionMarkdown ?? descriptionHtmlToMarkdown(row.descriptionHtml);
}

export async function loadProduct(db: Db, objectID: string): Promise<ProductRow> {
  const product = await db.product.findUnique({ where: { objectID }, select: productSelect });
  if (!product) throw new AppError(404, `No product with objectID ${objectID}.`);
  return product;
}

export async function ownRow(db: Db, userId: string, id: number): Promise<PageRow> {
  const row = await db.productPage.findFirst({ where: { id, userId }, select: pageSelect });
  if (!row) throw new AppError(404, "No such product page.");
  return row;
}

/** Rows of ONE user as views, with their stores and products read in two queries. */
export async function views(deps: ViewsDeps, rows: PageRow[]): Promise<ProductPageView[]> {
  const { db } = deps;
  if (rows.length === 0) return [];
  const storeIds = [...new Set(rows.map((r) => r.storeId).filter((id): id is number => id !== null))];
  const objectIDs = [...new Set(rows.map((r) => r.objectID))];
  const userId = rows[0].userId;
  const [stores, products] = await Promise.all([
    storeIds.length > 0
      ? db.shopifyStore.findMany({
          where: { id: { in: storeIds }, userId },
          select: { id: true, shop: true, store_name: true },
        })
      : Promise.resolve([]),
    db.product.findMany({ where: { objectID: { in: objectIDs } }, select: productSelect }),
  ]);
  const storeById = new Map(stores.map((s) => [s.id, { id: s.id, shop: s.shop, storeName: s.store_name }]));
  const productById = new Map(products.map((p) => [p.objectID, p]));
  return rows.map((r) => {
    const p = productById.get(r.objectID);
    const images = p ? parseStringList(p.images) : [];
    const store = r.storeId !== null ? (storeById.get(r.storeId) ?? null) : null;
    return {
      id: r.id,
      objectID: r.objectID,
      status: r.status as ProductPageStatus,
      title: r.title,
      descriptionMarkdown: markdownOf(r),
      descriptionHtml: r.descriptionHtml,
      bullets: parseStringList(r.bullets),
      seoTitle: r.seoTitle,
      seoDescription: r.seoDescription,
      priceCents: r.priceCents,
      compareAtPriceCents: r.compareAtPriceCents,
      writer: r.writer,
      store,
      shopifyProductId: r.shopifyProductId,
      shopifyAdminUrl: store && r.shopifyProductId ? shopifyAdminProductUrl(store.shop, r.shopifyProductId) : null,
      error: r.error,
      automatic: r.creditLedgerId !== null,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
      pushedAt: r.pushedAt?.toISOString() ?? null,
      product: p
        ? {
            title: p.title,
            image: images[0] ?? null,
            costCents: p.costCents,
            shippingCents: p.shippingCents,
            landedCostCents: p.costCents === null ? null : p.costCents + p.shippingCents,
            marketPriceCents: p.priceCents,
            marketPriceCurrency: p.priceCurrency,
          }
        : null,
      media: planMedia(images, deps.publicUrl),
    };
  });
}

export async function view(deps: ViewsDeps, row: PageRow): Promise<ProductPageView> {
  return (await views(deps, [row]))[0];
}

/** The user's product pages, newest first. */
export async function listPages(deps: ViewsDeps, userId: string, take = 100): Promise<ProductPageView[]> {
  const rows = await deps.db.productPage.findMany({
    where: { userId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take,
    select: pageSelect,
  });
  return views(deps, rows);
}

export async function getPage(deps: ViewsDeps, userId: string, id: number): Promise<ProductPageView> {
  return view(deps, await ownRow(deps.db, userId, id));
}
