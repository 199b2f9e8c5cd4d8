// The product search bar and filter panel. They read the current URL parameters and hand back new
// ones (onApply); the caller puts them in the URL, so every search is shareable and the back button
// works. Parameter names are those of app/domain/products/product-query.ts. Remount with key={params} so the
// fields follow the URL when the user goes back.
import {
  BlockStack,
  Button,
  Card,
  Checkbox,
  ChoiceList,
  InlineGrid,
  InlineStack,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useEffect, useState, type FormEvent, type ReactNode } from "react";
import { SORTS, SOURCES, STAGES, type Sort } from "~/domain/products/product-query";
import { nicheLabel, SORT_LABELS, SOURCE_LABELS, STAGE_LABELS } from "~/ui/research/product-card";
import {
  activeFilterCount,
  fieldLabel,
  FILTER_KEYS,
  list,
  MORE_FILTER_KEYS,
  RANGES,
  TEXT_KEYS,
  type RangeField,
} from "~/ui/research/product-filter-params";

/** A parameter the server refused, to show on its field. */
export interface ParamError {
  param: string;
  message: string;
}

const FIRST_SEEN_OPTIONS = [
  { label: "Any time", value: "" },
  { label: "Last 7 days", value: "7" },
  { label: "Last 30 days", value: "30" },
  { label: "Last 90 days", value: "90" },
  { label: "Between dates", value: "dates" },
];

/** One numeric filter: its title, its min and max fields, its help. */
function RangeGroup({
  range: r,
  text,
  setText,
  fieldError,
}: {
  range: RangeField;
  text: Record<string, string>;
  setText: (update: (t: Record<string, string>) => Record<string, string>) => void;
  fieldError: (name: string) => string | undefined;
}) {
  const field = (side: "Min" | "Max", key: string) => (
    <TextField
      label={fieldLabel(side, r.label)}
      labelHidden
      placeholder={side === "Max" ? "Max" : r.max ? "Min" : "At least"}
      value={text[key]}
      onChange={(v) => setText((t) => ({ ...t, [key]: v }))}
      autoComplete="off"
      inputMode="decimal"
      prefix={r.unit === "$" ? "$" : undefined}
      suffix={r.unit === "%" ? "%" : undefined}
      error={fieldError(key)}
    />
  );
  return (
    <BlockStack gap="100" role="group" aria-label={r.label}>
      <Text as="p" variant="bodyMd">
        {r.label}
      </Text>
      <InlineGrid columns={r.max ? 2 : 1} gap="200">
        {r.min ? field("Min", r.min) : null}
        {r.max ? field("Max", r.max) : null}
      </InlineGrid>
      {r.help ? (
        <Text as="p" variant="bodySm" tone="subdued">
          {r.help}
        </Text>
      ) : null}
    </BlockStack>
  );
}

/** How many niches show before "Show all niches". */
const NICHES_SHOWN = 6;

/**
 * The niche checkboxes: the applied ones first and always shown (never hidden in a scroll box), then the
 * first others, and a button that unfolds the whole list.
 */
function NicheChoices({
  niches,
  chosen,
  onChange,
  error,
}: {
  niches: string[];
  chosen: string[];
  onChange: (next: string[]) => void;
  error: string | undefined;
}) {
  const [all, setAll] = useState(false);
  // The order is fixed when the panel mounts (it remounts with the URL), so ticking a box does not move it.
  const [ordered] = useState(() => [
    ...niches.filter((n) => chosen.includes(n)),
    ...niches.filter((n) => !chosen.includes(n)),
  ]);
  const firstChosen = ordered.filter((n) => chosen.includes(n)).length;
  const shown = all ? ordered : ordered.slice(0, Math.max(NICHES_SHOWN, firstChosen));
  return (
    <BlockStack gap="100">
      <ChoiceList
        title="Niches"
        allowMultiple
        choices={shown.map((n) => ({ label: nicheLabel(n), value: n }))}
        selected={chosen}
        onChange={(next) => onChange([...next, ...chosen.filter((c) => !shown.includes(c))])}
        error={error}
      />
      {ordered.length > shown.length || all ? (
        <div>
          <Button variant="plain" onClick={() => setAll((a) => !a)} ariaExpanded={all}>
            {all ? "Show fewer niches" : `Show all ${ordered.length} niches`}
          </Button>
        </div>
      ) : null}
    </BlockStack>
  );
}

