// Product pages (seed product_pages, automatic-mode): generate a page for a research product with the
// AI text adapter, keep it in the user's list, let the merchant edit it, push it to one of the user's
// connected Shopify stores as a draft product (productSet), and automatic mode, which does generate +
// push in one step for 4 credits, refunded when it fails. Every query is scoped to the user; a store
// is used only when it is linked to that user and connected. Store tokens are never read here: the
// resolver given at construction turns a linked store into { shop, accessToken } (docs/decisions/015).
import { AppError, type AppErrorStatus } from "~/domain/errors";
import { randomUUID } from "node:crypto";
import { parseStringList, type Db } from "~/db.server";
import {
  composeProductBodyHtml,
  centsToDecimal,
  descriptionHtmlToMarkdown,
  planMedia,
  shopifyAdminProductUrl,
  suggestPrice,
  validatePage,
  type MediaPlan,
  type PageContent,
  type PageErrors,
  type ProductPageStatus,
} from "~/domain/product-page";
import { AiTextError, type AiText, type ProductFacts } from "~/integrations/ai-text.server";
import {
  createShopifyAdmin,
  productSet,
  ShopifyAdminError,
  type ProductSetInput,
  type ShopifyAdminConfig,
} from "~/integrations/shopify-admin.server";
import { childLogger } from "~/logger.server";
import * as credits from "~/services/credits.server";

const log = childLogger("product-pages");

/** What the Admin API needs for one shop. Supplied by the resolver; never stored or logged. */
export interface StoreAccess {
  shop: string;
  accessToken: string;
}

/** A store linked to the user, as the resolver receives it (the token still sealed). */
export interface LinkedStore {
  id: number;
  userId: string;
  shop: string;
  storeName: string;
  encryptedAppToken: string | null;
}

/** Turns a linked store into an access token (decrypting it, refreshing it …). Throw to refuse. */
export type StoreAccessResolver = (store: LinkedStore) => Promise<StoreAccess>;

export interface ProductPagesDeps {
  db: Db;
  ai: AiText;
  resolveStoreAccess: StoreAccessResolver;
  shopify: Pick<ShopifyAdminConfig, "apiVersion" | "baseUrl" | "maxAttempts" | "maxWaitMs" | "onRetry" | "timeoutMs">;
  /** The app's public URL, to make local image paths absolute for Shopify; null when there is none. */
  publicUrl: string | null;
  /** A page left "pushing" longer than this (a crashed process) may be pushed again. Default 5 min. */
  stalePushMs?: number;
  /** The user's default brand kit's voice (tone, name, tagline) for the writer (decision 033); none by default. */
  voiceFor?: (userId: string) => Promise<ProductFacts["voice"]>;
}

export const AUTOMATIC_MODE_FEATURE = "automatic-mode";
export const GENERATE_FEATURE = "product-pages";

const pageSelect = {
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

type PageRow = {
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
  objectID: true,
  title: true,
  description: true,
  niches: true,
  tags: true,
  reasons: true,
  images: true,
  priceCents: true,
  costCents: true,
  shippingCents: true,
} as const;

type ProductRow = {
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
    /** What sellers charge for it in the research data. */
    marketPriceCents: number;
  } | null;
  /** Which product images Shopify will receive, and why others are skipped. */
  media: MediaPlan;
}

/** A pushed page. A push Shopify refused (422) or failed (502) throws AppError with { page, media }. */
export type Pushed = { page: ProductPageView; media: MediaPlan };

/** How one send to Shopify ended; push and automatic mode turn a failure into their AppError. */
type SendOutcome =
  | { ok: true; page: ProductPageView; media: MediaPlan }
  | { ok: false; status: 422 | 502; error: string; page: ProductPageView; media: MediaPlan };

/**
 * Automatic mode's page. Failures throw AppError: 402 { upsell, feature, cost, remaining } when short,
 * otherwise its status with { page, refunded, remaining }.
 */
export type AutomaticResult = { page: ProductPageView; cost: number; remaining: number; replayed: boolean };

