// The text each MCP tool answers with (docs/decisions/054, 078): what a model quotes, carrying the facts of the
// tool's structuredContent (the figures with whether they were measured and their day, the ids to call the next
// tool with, the cursor of the next page). Money is written with its currency code; money whose currency is unknown
// (a store that publishes none) says so and is never written as dollars.
import type { z } from "zod";
import type { profitAnswer } from "~/api/v1/answers.server";
import type * as S from "~/api/v1/schemas.server";

type Out<T extends z.ZodType> = z.infer<T>;

/** An amount as the API gives it: cents (null: no price) and an ISO 4217 code (null: the currency is unknown). */
export interface MoneyLike {
  cents: number | null;
  currency: string | null;
}

/** "24.95 EUR", "900.00 (currency unknown)", or the word for no amount. */
export function moneyText(m: MoneyLike | null | undefined, none = "unknown"): string {
  if (!m || m.cents === null) return none;
  const amount = (m.cents / 100).toFixed(2);
  return m.currency ? `${amount} ${m.currency}` : `${amount} (currency unknown)`;
}

type Figure = { value: unknown; measured: boolean; asOf: string } | null;
const fig = (f: Figure, unit = "") => (f ? `${String(f.value)}${unit} (${f.measured ? "measured" : "estimated or sample"}, ${f.asOf})` : "no figure");
const percent = (bps: number | null | undefined) => (bps === null || bps === undefined ? "unknown" : `${bps / 100}%`);

type Product = Out<typeof S.Product>;
type Detail = Out<typeof S.ProductDetail>;

function productLine(p: Product, i: number): string {
  const margin = p.insights ? `; margin after duty and fees ${percent(p.insights.landedMarginBps)}` : "";
  return (
    `${i + 1}. ${p.title} [${p.objectID}, ${p.source}] ${moneyText(p.price)}; winning score ${fig(p.figures.winningScore)}; ` +
    `stage ${fig(p.figures.lifecycleStage)}; stores selling ${fig(p.figures.storesSelling)}${margin}. ${p.url}`
  );
}

export function searchText(page: Out<typeof S.ProductPage>): string {
  if (!page.items.length) return "No product matches these filters.";
  return [
    page.correctedQuery ? `Showing results for "${page.correctedQuery}" (you typed "${page.originalQuery ?? ""}").` : "",
    `${page.total}${page.totalIsEstimate ? "+" : ""} products match; the first ${page.items.length}:`,
    ...page.items.map(productLine),
    page.nextCursor ? `More: call again with cursor "${page.nextCursor}" and the same filters.` : "",
  ]
    .filter(Boolean)
    .join("\n");
}

/** ", $20.26 at the reference rate of 2022-07-18" beside an amount in another currency, or why it was not converted (decision 089). */
const convertedText = (c: { converted: { cents: number; rateDate: string } | null; conversionNote?: string | null }) =>
  c.converted ? `, ${moneyText({ cents: c.converted.cents, currency: "USD" })} at the reference rate of ${c.converted.rateDate}` : c.conversionNote ? `, not converted: ${c.conversionNote.replace(/\.$/, "")}` : "";
const offerText = (o: Detail["offers"][number]) =>
  `${o.store} (${moneyText(o.price, "price unknown")}${convertedText(o)}; ${o.reviews === null ? "no review data" : `${o.reviews.toLocaleString("en-US")} reviews on ${o.reviewsAsOf}`})`;
/** A measured product's reviews line (decision 094): measured with its day, or "no review data", never 0. */
const reviewsText = (signals: Detail["signals"]) => {
  if (!signals) return "";
  const r = signals.reviews;
  if (!r) return "Reviews: no review data (none of its stores publishes a review count).";
  const gained = (f: typeof r | null, days: number) => (f ? `+${f.value.toLocaleString("en-US")} in ${days} days` : "");
  return `Reviews: ${r.value.toLocaleString("en-US")} across ${signals.reviewStores} ${signals.reviewStores === 1 ? "store" : "stores"} (measured, ${r.asOf}); ${gained(signals.reviewsGained7d, 7)}, ${gained(signals.reviewsGained30d, 30)}.`;
};
const evidenceText = (p: { matchEvidence: Detail["matchEvidence"] }) =>
  p.matchEvidence.length ? `Evidence: ${p.matchEvidence.map((e) => `${e.listing.store}: ${e.reason}`).join("; ")}.` : "";

export function productText(p: Detail): string {
  return [
    `${p.title} [${p.objectID}, ${p.source}], ${moneyText(p.price)}${convertedText({ converted: p.priceConverted })}. ${p.url}`,
    `Winning score ${fig(p.figures.winningScore)}; stage ${fig(p.figures.lifecycleStage)}; stores selling ${fig(p.figures.storesSelling)}.`,
    p.noSalesData ? p.noSalesData + "." : `Orders ${fig(p.figures.orders)}.`,
    p.insights
      ? `Cost ${moneyText(p.insights.cost)}, margin ${percent(p.insights.marginBps)}, margin after duty and fees ${percent(p.insights.landedMarginBps)}.`
      : "",
    p.offers.length ? `Sold by: ${p.offers.map(offerText).join(", ")}.` : "",
    reviewsText(p.signals),
    evidenceText(p),
  ]
    .filter(Boolean)
    .join("\n");
}

