// The loaders and actions of the research pages (the product grid, one product, Saved), shared by the
// site (/dashboard/...) and the embedded app (/app/...). Each surface's route authenticates its own way
// (site cookie or Shopify session token + shop link) and hands the user over; from there both surfaces
// run exactly this. What a user may see is researchAccess's call, what happens is the products service's.
import { data, redirect } from "@remix-run/node";
import { z } from "zod";
import { GRID_PAGE_PARAMS, parseProductQuery, QueryError } from "~/domain/products/product-query";
import { researchAccess } from "~/domain/products/research-access";
import { withoutShopifyAdminParams } from "~/domain/shopify/admin-params";
import { AppError } from "~/domain/errors";
import { cataloguePendingSentence } from "~/domain/catalogue/pending-sentence";
import type { Surface } from "~/domain/shopify/embedded-paths";
import { expectedFailure } from "~/pages/http/form-errors.server";
import { exportLinks, gridSearchParams } from "~/pages/research/export.server";
import { readForm } from "~/pages/http/http.server";
import type { User } from "~/services/accounts/auth.server";
import { catalogue, landedCost, products, savedSearchAlerts, tiktoks } from "~/services/index.server";
import type { searchProducts } from "~/services/products.server";

// ---------- the product grid ----------
// Every bit of state is in the URL (text, filters, sort, page, the shuffle seed and an opened saved
// search), so a search can be shared and the back button works. An invalid parameter is named in the
// answer (status 400); the page still renders.
//
// Page-only parameters, removed before the search sees the URL:
// - savedSearch={id}: opened from Saved. The first load records the visit and redirects with
//   newSince={previous visit}, so products first seen after it stay marked "New" on every page of the
//   search and on reload, while the next opening compares against this visit.
// - sort=random without seed: the visitor's seed (a session cookie) is put in the URL by a redirect.
// - Shopify admin's parameters (shop, host, id_token...) on the embedded page's first load.

const SEED_COOKIE = "wp_shuffle_seed";

function seedFromCookie(request: Request): number | null {
  const match = new RegExp(`(?:^|;\\s*)${SEED_COOKIE}=(\\d{1,10})(?:;|$)`).exec(request.headers.get("cookie") ?? "");
  const seed = match ? Number(match[1]) : NaN;
  return Number.isInteger(seed) && seed >= 0 && seed < 2 ** 31 ? seed : null;
}

function seedCookie(seed: number, request: Request): string {
  const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
  // A session cookie: the shuffle stays the same while the visitor's browser session lasts.
  return `${SEED_COOKIE}=${seed}; Path=/; HttpOnly; SameSite=Lax${secure}`;
}

const SavedSearchId = z.coerce.number().int().positive().max(2 ** 31 - 1);
const GONE_SEARCH = "That saved search no longer exists. These are the products its link searched for.";

/** What callers of a search see (GET /api/products, the product grids): the page, not the plan. */
export function searchResultPage(result: Awaited<ReturnType<typeof searchProducts>>) {
  return {
    items: result.items,
    total: result.total,
    totalIsEstimate: result.totalIsEstimate,
    page: result.page,
    pageSize: result.pageSize,
    hasMore: result.hasMore,
    /** "Showing results for {correctedQuery}" (the built-in engine's spelling correction); null when none. */
    correctedQuery: result.correctedQuery,
    originalQuery: result.originalQuery,
    /** Few products match every word of the text: those matching most of it follow them. */
    matchedSomeWords: result.matchedSomeWords,
  };
}

export async function loadProductGrid(request: Request, user: User, surface: Surface = "site") {
  const url = new URL(request.url);
  // Shopify admin's own parameters stay in the URL for redirects (the library reads them) but are not searched.
  const params = withoutShopifyAdminParams(url.searchParams);

  if (params.get("sort") === "random" && !params.has("seed")) {
    const seed = seedFromCookie(request) ?? Math.floor(Math.random() * 2 ** 31);
    url.searchParams.set("seed", String(seed));
    throw redirect(`${url.pathname}${url.search}`, { headers: { "Set-Cookie": seedCookie(seed, request) } });
  }

  let savedSearch: { id: number; name: string; newSince: string } | null = null;
  let notice: string | null = null;
  let newSince: Date | undefined;
  const savedSearchParam = params.get("savedSearch");
  if (savedSearchParam !== null) {
    const id = SavedSearchId.safeParse(savedSearchParam);
    const since = params.get("newSince");
    if (!id.success) {
      notice = "That saved search link is not valid.";
    } else if (since === null) {
      const visit = await products.visitSavedSearch(user.id, id.data);
      if (visit) {
        url.searchParams.set("newSince", visit.newSince.toISOString());
        throw redirect(`${url.pathname}${url.search}`);
      }
      notice = GONE_SEARCH;
    } else {
      const sinceDate = new Date(since);
      const row = (await products.listSavedSearches(user.id)).find((s) => s.id === id.data);
      if (Number.isNaN(sinceDate.getTime())) notice = "That saved search link is not valid.";
      else if (!row) notice = GONE_SEARCH;
      else {
        newSince = sinceDate;
        savedSearch = { id: row.id, name: row.name, newSince: sinceDate.toISOString() };
      }
    }
  }
  for (const key of GRID_PAGE_PARAMS) params.delete(key);

  const access = researchAccess(user);
  // The download buttons export every result of this search (decision 057).
  const exports = access.insights ? exportLinks(surface, user.id, "/api/products/export", gridSearchParams(url)) : null;
  const page = { niches: await products.niches(), access: { insights: access.insights, lockedReason: access.lockedReason }, savedSearch, notice, exportLinks: exports };
  try {
    const result = await products.search({ userId: user.id, access, query: parseProductQuery(params), newSince });
    const results = searchResultPage(result);
    // Margin after duty and fees per card (decision 052).
    const landedMargins = await landedCost.landedMargins({ userId: user.id, objectIDs: results.items.map((p) => p.objectID), access });
    // The measured view showing no or few products says what the catalogue is waiting for (issue 37, decision 091).
    const measuredPending =
      result.query.source === "measured" && results.page === 1 && !results.hasMore
        ? cataloguePendingSentence(await catalogue.pending(), new Date())
        : null;
    return {
      ...page,
      error: null,
      results: { ...results, sort: result.query.sort, landedMargins, measuredPending },
    };
  } catch (error) {
    if (error instanceof QueryError) {
      return data({ ...page, error: { param: error.param, message: error.message }, results: null }, { status: 400 });
    }
    throw error;
  }
}

