// /dashboard/products: the product database. Every bit of state is in the URL (text, filters, sort,
// page, the shuffle seed and an opened saved search), so a search can be shared and the back button
// works. An invalid parameter shows its message in a banner; the page still renders (status 400).
//
// Page-only parameters, removed before the search sees the URL:
// - savedSearch={id}: opened from /dashboard/saved. The first load records the visit and redirects
//   with newSince={previous visit}, so products first seen after it stay marked "New" on every page
//   of the search and on reload, while the next opening compares against this visit.
// - sort=random without seed: the visitor's seed (a session cookie) is put in the URL by a redirect.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useFetcher, useLoaderData, useNavigate, useNavigation, useSearchParams } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, InlineStack, Layout, Link, Page, Pagination, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { z } from "zod";
import { MAX_PAGE, QueryError } from "~/domain/product-query";
import { researchAccess } from "~/domain/research-access";
import { auth, products } from "~/services/index.server";
import { formatDay, formatTotal, ProductGrid, SORT_LABELS, UpgradePrompt } from "~/ui/product-card";
import { ProductFilterPanel, ProductSearchBar, useRememberSearch } from "~/ui/product-filters";

export const meta: MetaFunction = () => [{ title: "Products · Winning Products" }];

/** Parameters of this page that are not part of the product search. */
const PAGE_PARAMS = ["savedSearch", "newSince"] as const;
const SEED_COOKIE = "wp_shuffle_seed";
const UPGRADE_URL = "/choose-plan";
const productUrl = (objectID: string) => `/dashboard/products/${encodeURIComponent(objectID)}`;

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

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await auth.requireUser(request);
  const url = new URL(request.url);
  const params = new URLSearchParams(url.search);

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
      notice = "That saved search no longer exists. These are the products its link searched for.";
    } else {
      const sinceDate = new Date(since);
      const row = (await products.listSavedSearches(user.id)).find((s) => s.id === id.data);
      if (Number.isNaN(sinceDate.getTime())) notice = "That saved search link is not valid.";
      else if (!row) notice = "That saved search no longer exists. These are the products its link searched for.";
      else {
        newSince = sinceDate;
        savedSearch = { id: row.id, name: row.name, newSince: sinceDate.toISOString() };
      }
    }
  }
  for (const key of PAGE_PARAMS) params.delete(key);

  const access = researchAccess(user);
  const page = { niches: await products.niches(), access: { insights: access.insights, lockedReason: access.lockedReason }, savedSearch, notice };
  try {
    const result = await products.search({ userId: user.id, access, params, newSince });
    return {
      ...page,
      error: null,
      results: {
        items: result.items,
        total: result.total,
        totalIsEstimate: result.totalIsEstimate,
        page: result.page,
        pageSize: result.pageSize,
        hasMore: result.hasMore,
        sort: result.query.sort,
      },
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

export type ProductsActionResult = { ok: true; message: string; id: number } | { ok: false; message: string };

export async function action({ request }: ActionFunctionArgs) {
  const user = await auth.requireUser(request);
  const parsed = SaveSearchForm.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) {
    return data<ProductsActionResult>({ ok: false, message: parsed.error.issues[0]?.message ?? "Invalid form." }, { status: 400 });
  }
  const params = new URLSearchParams(parsed.data.query.replace(/^\?/, ""));
  for (const key of PAGE_PARAMS) params.delete(key);
  try {
    const result = await products.saveSearch(user.id, { name: parsed.data.name, params });
    if (!result.ok) return data<ProductsActionResult>({ ok: false, message: result.message }, { status: result.status });
    return data<ProductsActionResult>({ ok: true, message: `Saved “${result.search.name}”.`, id: result.search.id });
  } catch (error) {
    if (error instanceof QueryError) return data<ProductsActionResult>({ ok: false, message: error.message }, { status: 400 });
    throw error;
  }
}

function SaveSearchCard({ query }: { query: string }) {
  const fetcher = useFetcher<typeof action>();
  const [name, setName] = useState("");
  const result = fetcher.data;
  return (
    <Card>
      <fetcher.Form method="post">
        <BlockStack gap="200">
          <input type="hidden" name="intent" value="save-search" />
          <input type="hidden" name="query" value={query} />
          <Text as="h2" variant="headingSm">
            Save this search
          </Text>
          <TextField
            label="Search name"
            name="name"
            value={name}
            onChange={setName}
            autoComplete="off"
            placeholder="e.g. Pet products under $30"
            helpText="Saved searches mark products that are new since your last visit."
            error={result && !result.ok ? result.message : undefined}
          />
          <InlineStack gap="200" blockAlign="center">
            <Button submit loading={fetcher.state !== "idle"}>
              Save this search
            </Button>
            {result?.ok ? (
              <Text as="span" tone="success">
                {result.message} <Link url="/dashboard/saved">See saved searches</Link>
              </Text>
            ) : null}
          </InlineStack>
        </BlockStack>
      </fetcher.Form>
    </Card>
  );
}

export default function ProductsPage() {
  const { results, error, niches, access, savedSearch, notice } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const key = params.toString();
  const searchOnly = new URLSearchParams(params);
  for (const k of PAGE_PARAMS) searchOnly.delete(k);
  useRememberSearch(params.toString());

  const apply = (next: URLSearchParams) => {
    const search = next.toString();
    navigate(search ? `?${search}` : "?");
  };
  const pageUrl = (page: number) => {
    const next = new URLSearchParams(params);
    if (page <= 1) next.delete("page");
    else next.set("page", String(page));
    return `?${next.toString()}`;
  };

  const pages = results ? Math.min(MAX_PAGE, Math.max(1, Math.ceil(results.total / results.pageSize))) : 1;
  const busy = navigation.state === "loading" && navigation.location?.pathname === "/dashboard/products";

  return (
    <Page title="Products" subtitle="Search the database, filter by what matters to you, and open a product to see why it scores.">
      <Layout>
        {error ? (
          <Layout.Section variant="fullWidth">
            <Banner tone="critical" title="Part of this search was not understood">
              <p>{error.message}</p>
            </Banner>
          </Layout.Section>
        ) : null}
        {notice ? (
          <Layout.Section variant="fullWidth">
            <Banner tone="warning">
              <p>{notice}</p>
            </Banner>
          </Layout.Section>
        ) : null}
        {savedSearch ? (
          <Layout.Section variant="fullWidth">
            <Banner tone="info" title={`Saved search: ${savedSearch.name}`}>
              <p>Products first seen since your last visit on {formatDay(savedSearch.newSince)} are marked New.</p>
            </Banner>
          </Layout.Section>
        ) : null}
        <Layout.Section variant="fullWidth">
          <ProductSearchBar key={key} params={params} error={error} onApply={apply} />
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <BlockStack gap="400">
            <SaveSearchCard query={searchOnly.toString()} />
            <ProductFilterPanel key={key} params={params} niches={niches} error={error} onApply={apply} />
          </BlockStack>
        </Layout.Section>
        <Layout.Section>
          <BlockStack gap="400">
            {!access.insights ? <UpgradePrompt reason={access.lockedReason} upgradeUrl={UPGRADE_URL} /> : null}
            {results ? (
              <>
                <InlineStack align="space-between" blockAlign="center">
                  <Text as="p" variant="headingSm" aria-live="polite">
                    {busy ? "Searching…" : capitalize(formatTotal(results.total, results.totalIsEstimate))}
                  </Text>
                  <Text as="p" tone="subdued">
                    Sorted by {SORT_LABELS[results.sort].toLowerCase()}
                  </Text>
                </InlineStack>
                {results.items.length > 0 ? (
                  <ProductGrid products={results.items} productUrl={productUrl} upgradeUrl={UPGRADE_URL} />
                ) : (
                  <Card>
                    <BlockStack gap="200" inlineAlign="center">
                      <Text as="h2" variant="headingMd">
                        No products match
                      </Text>
                      <Text as="p" tone="subdued">
                        {results.page > 1 && results.total > 0
                          ? "This page is past the last result."
                          : "Try other words, or remove a filter or two."}
                      </Text>
                    </BlockStack>
                  </Card>
                )}
                <InlineStack align="center">
                  <Pagination
                    hasPrevious={results.page > 1}
                    previousURL={pageUrl(results.page - 1)}
                    hasNext={results.hasMore}
                    nextURL={pageUrl(results.page + 1)}
                    label={`Page ${results.page} of ${results.totalIsEstimate ? "about " : ""}${pages}`}
                  />
                </InlineStack>
              </>
            ) : (
              <Card>
                <BlockStack gap="200" inlineAlign="center">
                  <Text as="h2" variant="headingMd">
                    Fix the search to see products
                  </Text>
                  <Text as="p" tone="subdued">
                    Change or remove the setting named above, or start over.
                  </Text>
                  <Button url="/dashboard/products">Start over</Button>
                </BlockStack>
              </Card>
            )}
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
