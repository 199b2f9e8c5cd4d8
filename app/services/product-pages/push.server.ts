// Pushing a product page to one of the user's connected Shopify stores as a product (productSet, a draft unless
// asked otherwise). A push claims the page ("pushing") so two cannot run at once; one left pushing longer than
// stalePushMs (a crashed process) may be claimed again. The product this page made in a store before is
// updated; anywhere else one is created. Shopify's refusal (422) or failure (502) is recorded on the page.
import { parseStringList } from "~/db.server";
import { AppError } from "~/domain/errors";
import { centsToDecimal, composeProductBodyHtml, planMedia, type MediaPlan } from "~/domain/product-pages/product-page";
import { ShopifyAdminError, type ProductSetInput, type ShopifyProductWriter } from "~/integrations/shopify-admin.server";
import { childLogger } from "~/logger.server";
import { accessTo, loadStore, type LinkedStore, type StoreAccess, type StoreAccessResolver } from "~/services/product-pages/stores.server";
import { getPage, markdownOf, ownRow, type PageRow, type ProductPageView, type ViewsDeps } from "~/services/product-pages/views.server";

const log = childLogger("product-pages");

export interface PushDeps extends ViewsDeps {
  resolveStoreAccess: StoreAccessResolver;
  /** Writes the product into a store with that store's token (the Shopify Admin adapter's shopifyProductWriter). */
  writeProduct: ShopifyProductWriter;
  /** A page left "pushing" longer than this (a crashed process) may be pushed again. */
  stalePushMs: number;
}

/** A pushed page. A push Shopify refused (422) or failed (502) throws AppError with { page, media }. */
export type Pushed = { page: ProductPageView; media: MediaPlan };

/** How one send to Shopify ended; push and automatic mode turn a failure into their AppError. */
export type SendOutcome =
  | { ok: true; page: ProductPageView; media: MediaPlan }
  | { ok: false; status: 422 | 502; error: string; page: ProductPageView; media: MediaPlan };

/** Marks the page "pushing" unless another push holds it (one that is stale does not). */
async function claim(deps: PushDeps, userId: string, id: number, storeId: number): Promise<void> {
  const staleBefore = new Date(Date.now() - deps.stalePushMs);
  const { count } = await deps.db.productPage.updateMany({
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
export async function sendClaimed(
  deps: PushDeps,
  row: PageRow,
  store: LinkedStore,
  storeAccess: StoreAccess,
  shopifyStatus: "DRAFT" | "ACTIVE",
): Promise<SendOutcome> {
  const { db } = deps;
  const product = await db.product.findUnique({ where: { objectID: row.objectID }, select: { images: true } });
  const media = planMedia(product ? parseStringList(product.images) : [], deps.publicUrl);
  // Update the product this page made in this store before; anywhere else, create one.
  const productId = row.storeId === store.id ? row.shopifyProductId : null;
  let failure: { status: 422 | 502; error: string } | null = null;
  let shopifyProductId: string | null = null;
  try {
    const result = await deps.writeProduct(storeAccess, productSetInput(row, media, shopifyStatus), productId);
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
    return { ok: false, ...failure, page: await getPage(deps, row.userId, row.id), media };
  }
  await db.productPage.updateMany({
    where: { id: row.id, userId: row.userId },
    data: { status: "pushed", shopifyProductId, storeId: store.id, error: null, pushedAt: new Date() },
  });
  log.info({ userId: row.userId, pageId: row.id, shop: store.shop, shopifyProductId }, "page pushed");
  return { ok: true, page: await getPage(deps, row.userId, row.id), media };
}

/** Pushes a page to one of the user's connected stores, as a draft product unless asked otherwise. */
export async function push(
  deps: PushDeps,
  input: {
    userId: string;
    id: number;
    shop: string;
    shopifyStatus?: "DRAFT" | "ACTIVE";
  },
): Promise<Pushed> {
  const row = await ownRow(deps.db, input.userId, input.id);
  const store = await loadStore(deps.db, input.userId, input.shop);
  const storeAccess = await accessTo(deps.resolveStoreAccess, store);
  await claim(deps, input.userId, row.id, store.id);
  const outcome = await sendClaimed(deps, row, store, storeAccess, input.shopifyStatus ?? "DRAFT");
  if (!outcome.ok) throw new AppError(outcome.status, outcome.error, { page: outcome.page, media: outcome.media });
  return { page: outcome.page, media: outcome.media };
}
