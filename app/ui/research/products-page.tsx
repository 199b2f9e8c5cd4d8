// The product grid page (search bar, filters, sorts, results, pagination, "Save this search"), the
// same on the site (/dashboard/products) and in Shopify admin (/app/products). All state is in the
// URL; the page's loader and action are app/pages/research/research.server.ts. On a narrow screen (app.css,
// .wp-products) the search field takes the whole width and the filters and "Save this search" fold
// behind a Filters button, so the first products show on the first screen.
import { useFetcher, useNavigate, useNavigation, useSearchParams } from "@remix-run/react";
import type { SerializeFrom } from "@remix-run/node";
import {
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  InlineStack,
  Link,
  Page,
  Pagination,
  Tag,
  Text,
  TextField,
} from "@shopify/polaris";
import { FilterIcon } from "@shopify/polaris-icons";
import { useEffect, useState } from "react";
import { GRID_PAGE_PARAMS, MAX_PAGE } from "~/domain/products/product-query";
import { readsAsQuestion } from "~/domain/products/product-question";
import { withoutShopifyAdminParams } from "~/domain/shopify/admin-params";
import type { loadProductGrid, saveSearchAction } from "~/pages/research/research.server";
import { formatDay, formatTotal, imagePreload, ProductGrid, SORT_LABELS, UpgradePrompt } from "~/ui/research/product-card";
import { CardsDutyNotice } from "~/ui/landed-cost/landed-cost-breakdown";
import { ExportButtons } from "~/ui/research/export-buttons";
import { activeFilterCount, activeFilters, FILTER_KEYS, type ActiveFilter } from "~/ui/research/product-filter-params";
import { ProductFilterPanel, ProductSearchBar, useRememberSearch } from "~/ui/research/product-filters";
import { QuestionBox, useAskInPlainWords } from "~/ui/research/question-box";
import { researchPaths, type Surface } from "~/ui/research/research-paths";

export type ProductGridData = SerializeFrom<typeof loadProductGrid>;

/** The grid's <head>: its title, and the first card's picture (the largest paint on a phone) asked for early. */
export function productsMeta(data: ProductGridData | undefined) {
  return [{ title: "Products · Winning Products" }, ...imagePreload(data?.results?.items[0]?.image)];
}

function SaveSearchCard({ query, savedUrl }: { query: string; savedUrl: string }) {
  const fetcher = useFetcher<typeof saveSearchAction>();
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
                {result.message} <Link url={savedUrl}>See saved searches</Link>
              </Text>
            ) : null}
          </InlineStack>
        </BlockStack>
      </fetcher.Form>
    </Card>
  );
}

