// Writing product pages: generating one for a research product with the AI text adapter (one "product-pages"
// credit, given back when the writer fails), the merchant's edits (validated as a whole; the description kept
// as Markdown, docs/decisions/029), and removing a page from the list. A page being pushed is not touched.
import { randomUUID } from "node:crypto";
import { parseStringList, type Db } from "~/db.server";
import { AppError } from "~/domain/errors";
import {
  composeProductBodyHtml,
  descriptionHtmlToMarkdown,
  suggestPrice,
  validatePage,
  type PageContent,
  type PageErrors,
  type ProductPageStatus,
} from "~/domain/product-pages/product-page";
import { FEE_PRESETS } from "~/domain/landed-cost/landed-cost";
import { AiTextError, type AiText, type ProductFacts } from "~/integrations/ai-text.server";
import * as credits from "~/services/billing/credits.server";
import { landedFigures } from "~/services/landed-cost.server";
import { getPage, loadProduct, ownRow, pageSelect, view, type ProductPageView, type ProductRow, type ViewsDeps } from "~/services/product-pages/views.server";

export const GENERATE_FEATURE = "product-pages";

export interface WritingDeps extends ViewsDeps {
  ai: AiText;
  /** The user's default brand kit's voice (tone, name, tagline) for the writer (decision 033); none by default. */
  voiceFor?: (userId: string) => Promise<ProductFacts["voice"]>;
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
export async function compose(deps: WritingDeps, product: ProductRow, userId: string): Promise<PageContent> {
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
  // With a cost, the price leaves the target margin after duty (this seller's code and origin, today's layers) and
  // Shopify Payments' fees (issue 24). The code is the one the product page shows: the seller's, else the title's
  // guess (decision 092). A code with no MFN rate loaded prices without duty, as before.
  const landed =
    product.costCents === null ? undefined : (await landedFigures(deps.db, { userId, products: [product], codeFrom: "title" })).get(product.objectID);
  const price =
    product.costCents === null
      ? { priceCents: product.priceCents, landedCostCents: product.shippingCents }
      : suggestPrice({ costCents: product.costCents, shippingCents: product.shippingCents, dutyCents: landed?.duty.dutyCents ?? 0, fees: { rateBp: FEE_PRESETS["shopify-payments"].rateBp, fixedCents: FEE_PRESETS["shopify-payments"].fixedCents } });
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

export async function insertPage(
  deps: WritingDeps,
  userId: string,
  objectID: string,
  page: PageContent,
  extra: { status: ProductPageStatus; storeId?: number; creditLedgerId?: number },
) {
  return deps.db.productPage.create({
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
export async function generate(deps: WritingDeps, input: { userId: string; objectID: string }): Promise<ProductPageView> {
  const { db } = deps;
  const product = await loadProduct(db, input.objectID);
  // A short balance throws credits.spend's 402 { upsell, feature, cost, remaining } as it is.
  const spent = await credits.spend(db, {
    userId: input.userId,
    feature: GENERATE_FEATURE,
    idempotencyKey: `product-page:${input.userId}:${randomUUID()}`,
    reason: `product page for ${input.objectID}`,
  });
  try {
    const page = await compose(deps, product, input.userId);
    return view(deps, await insertPage(deps, input.userId, input.objectID, page, { status: "draft" }));
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
export async function update(deps: ViewsDeps, userId: string, id: number, patch: Partial<PageContent>): Promise<ProductPageView> {
  const { db } = deps;
  const row = await ownRow(db, userId, id);
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
  return getPage(deps, userId, id);
}

/** Removes the page from the list (the product already in Shopify stays there). */
export async function remove(db: Db, userId: string, id: number): Promise<{ deleted: true }> {
  await ownRow(db, userId, id);
  const { count } = await db.productPage.deleteMany({ where: { id, userId, status: { not: "pushing" } } });
  if (count === 0) throw new AppError(409, "This page is being pushed; delete it when that is done.");
  return { deleted: true };
}