export function explainScoreData(p: Detail) {
  return {
    objectID: p.objectID,
    title: p.title,
    source: p.source,
    winningScore: p.figures.winningScore,
    lifecycleStage: p.figures.lifecycleStage,
    storesSelling: p.figures.storesSelling,
    storesAdded7d: p.figures.storesAdded7d,
    reasons: p.insights?.reasons ?? [],
    thinEvidence: p.thinEvidence,
    signals: p.signals ? { ...p.signals, series: null } : null,
    matchEvidence: p.matchEvidence,
  };
}

export function explainScoreText(d: ReturnType<typeof explainScoreData>): string {
  return [
    `${d.title} [${d.objectID}, ${d.source}]: winning score ${fig(d.winningScore)}, stage ${fig(d.lifecycleStage)}.`,
    `Stores selling ${fig(d.storesSelling)}; added in 7 days ${fig(d.storesAdded7d)}.`,
    d.reasons.length ? `Reasons:\n${d.reasons.map((r) => `- ${r}`).join("\n")}` : "No reasons are recorded for this product.",
    d.thinEvidence ? `Caution: ${d.thinEvidence}.` : "",
    evidenceText(d),
  ]
    .filter(Boolean)
    .join("\n");
}

export function dropsText(drops: Out<typeof S.DropList>): string {
  if (!drops.items.length) return `No revealed drops yet. Next drop: ${drops.nextDropDate}.`;
  const product = (p: Out<typeof S.DropProduct>) => `${p.title} [${p.objectID}] ${moneyText(p.price)}, winning score ${p.winningScore} (${p.reason})`;
  return drops.items.map((d) => `Drop of ${d.date}: ${d.products.map(product).join("; ")}`).join("\n") + `\nNext drop: ${drops.nextDropDate}.`;
}

export function competitorsText(list: { items: (Out<typeof S.Competitor> & { readNote?: string | null })[] }): string {
  if (!list.items.length) return "This account follows no competitor stores.";
  const line = (c: (typeof list.items)[number]) =>
    `${c.id}. ${c.name} (${c.domain}): ${c.productCount} products, ${c.status}, last read ${c.lastCheckedAt ?? "never"}` +
    `${c.lastError ? `; last error: ${c.lastError}` : ""}${c.readNote ? `; ${c.readNote}` : ""}`;
  return list.items.map(line).join("\n");
}

/** Products of a followed store named in the text; the rest are in structuredContent. */
const STORE_PRODUCTS_IN_TEXT = 10;

export function competitorText(c: Out<typeof S.CompetitorDetail>): string {
  const range = (p: Out<typeof S.CompetitorDetail>["products"][number]) =>
    p.priceMin && p.priceMax && p.priceMin.cents !== p.priceMax.cents ? `${moneyText(p.priceMin)}-${moneyText(p.priceMax)}` : moneyText(p.priceMin, "price unknown");
  const shown = c.products.slice(0, STORE_PRODUCTS_IN_TEXT);
  return [
    `${c.name} (${c.domain}): ${c.productCount} products, last read ${c.lastCheckedAt ?? "never"}.`,
    shown.length
      ? `Products: ${shown.map((p) => `${p.title} (${range(p)})`).join("; ")}${c.products.length > shown.length ? `; and ${c.products.length - shown.length} more` : ""}.`
      : "",
    c.launches.length ? `Recent launches: ${c.launches.slice(0, 5).map((l) => `${l.title} (${l.at.slice(0, 10)})`).join("; ")}.` : "No launches seen yet.",
    c.estimate ? `Estimated ${c.estimate.low}-${c.estimate.high} ${c.estimate.unit} (${c.estimate.confidence} confidence, an estimate).` : (c.estimateReason ?? ""),
  ]
    .filter(Boolean)
    .join("\n");
}

export function profitText(p: Awaited<ReturnType<typeof profitAnswer>>): string {
  const m = (cents: number) => moneyText({ cents, currency: p.currency });
  return (
    `At ${m(p.priceCents)} with ${m(p.cpaCents)} ad cost per order: landed cost ${m(p.landedCostCents)}, net profit ${m(p.netProfitCents)} ` +
    `(${p.marginBps / 100}% margin), break-even CPA ${m(p.breakEvenCpaCents)}` +
    `${p.breakEvenRoas === null ? "" : `, break-even ROAS ${p.breakEvenRoas.toFixed(2)}`}. ` +
    `Cost from ${p.costFrom === "yours" ? "your costCents" : "our catalogue"}. ${p.duty.explanation}`
  );
}