export function ProductsPage({ data, surface }: { data: ProductGridData; surface: Surface }) {
  const { results, error, niches, access, savedSearch, notice, exportLinks } = data;
  const paths = researchPaths(surface);
  // In Shopify admin the first URL also carries the admin's parameters; the links the page builds leave
  // them out (App Bridge authenticates every later request), so URLs hold only the search.
  const params = withoutShopifyAdminParams(useSearchParams()[0]);
  const navigate = useNavigate();
  const navigation = useNavigation();
  const key = params.toString();
  const searchOnly = new URLSearchParams(params);
  for (const k of GRID_PAGE_PARAMS) searchOnly.delete(k);
  useRememberSearch(params.toString());

  const { ask } = useAskInPlainWords(paths.products);
  const apply = (next: URLSearchParams) => {
    const q = next.get("q");
    const search = () => navigate(next.toString() ? `?${next.toString()}` : "?");
    if (q !== params.get("q")) {
      // "Search instead for ..." holds for that text only: a new text may be corrected again.
      next.delete("literal");
      // A sentence asks for filters ("cheap pet products under $20 with good margin"): the plain-words parser
      // reads it, as in the question box; its words are searched only if it cannot (issue 35).
      if (q && readsAsQuestion(q, niches)) {
        void ask(q).then((error) => error && search());
        return;
      }
    }
    search();
  };
  // A filter the server refused is shown open, on a phone too; applying folds the filters away again.
  const filterError = error !== null && FILTER_KEYS.includes(error.param);
  const [filtersOpen, setFiltersOpen] = useState(filterError);
  useEffect(() => {
    if (filterError) setFiltersOpen(true);
  }, [filterError, key]);
  const applyFilters = (next: URLSearchParams) => {
    setFiltersOpen(false);
    apply(next);
  };
  const pageUrl = (page: number) => {
    const next = new URLSearchParams(params);
    if (page <= 1) next.delete("page");
    else next.set("page", String(page));
    return `?${next.toString()}`;
  };

  const pages = results ? Math.min(MAX_PAGE, Math.max(1, Math.ceil(results.total / results.pageSize))) : 1;
  const busy = navigation.state === "loading" && navigation.location?.pathname === paths.products;

  return (
    <Page
      title="Products"
      subtitle="Search the database, filter by what matters to you, and open a product to see why it scores."
    >
      <div className="wp-products">
        {error ? (
          <Banner tone="critical" title="Part of this search was not understood">
            <p>{error.message}</p>
          </Banner>
        ) : null}
        {notice ? (
          <Banner tone="warning">
            <p>{notice}</p>
          </Banner>
        ) : null}
        {savedSearch ? (
          <Banner tone="info" title={`Saved search: ${savedSearch.name}`}>
            <p>Products first seen since your last visit on {formatDay(savedSearch.newSince)} are marked New.</p>
          </Banner>
        ) : null}
        {/* The search area: anything else asked before the grid (e.g. a question box) goes in this block. */}
        <div className="wp-products-search">
          <QuestionBox gridPath={paths.products} />
          <ProductSearchBar
            key={key}
            params={params}
            error={error}
            onApply={apply}
            actions={
              <FiltersToggle
                open={filtersOpen}
                count={activeFilterCount(params)}
                onToggle={() => setFiltersOpen((open) => !open)}
              />
            }
          />
        </div>
        <div className="wp-products-body">
          {/* On a narrow screen this column is folded behind the Filters button (app.css). */}
          <div id={FILTERS_ID} className="wp-products-aside" data-open={filtersOpen ? "true" : undefined}>
            <div className="wp-products-save-search">
              <SaveSearchCard query={searchOnly.toString()} savedUrl={paths.saved} />
            </div>
            <ProductFilterPanel key={key} params={params} niches={niches} error={error} onApply={applyFilters} />
          </div>
          <div className="wp-products-results">
            <BlockStack gap="400">
              {!access.insights ? <UpgradePrompt reason={access.lockedReason} upgradeUrl={paths.upgrade} /> : null}
              {results ? (
                <>
                  {results.correctedQuery !== null && results.originalQuery !== null ? (
                    <SpellingCorrection
                      corrected={results.correctedQuery}
                      original={results.originalQuery}
                      params={params}
                    />
                  ) : null}
                  {results.matchedSomeWords ? (
                    <Text as="p" tone="subdued">
                      Few products match every word you typed, so products matching most of the words follow them.
                    </Text>
                  ) : null}
                  <FilterChips
                    chips={activeFilters(params)}
                    onRemove={(next) => apply(next)}
                    clearAll={() => {
                      const next = new URLSearchParams(params);
                      for (const k of [...FILTER_KEYS, "page"]) next.delete(k);
                      apply(next);
                    }}
                  />
                  {/* Cards reach the screen's edges on a phone (Polaris); this line keeps the page's margin. */}
                  <Box paddingInline={{ xs: "400", sm: "0" }}>
                    <InlineStack align="space-between" blockAlign="center" gap="200">
                      {/* The results' heading (h2): the cards' titles (h3) come under it, in order. */}
                      <Text as="h2" variant="headingSm">
                        <span aria-live="polite">
                          {busy ? "Searching…" : capitalize(formatTotal(results.total, results.totalIsEstimate))}
                        </span>
                      </Text>
                      <InlineStack gap="300" blockAlign="center">
                        <Text as="p" tone="subdued">
                          {/* The order shown: with products matching most of the words, how much of the text they carry comes first. */}
                          {results.matchedSomeWords
                            ? `Sorted by words matched, then ${SORT_LABELS[results.sort].toLowerCase()}`
                            : `Sorted by ${SORT_LABELS[results.sort].toLowerCase()}`}
                        </Text>
                        {results.total > 0 ? <ExportButtons links={exportLinks} what="every result of this search" /> : null}
                      </InlineStack>
                    </InlineStack>
                  </Box>
                  {/* The measured view with few products says what its catalogue is waiting for (issue 37). */}
                  {results.measuredPending && results.items.length > 0 ? (
                    <Box paddingInline={{ xs: "400", sm: "0" }}>
                      <Text as="p" tone="subdued">
                        {results.measuredPending}
                      </Text>
                    </Box>
                  ) : null}
                  {results.items.length > 0 ? (
                    <ProductGrid
                      products={results.items}
                      productUrl={paths.product}
                      upgradeUrl={paths.upgrade}
                      landedMargins={results.landedMargins}
                    />
                  ) : (
                    <Card>
                      <BlockStack gap="200" inlineAlign="center">
                        <Text as="h2" variant="headingMd">
                          {results.measuredPending ? "Measured products are still coming in" : "No products match"}
                        </Text>
                        <Text as="p" tone="subdued">
                          {results.page > 1 && results.total > 0
                            ? "This page is past the last result."
                            : (results.measuredPending ?? "Try other words, or remove a filter or two.")}
                        </Text>
                      </BlockStack>
                    </Card>
                  )}
                  {/* Under the cards, so a phone shows products on its first screen (issue 25); each card's margin is tinted. */}
                  {results.landedMargins ? <CardsDutyNotice margins={Object.values(results.landedMargins)} inset /> : null}
                  <InlineStack align="center">
                    <Pagination
                      // Only a page that exists gets a URL: Polaris renders a disabled link as an <a> without
                      // href whose aria-label is prohibited (axe aria-prohibited-attr); without a URL it is a button.
                      hasPrevious={results.page > 1}
                      previousURL={results.page > 1 ? pageUrl(results.page - 1) : undefined}
                      hasNext={results.hasMore}
                      nextURL={results.hasMore ? pageUrl(results.page + 1) : undefined}
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
                    <Button url={paths.products}>Start over</Button>
                  </BlockStack>
                </Card>
              )}
            </BlockStack>
          </div>
        </div>
      </div>
    </Page>
  );
}