const SaveSearchForm = z.object({
  intent: z.literal("save-search"),
  name: z.string().trim().min(1, "Give the search a name.").max(80, "Use at most 80 characters."),
  query: z.string().max(4000),
});

export type SaveSearchResult = { ok: true; message: string; id: number } | { ok: false; message: string };

/** "Save this search" on the grid. */
export async function saveSearchAction(request: Request, user: User) {
  return saveSearch(Object.fromEntries(await readForm(request)), user);
}

async function saveSearch(form: Record<string, unknown>, user: User) {
  const parsed = SaveSearchForm.safeParse(form);
  if (!parsed.success) {
    return data<SaveSearchResult>({ ok: false, message: parsed.error.issues[0]?.message ?? "Invalid form." }, { status: 400 });
  }
  const params = withoutShopifyAdminParams(new URLSearchParams(parsed.data.query.replace(/^\?/, "")));
  for (const key of GRID_PAGE_PARAMS) params.delete(key);
  try {
    const search = await products.saveSearch(user.id, { name: parsed.data.name, params });
    return data<SaveSearchResult>({ ok: true, message: `Saved “${search.name}”.`, id: search.id });
  } catch (error) {
    const failure = expectedFailure(error);
    return data<SaveSearchResult>({ ok: false, message: failure.message }, { status: failure.status });
  }
}

const GridSaveForm = z.object({
  intent: z.enum(["save", "unsave"]),
  objectID: z.string({ error: "objectID is missing." }).min(1, "objectID is missing.").max(120, "objectID is not valid."),
});

export type GridSaveResult = { ok: true; objectID: string; saved: boolean } | { ok: false; objectID: string | null; message: string };

/**
 * The grid's action: "Save this search" (intent save-search), or a card's Save button (intent save |
 * unsave with the product's objectID). Failures are answered, not thrown, so the grid stays on screen
 * and the card shows its state as it was.
 */
export async function productGridAction(request: Request, user: User) {
  const form = Object.fromEntries(await readForm(request));
  if (form.intent !== "save" && form.intent !== "unsave") return saveSearch(form, user);
  const parsed = GridSaveForm.safeParse(form);
  if (!parsed.success) {
    return data<GridSaveResult>({ ok: false, objectID: null, message: parsed.error.issues[0]?.message ?? "Invalid form." }, { status: 400 });
  }
  const { intent, objectID } = parsed.data;
  try {
    const result = await (intent === "save" ? products.saveProduct : products.unsaveProduct)(user.id, objectID);
    return data<GridSaveResult>({ ok: true, objectID, saved: result.saved });
  } catch (error) {
    const failure = expectedFailure(error);
    return data<GridSaveResult>({ ok: false, objectID, message: failure.message }, { status: failure.status });
  }
}

// ---------- one product ----------
// Everyone signed in sees the figures, score, stage and saturation; paid states also see the reasons,
// the trend chart, supplier and Amazon price and the profit calculator. Save and track are idempotent
// POSTs. An unknown objectID is a thrown 404, shown by the page's error boundary inside the surface.

const ObjectID = z.string().min(1).max(120);
export const PRODUCT_NOT_FOUND = "There is no product with that ID. It may have been removed from the database.";

function notFound(): Response {
  return new Response(PRODUCT_NOT_FOUND, { status: 404 });
}

/** The products service's 404 for an objectID that names no product. */
function isProductNotFound(error: unknown): error is AppError {
  return error instanceof AppError && error.status === 404;
}

