// The Product pages page's loader and action (the list, the editor: save, push, delete), shared by the
// site (/dashboard/product-pages) and the embedded app (/app/product-pages). Each surface's route
// authenticates its own way and hands the user over; from there both run exactly this. The rules are
// the product pages service's (docs/decisions/015); pages are created from a product through the JSON
// API (app/ui/product-pages/product-page-actions.tsx).
import { expectedFailure } from "~/pages/http/form-errors.server";
import { data } from "@remix-run/node";
import { z } from "zod";
import { MyshopifyDomainSchema } from "~/domain/shopify/install";
import { parseDollarsToCents, type MediaPlan, type PageErrors, type PageField } from "~/domain/product-pages/product-page";
import { readForm } from "~/pages/http/http.server";
import { shopifyInstallView } from "~/pages/shopify/install.server";
import type { User } from "~/services/accounts/auth.server";
import { credits, productPages } from "~/services/index.server";

export async function loadProductPagesPage(user: User) {
  const [pages, stores, generateCredits, automaticCredits] = await Promise.all([
    productPages.list(user.id),
    productPages.listStores(user.id),
    credits.getBalance(user.id, "product-pages"),
    credits.getBalance(user.id, "automatic-mode"),
  ]);
  return {
    pages,
    stores,
    writer: productPages.writer,
    balances: { generate: generateCredits, automatic: automaticCredits },
    /** Without a connected store, the push panel offers the way to connect one. */
    install: shopifyInstallView(),
  };
}

/** What one of the editor's forms gets back; each form (save, push, delete) shows its own. */
export interface ProductPagesActionResult {
  ok: boolean;
  message: string;
  /** Save: the message of each field that needs attention. */
  fieldErrors: PageErrors;
  /** Push: the images Shopify was not sent, with the reason. */
  skippedImages: string[];
}

/** The editor's labels, so a message names the fields as the merchant sees them. */
const FIELD_LABELS: Record<PageField, string> = {
  title: "Title",
  descriptionHtml: "Description",
  descriptionMarkdown: "Description",
  bullets: "Benefits",
  seoTitle: "SEO title",
  seoDescription: "SEO description",
  priceCents: "Price",
  compareAtPriceCents: "Compare-at price",
};

const PageId = z.coerce.number().int().positive().max(2_147_483_647);

const PageForm = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("update"),
      title: z.string().max(1000),
      // The editor sends Markdown; descriptionHtml (HTML, converted to Markdown) is still taken from older pages.
      descriptionMarkdown: z.string().max(100_000).optional(),
      descriptionHtml: z.string().max(100_000).optional(),
      bullets: z.string().max(50_000),
      seoTitle: z.string().max(1000),
      seoDescription: z.string().max(1000),
      price: z.string().max(100),
      compareAt: z.string().max(100).default(""),
    }),
    z.object({
      intent: z.literal("push"),
      shop: MyshopifyDomainSchema,
      publish: z.literal("on").optional(),
    }),
    z.object({ intent: z.literal("delete") }),
  ],
  { error: "intent must be update, push or delete." },
);

function result(status: number, ok: boolean, message: string, extra: Partial<ProductPagesActionResult> = {}) {
  return data<ProductPagesActionResult>({ ok, message, fieldErrors: {}, skippedImages: [], ...extra }, { status });
}

function needsAttention(fieldErrors: PageErrors) {
  const labels = (Object.keys(fieldErrors) as PageField[]).map((f) => FIELD_LABELS[f]);
  return result(422, false, `Some fields need attention: ${labels.join(", ")}.`, { fieldErrors });
}

/** Save the edited page, push it to one of the user's stores, or delete it from the list. */
export async function productPagesPageAction(request: Request, user: User) {
  const raw = Object.fromEntries(await readForm(request));
  // A malformed id names no page of anyone's.
  const id = PageId.safeParse(raw.id);
  if (!id.success) return result(404, false, "No such product page.");
  const form = PageForm.safeParse(raw);
  if (!form.success) {
    const issue = form.error.issues[0];
    const field = String(issue?.path[0] ?? "intent");
    return result(
      400,
      false,
      field === "intent" ? (issue?.message ?? "Unknown action.") : `${field}: ${issue?.message}`,
    );
  }
  const input = form.data;
  try {
    if (input.intent === "update") {
      const price = parseDollarsToCents(input.price);
      const compareAtText = input.compareAt.trim();
      const compareAt = compareAtText === "" ? null : parseDollarsToCents(compareAtText);
      const fieldErrors: PageErrors = {};
      if (price === null) fieldErrors.priceCents = "Enter a price like 24.99.";
      if (compareAtText !== "" && compareAt === null)
        fieldErrors.compareAtPriceCents = "Enter a price like 39.99, or leave it empty.";
      if (price === null || Object.keys(fieldErrors).length > 0) return needsAttention(fieldErrors);
      if (input.descriptionMarkdown === undefined && input.descriptionHtml === undefined)
        return needsAttention({ descriptionMarkdown: "Write a description." });
      await productPages.update(user.id, id.data, {
        title: input.title,
        ...(input.descriptionMarkdown !== undefined
          ? { descriptionMarkdown: input.descriptionMarkdown }
          : { descriptionHtml: input.descriptionHtml }),
        bullets: input.bullets.split("\n"),
        seoTitle: input.seoTitle,
        seoDescription: input.seoDescription,
        priceCents: price,
        compareAtPriceCents: compareAt,
      });
      return result(200, true, "Saved.");
    }
    if (input.intent === "push") {
      const outcome = await productPages.push({
        userId: user.id,
        id: id.data,
        shop: input.shop,
        shopifyStatus: input.publish === "on" ? "ACTIVE" : "DRAFT",
      });
      const skippedImages = skippedOf(outcome.media);
      return result(200, true, `Pushed to ${outcome.page.store?.storeName ?? "your store"}.`, { skippedImages });
    }
    await productPages.remove(user.id, id.data);
    return result(200, true, "Deleted from your list. The product in Shopify, if any, stays there.");
  } catch (error) {
    const failure = expectedFailure(error);
    const fieldErrors = failure.details.fieldErrors as PageErrors | undefined;
    if (fieldErrors && Object.keys(fieldErrors).length > 0) return needsAttention(fieldErrors);
    // A push Shopify refused or failed names the images it would have sent and skipped.
    const media = failure.details.media as MediaPlan | undefined;
    return result(failure.status, false, failure.message, media ? { skippedImages: skippedOf(media) } : {});
  }
}

function skippedOf(media: MediaPlan): string[] {
  return media.skipped.map((s) => `${s.image}: ${s.reason}`);
}