export function ProductFilterPanel({
  params,
  niches,
  error,
  onApply,
}: {
  params: URLSearchParams;
  niches: string[];
  error: ParamError | null;
  onApply: (next: URLSearchParams) => void;
}) {
  const [text, setText] = useState<Record<string, string>>(() =>
    Object.fromEntries(TEXT_KEYS.map((k) => [k, params.get(k) ?? ""])),
  );
  const [chosenNiches, setNiches] = useState(() => list(params, "niche"));
  const [stages, setStages] = useState(() => list(params, "stage"));
  const [source, setSource] = useState(() => params.get("source") ?? "all");
  const [hasAmazon, setHasAmazon] = useState(() => ["1", "true"].includes(params.get("hasAmazonPrice") ?? ""));
  const [firstSeen, setFirstSeen] = useState(() =>
    params.get("firstSeenAfter") || params.get("firstSeenBefore") ? "dates" : (params.get("firstSeenDays") ?? ""),
  );
  const [after, setAfter] = useState(() => params.get("firstSeenAfter") ?? "");
  const [before, setBefore] = useState(() => params.get("firstSeenBefore") ?? "");

  const fieldError = (name: string) => (error && error.param === name ? error.message : undefined);
  // The rarely used filters are rendered only when asked for, or when one is set or refused (decision 073). The
  // panel remounts with the URL (key={params}), so the count is the URL's.
  const moreSet = activeFilterCount(params, MORE_FILTER_KEYS);
  const [more, setMore] = useState(() => moreSet > 0 || (error !== null && MORE_FILTER_KEYS.includes(error.param)));

  function apply(event?: FormEvent) {
    event?.preventDefault();
    const next = new URLSearchParams(params);
    for (const key of [...FILTER_KEYS, "page"]) next.delete(key);
    for (const key of TEXT_KEYS) if (text[key].trim()) next.set(key, text[key].trim());
    if (source && source !== "all") next.set("source", source);
    if (chosenNiches.length) next.set("niche", chosenNiches.join(","));
    if (stages.length) next.set("stage", stages.join(","));
    if (hasAmazon) next.set("hasAmazonPrice", "true");
    if (firstSeen === "dates") {
      if (after) next.set("firstSeenAfter", after);
      if (before) next.set("firstSeenBefore", before);
    } else if (firstSeen) {
      next.set("firstSeenDays", firstSeen);
    }
    onApply(next);
  }

  function clear() {
    const next = new URLSearchParams(params);
    for (const key of [...FILTER_KEYS, "page"]) next.delete(key);
    onApply(next);
  }

  return (
    <Card>
      <form onSubmit={apply} aria-label="Filters">
        <BlockStack gap="400">
          <InlineStack align="space-between" blockAlign="center">
            <Text as="h2" variant="headingMd">
              Filters
            </Text>
            <Button variant="plain" onClick={clear}>
              Clear all
            </Button>
          </InlineStack>

          <Select
            label="Source"
            options={SOURCES.map((s) => ({ label: SOURCE_LABELS[s], value: s }))}
            value={source}
            onChange={setSource}
            helpText="Measured: what the stores we observe sell, counted from their listings. Sample data: the generated research database."
            error={fieldError("source")}
          />

          {niches.length > 0 ? (
            <NicheChoices niches={niches} chosen={chosenNiches} onChange={setNiches} error={fieldError("niche")} />
          ) : null}

          <ChoiceList
            title="Lifecycle stage (estimate)"
            allowMultiple
            choices={STAGES.map((s) => ({ label: STAGE_LABELS[s], value: s }))}
            selected={stages}
            onChange={setStages}
            error={fieldError("stage")}
          />

          {RANGES.filter((r) => !r.more).map((r) => (
            <RangeGroup key={r.label} range={r} text={text} setText={setText} fieldError={fieldError} />
          ))}

          <div>
            <Button
              variant="plain"
              disclosure={more ? "up" : "down"}
              onClick={() => setMore((m) => !m)}
              ariaExpanded={more}
              ariaControls="more-filters"
            >
              {`${more ? "Fewer filters" : "More filters"}${moreSet > 0 ? ` (${moreSet} set)` : ""}`}
            </Button>
          </div>

          {more ? (
            <div id="more-filters">
              <BlockStack gap="400">
                {RANGES.filter((r) => r.more).map((r) => (
                  <RangeGroup key={r.label} range={r} text={text} setText={setText} fieldError={fieldError} />
                ))}

                <Checkbox
                  label="Only products with an Amazon price"
                  checked={hasAmazon}
                  onChange={setHasAmazon}
                  error={fieldError("hasAmazonPrice")}
                />

                <BlockStack gap="200">
                  <Select
                    label="First seen"
                    options={FIRST_SEEN_OPTIONS}
                    value={firstSeen}
                    onChange={setFirstSeen}
                    error={fieldError("firstSeenDays")}
                  />
                  {firstSeen === "dates" ? (
                    <InlineGrid columns={2} gap="200">
                      <TextField
                        label="After"
                        type="date"
                        value={after}
                        onChange={setAfter}
                        autoComplete="off"
                        error={fieldError("firstSeenAfter")}
                      />
                      <TextField
                        label="Before"
                        type="date"
                        value={before}
                        onChange={setBefore}
                        autoComplete="off"
                        error={fieldError("firstSeenBefore")}
                      />
                    </InlineGrid>
                  ) : null}
                </BlockStack>
              </BlockStack>
            </div>
          ) : null}

          <Button submit variant="primary">
            Apply filters
          </Button>
        </BlockStack>
      </form>
    </Card>
  );
}

