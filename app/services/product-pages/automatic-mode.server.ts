// Automatic mode (seed automatic-mode): generate a page and push it to a connected store in one step. The only
// place it is charged: 4 credits through credits.spend (feature automatic-mode, one idempotency key per
// request), given back through credits.refund when writing or pushing fails. The same request key again
// answers with the page the first request made, charged once.
import { AppError, type AppErrorStatus } from "~/domain/errors";
import * as credits from "~/services/billing/credits.server";
import { sendClaimed, type PushDeps, type SendOutcome } from "~/services/product-pages/push.server";
import { accessTo, loadStore } from "~/services/product-pages/stores.server";
import { loadProduct, pageSelect, view, type PageRow, type ProductPageView } from "~/services/product-pages/views.server";
import { compose, insertPage, type WritingDeps } from "~/services/product-pages/writing.server";

export const AUTOMATIC_MODE_FEATURE = "automatic-mode";

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

/**
 * Automatic mode: generate a page and push it to the store in one step. This is the only place it
 * is charged: 4 credits through credits.spend (feature automatic-mode, one idempotency key per
 * request), given back through credits.refund when writing or pushing fails. A short balance
 * answers 402 with the upsell before anything is written or sent. The same request key again
 * returns the page the first request made, charged once.
 */
export async function runAutomaticMode(
  deps: WritingDeps & PushDeps,
  input: {
    userId: string;
    objectID: string;
    shop: string;
    requestKey: string;
    shopifyStatus?: "DRAFT" | "ACTIVE";
  },
): Promise<AutomaticResult> {
  const { db } = deps;
  // Everything that can be refused without Shopify is checked before any credit moves.
  const product = await loadProduct(db, input.objectID);
  const store = await loadStore(db, input.userId, input.shop);
  const storeAccess = await accessTo(deps.resolveStoreAccess, store);

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
    const page = await view(deps, existing);
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
    const content = await compose(deps, product, input.userId);
    // Born "pushing": nobody else can touch it until the push below settles it.
    row = await insertPage(deps, input.userId, input.objectID, content, {
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
    outcome = await sendClaimed(deps, row, store, storeAccess, input.shopifyStatus ?? "DRAFT");
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