const FILTERS_ID = "product-grid-filters";

/** The filters that are on, one removable chip each, above the results (wide screens; app.css). */
function FilterChips({
  chips,
  onRemove,
  clearAll,
}: {
  chips: ActiveFilter[];
  onRemove: (next: URLSearchParams) => void;
  clearAll: () => void;
}) {
  if (chips.length === 0) return null;
  return (
    <div className="wp-filter-chips">
      <InlineStack gap="200" blockAlign="center">
        <Text as="span" variant="bodySm" tone="subdued">
          Filters on:
        </Text>
        {chips.map((chip) => (
          <Tag key={chip.key} onRemove={() => onRemove(chip.without)}>
            {chip.label}
          </Tag>
        ))}
        {chips.length > 1 ? (
          <Button variant="plain" onClick={clearAll}>
            Clear all filters
          </Button>
        ) : null}
      </InlineStack>
    </div>
  );
}

/** The button that unfolds the filters on a narrow screen (hidden where they are always shown), with how many are on. */
function FiltersToggle({ open, count, onToggle }: { open: boolean; count: number; onToggle: () => void }) {
  return (
    <div className="wp-filters-toggle">
      <Button
        icon={FilterIcon}
        disclosure={open ? "up" : "down"}
        ariaExpanded={open}
        ariaControls={FILTERS_ID}
        onClick={onToggle}
      >
        {count > 0 ? `Filters (${count})` : "Filters"}
      </Button>
    </div>
  );
}

/** "Showing results for bluetooth speaker. Search instead for bluetoth speker" (the text as typed, literally). */
function SpellingCorrection({
  corrected,
  original,
  params,
}: {
  corrected: string;
  original: string;
  params: URLSearchParams;
}) {
  const literal = new URLSearchParams(params);
  literal.set("q", original);
  literal.set("literal", "1");
  literal.delete("page");
  return (
    <BlockStack gap="100">
      <Text as="p" variant="bodyLg">
        Showing results for{" "}
        <Text as="span" fontWeight="bold">
          {corrected}
        </Text>
      </Text>
      <Text as="p" tone="subdued">
        Search instead for <Link url={`?${literal.toString()}`}>{original}</Link>
      </Text>
    </BlockStack>
  );
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