function requireObjectID(raw: string | undefined): string {
  const objectID = ObjectID.safeParse(raw);
  if (!objectID.success) throw notFound();
  return objectID.data;
}

export async function loadProductDetail(objectIDParam: string | undefined, user: User) {
  const objectID = requireObjectID(objectIDParam);
  const access = researchAccess(user);
  try {
    const [product, seenOnTikTok] = await Promise.all([
      products.getProduct({ userId: user.id, objectID, access }),
      tiktoks.list(user.id, { objectID }),
    ]);
    // Duty layers, fees and reserves for the calculator (decision 052).
    const landed = await landedCost.landedCostView({ userId: user.id, objectID, access, costCents: product.insights?.costCents ?? null });
    return { product, seenOnTikTok, landed, access: { insights: access.insights, lockedReason: access.lockedReason } };
  } catch (error) {
    if (isProductNotFound(error)) throw notFound();
    throw error;
  }
}

const ProductIntent = z.object({
  intent: z.enum(["save", "unsave", "track", "untrack"], { error: "intent must be save, unsave, track or untrack." }),
});

/** Save / unsave / track / untrack one product. */
export async function productDetailAction(request: Request, objectIDParam: string | undefined, user: User) {
  const objectID = requireObjectID(objectIDParam);
  const form = ProductIntent.safeParse(Object.fromEntries(await readForm(request)));
  if (!form.success) return data({ ok: false as const, message: form.error.issues[0]?.message ?? "Unknown action." }, { status: 400 });
  const run = {
    save: products.saveProduct,
    unsave: products.unsaveProduct,
    track: products.trackProduct,
    untrack: products.untrackProduct,
  }[form.data.intent];
  try {
    return { ok: true as const, ...(await run(user.id, objectID)) };
  } catch (error) {
    if (isProductNotFound(error)) throw notFound();
    throw error;
  }
}

// ---------- Saved ----------
// Saved products, tracked products with the change since tracking, and saved searches. Removing goes
// through the page's action.

export async function loadSaved(user: User, surface: Surface = "site") {
  const access = researchAccess(user);
  const exports = access.insights
    ? { saved: exportLinks(surface, user.id, "/api/saved/export"), tracked: exportLinks(surface, user.id, "/api/tracked/export") }
    : null;
  const [saved, tracked, searches] = await Promise.all([
    products.listSaved(user.id, access),
    products.listTracked(user.id, access),
    products.listSavedSearches(user.id),
  ]);
  return { saved, tracked, searches, exportLinks: exports };
}

const SavedForm = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("unsave"), objectID: ObjectID }),
    z.object({ intent: z.literal("untrack"), objectID: ObjectID }),
    z.object({ intent: z.literal("delete-search"), id: z.coerce.number().int().positive() }),
  ],
  { error: "intent must be unsave, untrack or delete-search." },
);

const SearchAlertsForm = z.object({
  intent: z.literal("search-alerts"),
  id: z.coerce.number().int().positive().max(2 ** 31 - 1),
  alerts: z.enum(["on", "off"], { error: "alerts must be on or off." }),
});

/** Turns a saved search's new-product alerts on or off (docs/decisions/030). */
async function searchAlertsAction(fields: Record<string, FormDataEntryValue>, user: User) {
  const form = SearchAlertsForm.safeParse(fields);
  if (!form.success) {
    const issue = form.error.issues[0];
    return data({ ok: false, message: issue?.path[0] === "alerts" ? issue.message : `${String(issue?.path[0] ?? "id")} is not valid.` }, { status: 400 });
  }
  try {
    const { alerts } = await savedSearchAlerts.setAlerts(user.id, form.data.id, form.data.alerts === "on");
    return { ok: true, message: alerts ? "Alerts on: you will hear about new products, once a day at most." : "Alerts off for this search." };
  } catch (error) {
    const failure = expectedFailure(error);
    return data({ ok: false, message: failure.message }, { status: failure.status });
  }
}

/** Unsave, stop tracking, delete a saved search, or turn its alerts on or off. */
export async function savedAction(request: Request, user: User) {
  const fields = Object.fromEntries(await readForm(request));
  if (fields.intent === "search-alerts") return searchAlertsAction(fields, user);
  const form = SavedForm.safeParse(fields);
  if (!form.success) {
    const issue = form.error.issues[0];
    const field = String(issue?.path[0] ?? "intent");
    return data({ ok: false, message: field === "intent" ? (issue?.message ?? "Unknown action.") : `${field} is not valid.` }, { status: 400 });
  }
  const input = form.data;
  try {
    if (input.intent === "unsave") await products.unsaveProduct(user.id, input.objectID);
    else if (input.intent === "untrack") await products.untrackProduct(user.id, input.objectID);
    else if (!(await products.deleteSavedSearch(user.id, input.id))) {
      return data({ ok: false, message: "That saved search no longer exists." }, { status: 404 });
    }
  } catch (error) {
    if (isProductNotFound(error)) return data({ ok: false, message: error.message }, { status: 404 });
    throw error;
  }
  return { ok: true, message: "Done." };
}
