// The product grid's filters as URL parameters (app/domain/products/product-query.ts names them): the numeric ranges, which
// of them fold under "More filters" (decision 073), the chips that show and remove each filter on, and how many are
// on. No React: the filter panel and the grid page (product-filters.tsx, products-page.tsx) render from these.
import { nicheLabel, SOURCE_LABELS, STAGE_LABELS } from "~/ui/research/product-card";

export interface RangeField {
  label: string;
  min?: string;
  max?: string;
  unit: "$" | "%" | "";
  help?: string;
  /** Folded under "More filters" until opened or set (docs/decisions/073). */
  more?: true;
}

/** The numeric filters, in the order they are shown, with their URL parameters. */
export const RANGES: RangeField[] = [
  { label: "Price", min: "minPrice", max: "maxPrice", unit: "$" },
  { label: "Product cost", min: "minCost", max: "maxCost", unit: "$" },
  {
    label: "Margin after duty and fees",
    min: "minMargin",
    max: "maxMargin",
    unit: "%",
    help: "Price minus cost, shipping, US duty and Shopify Payments fees, over price. Products without a known cost are left out.",
  },
  { label: "Orders (30 days)", min: "minOrders", max: "maxOrders", unit: "" },
  { label: "Revenue (30 days)", min: "minRevenue", max: "maxRevenue", unit: "$", more: true },
  { label: "Engagement (30 days)", min: "minEngagement", unit: "", help: "Likes + comments + shares", more: true },
  { label: "Views (30 days)", min: "minViews", unit: "", more: true },
  { label: "Stores selling", min: "minStores", max: "maxStores", unit: "", more: true },
  {
    label: "Stores added this week",
    min: "minStoresAdded7d",
    unit: "",
    help: "Measured products only: stores we observe that listed it in the last 7 days.",
    more: true,
  },
  {
    label: "Amazon price",
    min: "minAmazonPrice",
    max: "maxAmazonPrice",
    unit: "$",
    help: "Glitch mode needs $19 or more.",
    more: true,
  },
];

/** "Min price", "Max Amazon price": unique names for each field (the group's title is shown above). */
export function fieldLabel(side: "Min" | "Max", label: string): string {
  return `${side} ${label.startsWith("Amazon") ? label : label.charAt(0).toLowerCase() + label.slice(1)}`;
}

export const TEXT_KEYS = RANGES.flatMap((r) => [r.min, r.max]).filter((k): k is string => Boolean(k));
/** Every parameter the panel owns; applying the panel replaces all of them. */
export const FILTER_KEYS = [
  ...TEXT_KEYS,
  "source",
  "niche",
  "stage",
  "hasAmazonPrice",
  "firstSeenDays",
  "firstSeenAfter",
  "firstSeenBefore",
];

/**
 * The parameters of the filters under "More filters": the rarely used ranges, the Amazon box and the first-seen
 * date. The fold opens by itself when one of them is set or refused, so an applied filter is never hidden.
 */
export const MORE_FILTER_KEYS = [
  ...RANGES.filter((r) => r.more).flatMap((r) => [r.min, r.max]),
  "hasAmazonPrice",
  "firstSeenDays",
  "firstSeenAfter",
  "firstSeenBefore",
].filter((k): k is string => Boolean(k));

export function list(params: URLSearchParams, name: string): string[] {
  return params
    .getAll(name)
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);
}

/** One applied filter as a removable chip: its words, and the URL parameters without it. */
export interface ActiveFilter {
  key: string;
  label: string;
  without: URLSearchParams;
}

function unitValue(unit: RangeField["unit"], value: string): string {
  return unit === "$" ? `$${value}` : unit === "%" ? `${value}%` : value;
}

/**
 * Every filter on, one chip each (a niche or stage each on its own, a range as "Price $10–$30"), with the
 * parameters that remove just it (and go back to the first page).
 */
export function activeFilters(params: URLSearchParams): ActiveFilter[] {
  const chips: ActiveFilter[] = [];
  const without = (change: (next: URLSearchParams) => void) => {
    const next = new URLSearchParams(params);
    next.delete("page");
    change(next);
    return next;
  };
  for (const r of RANGES) {
    const min = r.min ? params.get(r.min) : null;
    const max = r.max ? params.get(r.max) : null;
    if (!min && !max) continue;
    const range =
      min && max
        ? `${unitValue(r.unit, min)}–${unitValue(r.unit, max)}`
        : min
          ? `≥ ${unitValue(r.unit, min)}`
          : `≤ ${unitValue(r.unit, max!)}`;
    chips.push({
      key: `range:${r.label}`,
      label: `${r.label} ${range}`,
      without: without((n) => {
        if (r.min) n.delete(r.min);
        if (r.max) n.delete(r.max);
      }),
    });
  }
  const source = params.get("source");
  if (source && source in SOURCE_LABELS) {
    chips.push({
      key: "source",
      label: `Source: ${SOURCE_LABELS[source as keyof typeof SOURCE_LABELS]}`,
      without: without((n) => n.delete("source")),
    });
  }
  for (const [name, label] of [
    ["niche", (v: string) => `Niche: ${nicheLabel(v)}`],
    ["stage", (v: string) => `Stage: ${STAGE_LABELS[v as keyof typeof STAGE_LABELS] ?? v}`],
  ] as const) {
    const values = list(params, name);
    for (const value of values) {
      chips.push({
        key: `${name}:${value}`,
        label: label(value),
        without: without((n) => {
          n.delete(name);
          const rest = values.filter((v) => v !== value);
          if (rest.length > 0) n.set(name, rest.join(","));
        }),
      });
    }
  }
  if (params.get("hasAmazonPrice"))
    chips.push({
      key: "hasAmazonPrice",
      label: "Has an Amazon price",
      without: without((n) => n.delete("hasAmazonPrice")),
    });
  const days = params.get("firstSeenDays");
  if (days)
    chips.push({
      key: "firstSeenDays",
      label: `First seen in the last ${days} days`,
      without: without((n) => n.delete("firstSeenDays")),
    });
  const after = params.get("firstSeenAfter");
  const before = params.get("firstSeenBefore");
  if (after || before) {
    chips.push({
      key: "firstSeenDates",
      label: `First seen ${after ? `from ${after}` : ""}${after && before ? " " : ""}${before ? `until ${before}` : ""}`,
      without: without((n) => {
        n.delete("firstSeenAfter");
        n.delete("firstSeenBefore");
      }),
    });
  }
  return chips;
}

/**
 * How many filters of `keys` are on, counted as the chips are: a range's min and max are one filter, and so is the
 * first-seen date however it is given. The panel's title counts them all; "More filters (N set)" its own.
 */
export function activeFilterCount(params: URLSearchParams, keys: readonly string[] = FILTER_KEYS): number {
  const on = new Set<string>();
  for (const key of keys) if (params.get(key)) on.add(key.startsWith("firstSeen") ? "firstSeen" : key.replace(/^(min|max)/, ""));
  return on.size;
}