/** Automatic mode's refusal after (or instead of) its spend: the page if any, and whether it was refunded. */
function automaticFailure(
  status: AppErrorStatus,
  error: string,
  details: { page: ProductPageView | null; refunded: boolean; remaining: number | null },
) {
  return new AppError(status, error, details);
}

/** A page's description as Markdown: the stored one, or its older HTML converted. */
function markdownOf(row: Pick<PageRow, "descriptionMarkdown" | "descriptionHtml">): string {
  return row.descriptionMarkdown ?? descriptionHtmlToMarkdown(row.descriptionHtml);
}

/**
 * The two stored forms of a checked page's description: its Markdown (given, or converted from the HTML a
 * writer or the JSON API sent) and the HTML rendered from that Markdown, which is what Shopify receives.
 */
function storedDescription(page: PageContent): { descriptionMarkdown: string; descriptionHtml: string } {
  if (page.descriptionMarkdown !== undefined)
    return { descriptionMarkdown: page.descriptionMarkdown, descriptionHtml: page.descriptionHtml };
  const descriptionMarkdown = descriptionHtmlToMarkdown(page.descriptionHtml);
  return { descriptionMarkdown, descriptionHtml: composeProductBodyHtml(descriptionMarkdown, []) };
}

export function createProductPages(deps: ProductPagesDeps) {
  const { db } = deps;
  const stalePushMs = deps.stalePushMs ?? 5 * 60_000;
  if (!deps.publicUrl) {
    // Sellers read "this site has no public URL yet" next to the skipped images; the setting is named here.
    log.warn("no public URL (APP_URL or SHOPIFY_APP_URL): images stored on this server are not sent to Shopify with pushed pages");
  }

  // ---- reading ----------------------------------------------------------------------------------

  async function loadProduct(objectID: string): Promise<ProductRow> {
    const product = await db.product.findUnique({ where: { objectID }, select: productSelect });
    if (!product) throw new AppError(404, `No product with objectID ${objectID}.`);
    return product;
  }

  async function loadStore(userId: string, shop: string): Promise<LinkedStore> {
    const store = await db.shopifyStore.findFirst({
      where: { userId, shop, connected: true },
      select: { id: true, userId: true, shop: true, store_name: true, encrypted_app_token: true },
    });
    if (!store) throw new AppError(404, `${shop} is not a connected store of your account. Connect it first.`);
    return {
      id: store.id,
      userId: store.userId,
      shop: store.shop,
      storeName: store.store_name,
      encryptedAppToken: store.encrypted_app_token,
    };
  }

  async function access(store: LinkedStore): Promise<StoreAccess> {
    try {
      const a = await deps.resolveStoreAccess(store);
      if (a.shop !== store.shop) throw new Error("the resolver answered for another shop");
      return a;
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError(
        409,
        `The app cannot act on ${store.shop} right now: reconnect the store and try again.`,
        {
          cause: (error as Error).message,
        },
      );
    }
  }

  async function views(rows: PageRow[]): Promise<ProductPageView[]> {
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
            }
          : null,
        media: planMedia(images, deps.publicUrl),
      };
    });
  }

  async function view(row: PageRow): Promise<ProductPageView> {
    return (await views([row]))[0];
  }

  async function ownRow(userId: string, id: number): Promise<PageRow> {
    const row = await db.productPage.findFirst({ where: { id, userId }, select: pageSelect });
    if (!row) throw new AppError(404, "No such product page.");
    return row;
  }

  /** The user's product pages, newest first. */
  async function list(userId: string, take = 100): Promise<ProductPageView[]> {
    const rows = await db.productPage.findMany({
      where: { userId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take,
      select: pageSelect,
    });
    return views(rows);
  }

  async function get(userId: string, id: number): Promise<ProductPageView> {
    return view(await ownRow(userId, id));
  }

  /** The user's connected stores, to choose where a page goes. */
  async function listStores(userId: string): Promise<StoreSummary[]> {
    const stores = await db.shopifyStore.findMany({
      where: { userId, connected: true },
      orderBy: { linkedAt: "asc" },
      select: { id: true, shop: true, store_name: true },
    });
    return stores.map((s) => ({ id: s.id, shop: s.shop, storeName: s.store_name }));
  }

  // ---- writing ----------------------------------------------------------------------------------

  function factsOf(p: ProductRow): ProductFacts {
    return {
      title: p.title,
      description: p.description,
      niches: parseStringList(p.niches),
      tags: parseStringList(p.tags),
      reasons: parseStringList(p.reasons),
    };
  }

  /** Copy from the writer plus a suggested price, checked like an edit. */
  async function compose(product: ProductRow, userId: string): Promise<PageContent> {
    let copy;
    try {
      const voice = (await deps.voiceFor?.(userId)) ?? null;
      copy = await deps.ai.writeProductPage({ ...factsOf(product), voice });
    } catch (error) {
      if (error instanceof AiTextError)
        throw new AppError(502, `The ${deps.ai.writer} could not write this page: ${error.message}`, {
          code: error.code,
        });
      throw error;
    }
    // Without a known cost there is no margin to price from: start at the price the product sells for,
    // checked only against what we know it costs (its shipping). The seller edits it (docs/decisions/026).
    const price =
      product.costCents === null
        ? { priceCents: product.priceCents, landedCostCents: product.shippingCents }
        : suggestPrice({ costCents: product.costCents, shippingCents: product.shippingCents });
    const checked = validatePage(
      { ...copy, priceCents: price.priceCents, compareAtPriceCents: null },
      price.landedCostCents,
    );
    if (!checked.ok) {
      throw new AppError(
        502,
        `The ${deps.ai.writer} wrote a page that does not pass our checks: ${Object.values(checked.errors).join(" ")}`,
      );
    }
    return checked.page;
  }

  async function insertPage(
    userId: string,
    objectID: string,
    page: PageContent,
    extra: { status: ProductPageStatus; storeId?: number; creditLedgerId?: number },
  ) {
    return db.productPage.create({
      data: {
        userId,
        objectID,
        status: extra.status,
        storeId: extra.storeId ?? null,
        creditLedgerId: extra.creditLedgerId ?? null,
        title: page.title,
        ...storedDescription(page),
        bullets: JSON.stringify(page.bullets),
        seoTitle: page.seoTitle,
        seoDescription: page.seoDescription,
        priceCents: page.priceCents,
        compareAtPriceCents: page.compareAtPriceCents,
        writer: deps.ai.writer,
      },
      select: pageSelect,
    });
  }

  /**
   * Generates a draft page for a research product. Costs one "product-pages" credit (402 with the
   * upsell when short), given back if the writer fails.
   */
  async function generate(input: { userId: string; objectID: string }): Promise<ProductPageView> {
    const product = await loadProduct(input.objectID);
    // A short balance throws credits.spend's 402 { upsell, feature, cost, remaining } as it is.
    const spent = await credits.spend(db, {
      userId: input.userId,
      feature: GENERATE_FEATURE,
      idempotencyKey: `product-page:${input.userId}:${randomUUID()}`,
      reason: `product page for ${input.objectID}`,
    });
    try {
      const page = await compose(product, input.userId);
      return view(await insertPage(input.userId, input.objectID, page, { status: "draft" }));
    } catch (error) {
      await credits.refund(db, {
        userId: input.userId,
        ledgerId: spent.ledgerId,
        reason: "product page could not be written",
      });
      throw error;
    }
  }

  /**
   * The merchant's edit: any subset of the fields, validated as a whole (lengths, whole cents, price
   * above cost + shipping, compare-at above price). The description comes as Markdown
   * (descriptionMarkdown) or as HTML (descriptionHtml, sanitised and converted to Markdown), not both; a
   * page still holding an older HTML description is stored as Markdown from its next save. An edited
   * pushed page becomes a draft again; its Shopify product is updated by the next push to the same
   * store. 422 with per-field errors.
   */
  async function update(userId: string, id: number, patch: Partial<PageContent>): Promise<ProductPageView> {
    const row = await ownRow(userId, id);
    if (row.status === "pushing")
      throw new AppError(409, "This page is being pushed; edit it when that is done.");
    const product = await db.product.findUnique({
      where: { objectID: row.objectID },
      select: { costCents: true, shippingCents: true },
    });
    // The part of the landed cost we know (shipping alone when the supplier cost is unknown).
    const landed = product ? (product.costCents ?? 0) + product.shippingCents : 0;
    if (patch.descriptionMarkdown !== undefined && patch.descriptionHtml !== undefined)
      throw new AppError(400, "Send the description once: as descriptionMarkdown or as descriptionHtml, not both.");
    const merged: PageContent = {
      title: patch.title ?? row.title,
      descriptionHtml: patch.descriptionHtml ?? row.descriptionHtml,
      descriptionMarkdown:
        patch.descriptionMarkdown ??
        (patch.descriptionHtml === undefined ? (row.descriptionMarkdown ?? undefined) : undefined),
      bullets: patch.bullets ?? parseStringList(row.bullets),
      seoTitle: patch.seoTitle ?? row.seoTitle,
      seoDescription: patch.seoDescription ?? row.seoDescription,
      priceCents: patch.priceCents ?? row.priceCents,
      compareAtPriceCents:
        patch.compareAtPriceCents !== undefined ? patch.compareAtPriceCents : row.compareAtPriceCents,
    };
    const checked = validatePage(merged, landed);
    if (!checked.ok)
      throw new AppError(422, "Some fields need attention.", {
        fieldErrors: checked.errors satisfies PageErrors,
      });
    const p = checked.page;
    const { count } = await db.productPage.updateMany({
      where: { id, userId, status: { not: "pushing" } },
      data: {
        title: p.title,
        ...storedDescription(p),
        bullets: JSON.stringify(p.bullets),
        seoTitle: p.seoTitle,
        seoDescription: p.seoDescription,
        priceCents: p.priceCents,
        compareAtPriceCents: p.compareAtPriceCents,
        status: "draft",
        error: null,
      },
    });
    if (count === 0) throw new AppError(409, "This page is being pushed; edit it when that is done.");
    return get(userId, id);
  }

  /** Removes the page from the list (the product already in Shopify stays there). */
  async function remove(userId: string, id: number): Promise<{ deleted: true }> {
    await ownRow(userId, id);
    const { count } = await db.productPage.deleteMany({ where: { id, userId, status: { not: "pushing" } } });
    if (count === 0) throw new AppError(409, "This page is being pushed; delete it when that is done.");
    return { deleted: true };
  }

  // ---- pushing ----------------------------------------------------------------------------------

  /** Marks the page "pushing" unless another push holds it (one that is stale does not). */
  async function claim(userId: string, id: number, storeId: number): Promise<void> {
    const staleBefore = new Date(Date.now() - stalePushMs);
    const { count } = await db.productPage.updateMany({
      where: { id, userId, OR: [{ status: { not: "pushing" } }, { updatedAt: { lt: staleBefore } }] },
      data: { status: "pushing", storeId, error: null },
    });
    if (count === 0) throw new AppError(409, "This page is already being pushed.");
  }

  function productSetInput(row: PageRow, media: MediaPlan, shopifyStatus: "DRAFT" | "ACTIVE"): ProductSetInput {
    const bullets = parseStringList(row.bullets);
    return {
      title: row.title,
      // Rendered from the Markdown by the safe renderer every time (an older HTML description is converted).
      descriptionHtml: composeProductBodyHtml(markdownOf(row), bullets),
      status: shopifyStatus,
      seo: { title: row.seoTitle, description: row.seoDescription },
      // One variant: Shopify's default option, as the admin creates for a product without options.
      productOptions: [{ name: "Title", position: 1, values: [{ name: "Default Title" }] }],
      variants: [
        {
          optionValues: [{ optionName: "Title", name: "Default Title" }],
          price: centsToDecimal(row.priceCents),
          compareAtPrice: row.compareAtPriceCents !== null ? centsToDecimal(row.compareAtPriceCents) : null,
        },
      ],
      files: media.send.map((url) => ({ originalSource: url, alt: row.title, contentType: "IMAGE" as const })),
    };
  }

  /** Sends a claimed page to Shopify and records the outcome on the row. */
  async function sendClaimed(
    row: PageRow,
    store: LinkedStore,
    storeAccess: StoreAccess,
    shopifyStatus: "DRAFT" | "ACTIVE",
  ): Promise<SendOutcome> {
    const product = await db.product.findUnique({ where: { objectID: row.objectID }, select: { images: true } });
    const media = planMedia(product ? parseStringList(product.images) : [], deps.publicUrl);
    // Update the product this page made in this store before; anywhere else, create one.
    const productId = row.storeId === store.id ? row.shopifyProductId : null;
    const admin = createShopifyAdmin({ ...deps.shopify, shop: storeAccess.shop, accessToken: storeAccess.accessToken });
    let failure: { status: 422 | 502; error: string } | null = null;
    let shopifyProductId: string | null = null;
    try {
      const result = await productSet(admin, productSetInput(row, media, shopifyStatus), productId);
      if (result.userErrors.length > 0 || !result.product) {
        const messages = result.userErrors.map((e) =>
          e.field?.length ? `${e.field.join(".")}: ${e.message}` : e.message,
        );
        failure = {
          status: 422,
          error: `Shopify refused the product: ${messages.join("; ") || "no product was returned"}`,
        };
      } else {
        shopifyProductId = result.product.id;
      }
    } catch (error) {
      if (!(error instanceof ShopifyAdminError)) {
        await db.productPage.updateMany({
          where: { id: row.id, userId: row.userId },
          data: { status: "failed", error: "Unexpected error while pushing." },
        });
        throw error;
      }
      // A network failure's own text ("fetch failed", "ECONNRESET") is for the log; the seller reads a sentence.
      failure = {
        status: 502,
        error:
          error.code === "network"
            ? "Shopify could not be reached from our server just now. Try the push again in a few minutes."
            : error.message,
      };
      if (error.code === "network") log.warn({ shop: store.shop, detail: error.message }, "Shopify unreachable");
    }
    if (failure) {
      log.warn(
        { userId: row.userId, pageId: row.id, shop: store.shop, status: failure.status, error: failure.error },
        "push failed",
      );
      await db.productPage.updateMany({
        where: { id: row.id, userId: row.userId },
        data: { status: "failed", error: failure.error },
      });
      return { ok: false, ...failure, page: await get(row.userId, row.id), media };
    }
    await db.productPage.updateMany({
      where: { id: row.id, userId: row.userId },
      data: { status: "pushed", shopifyProductId, storeId: store.id, error: null, pushedAt: new Date() },
    });
    log.info({ userId: row.userId, pageId: row.id, shop: store.shop, shopifyProductId }, "page pushed");
    return { ok: true, page: await get(row.userId, row.id), media };
  }

  /** Pushes a page to one of the user's connected stores, as a draft product unless asked otherwise. */
  async function push(input: {
    userId: string;
    id: number;
    shop: string;
    shopifyStatus?: "DRAFT" | "ACTIVE";
  }): Promise<Pushed> {
    const row = await ownRow(input.userId, input.id);
    const store = await loadStore(input.userId, input.shop);
    const storeAccess = await access(store);
    await claim(input.userId, row.id, store.id);
    const outcome = await sendClaimed(row, store, storeAccess, input.shopifyStatus ?? "DRAFT");
    if (!outcome.ok) throw new AppError(outcome.status, outcome.error, { page: outcome.page, media: outcome.media });
    return { page: outcome.page, media: outcome.media };
  }

  /**
   * Automatic mode: generate a page and push it to the store in one step. This is the only place it
   * is charged: 4 credits through credits.spend (feature automatic-mode, one idempotency key per
   * request), given back through credits.refund when writing or pushing fails. A short balance
   * answers 402 with the upsell before anything is written or sent. The same request key again
   * returns the page the first request made, charged once.
   */
  async function runAutomaticMode(input: {
    userId: string;
    objectID: string;
    shop: string;
    requestKey: string;
    shopifyStatus?: "DRAFT" | "ACTIVE";
  }): Promise<AutomaticResult> {
    // Everything that can be refused without Shopify is checked before any credit moves.
    const product = await loadProduct(input.objectID);
    const store = await loadStore(input.userId, input.shop);
    const storeAccess = await access(store);

    // A short balance throws credits.spend's 402 { upsell, feature, cost, remaining } as it is.
    let spent: credits.Spent;
    try {
      spent = await credits.spend(db, {
        userId: input.userId,
        feature: AUTOMATIC_MODE_FEATURE,
        idempotencyKey: `automatic-mode:${input.userId}:${input.requestKey}`,
        reason: `automatic mode: ${input.objectID} to ${input.shop}`,
      });
    } catch (error) {
      if (error instanceof AppError && error.status === 409)
        throw automaticFailure(409, error.message, { page: null, refunded: false, remaining: null });
      throw error;
    }
    if (spent.replayed) {
      const existing = await db.productPage.findFirst({
        where: { userId: input.userId, creditLedgerId: spent.ledgerId },
        select: pageSelect,
      });
      const stillRunning = "This request is still running. Wait a moment and reload your product pages.";
      if (!existing) throw automaticFailure(409, stillRunning, { page: null, refunded: false, remaining: spent.remaining });
      const page = await view(existing);
      if (existing.status === "pushed") return { page, cost: spent.cost, remaining: spent.remaining, replayed: true };
      if (existing.status === "pushing")
        throw automaticFailure(409, stillRunning, { page, refunded: false, remaining: spent.remaining });
      const balance = await credits.getBalance(db, input.userId, AUTOMATIC_MODE_FEATURE);
      throw automaticFailure(409, existing.error ?? "This request already ran.", {
        page,
        refunded: existing.status === "failed",
        remaining: balance,
      });
    }

    const refund = async (reason: string) => {
      const r = await credits.refund(db, { userId: input.userId, ledgerId: spent.ledgerId, reason });
      return r.refunded ? r.remaining : await credits.getBalance(db, input.userId, AUTOMATIC_MODE_FEATURE);
    };

    let row: PageRow;
    try {
      const content = await compose(product, input.userId);
      // Born "pushing": nobody else can touch it until the push below settles it.
      row = await insertPage(input.userId, input.objectID, content, {
        status: "pushing",
        storeId: store.id,
        creditLedgerId: spent.ledgerId,
      });
    } catch (error) {
      const remaining = await refund("automatic mode: the page could not be written");
      if (error instanceof AppError) throw automaticFailure(error.status, error.message, { page: null, refunded: true, remaining });
      throw error;
    }

    let outcome: SendOutcome;
    try {
      outcome = await sendClaimed(row, store, storeAccess, input.shopifyStatus ?? "DRAFT");
    } catch (error) {
      await refund("automatic mode: the push failed");
      throw error;
    }
    if (!outcome.ok) {
      const remaining = await refund(`automatic mode: the push failed (${outcome.error})`.slice(0, 300));
      throw automaticFailure(outcome.status, outcome.error, { page: outcome.page, refunded: true, remaining });
    }
    return { page: outcome.page, cost: spent.cost, remaining: spent.remaining, replayed: false };
  }

  return { list, get, listStores, generate, update, remove, push, runAutomaticMode, writer: deps.ai.writer };
}

export type ProductPages = ReturnType<typeof createProductPages>;

/**
 * A resolver from a token source (in the app: the library's refreshed offline session, then the
 * store row's sealed copy through shopify-stores.getStoreAccessToken). No token means the store must
 * be reconnected.
 */
export function storeAccessFrom(getToken: (store: LinkedStore) => Promise<string | null>): StoreAccessResolver {
  return async (store) => {
    const accessToken = await getToken(store);
    if (!accessToken) {
      throw new AppError(
        409,
        `${store.shop} has no access token on file: reconnect the store to push products.`,
      );
    }
    return { shop: store.shop, accessToken };
  };
}