/** The sort the server uses when the URL names none, with or without text (parseProductQuery). */
const DEFAULT_SORT: Sort = "winning-score";

/** The sort the server uses when the URL names none. */
export function effectiveSort(params: URLSearchParams): Sort {
  const sort = params.get("sort");
  if (sort && (SORTS as readonly string[]).includes(sort)) return sort as Sort;
  return DEFAULT_SORT;
}

export function ProductSearchBar({
  params,
  error,
  onApply,
  actions,
}: {
  params: URLSearchParams;
  error: ParamError | null;
  onApply: (next: URLSearchParams) => void;
  /** Buttons shown before "Search" (the grid's Filters button). */
  actions?: ReactNode;
}) {
  const [q, setQ] = useState(() => params.get("q") ?? "");
  const sort = effectiveSort(params);
  // "Best match" only means something with text; it is offered as soon as text is typed.
  const sorts = SORTS.filter((s) => s !== "relevance" || q.trim() !== "");

  function build(nextQ: string, nextSort: Sort): URLSearchParams {
    const next = new URLSearchParams(params);
    next.delete("page");
    if (nextQ.trim()) next.set("q", nextQ.trim());
    else next.delete("q");
    // Best match needs text: without it the search falls back to the default order.
    if (nextSort === DEFAULT_SORT || (nextSort === "relevance" && !nextQ.trim())) next.delete("sort");
    else next.set("sort", nextSort);
    // The visitor's shuffle seed only matters for the random order.
    if (nextSort !== "random") next.delete("seed");
    return next;
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    onApply(build(q, sort));
  }

  // A grid (app.css, .wp-search-row): the field on a row of its own on a narrow screen, one row on a wide one.
  return (
    <Card>
      <form onSubmit={submit} role="search" aria-label="Product search">
        <div className="wp-search-row">
          <div className="wp-search-text">
            <TextField
              label="Search products"
              value={q}
              onChange={setQ}
              autoComplete="off"
              placeholder="Try “posture corrector” or “dog”"
              clearButton
              onClearButtonClick={() => setQ("")}
              error={error?.param === "q" ? error.message : undefined}
            />
          </div>
          <div className="wp-search-sort">
            <Select
              label="Sort by"
              options={sorts.map((s) => ({ label: SORT_LABELS[s], value: s }))}
              value={sorts.includes(sort) ? sort : "winning-score"}
              onChange={(value) => onApply(build(q, value as Sort))}
              error={error?.param === "sort" || error?.param === "seed" ? error.message : undefined}
            />
          </div>
          <div className="wp-search-actions">
            {actions}
            <Button submit variant="primary">
              Search
            </Button>
          </div>
        </div>
      </form>
    </Card>
  );
}

const LAST_SEARCH_KEY = "wp:last-product-search";

/** Remembers the grid's current search for this tab, so a product page can link back to it. */
export function useRememberSearch(search: string) {
  useEffect(() => {
    try {
      window.sessionStorage.setItem(LAST_SEARCH_KEY, search);
    } catch {
      // Storage can be disabled; the back link then opens the grid without a search.
    }
  }, [search]);
}

/**
 * The grid's URL with the search last seen in this tab. Read after hydration (the server cannot know
 * it), so the first render matches the server's HTML.
 */
export function useLastSearchUrl(gridPath: string): string {
  const [url, setUrl] = useState(gridPath);
  useEffect(() => {
    try {
      const search = window.sessionStorage.getItem(LAST_SEARCH_KEY);
      if (search) setUrl(`${gridPath}?${search}`);
    } catch {
      // see useRememberSearch
    }
  }, [gridPath]);
  return url;
}
