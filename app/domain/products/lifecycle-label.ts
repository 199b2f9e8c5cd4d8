// The one rule a lifecycle label obeys on a card, for sample products (orders) and measured products
// (stores) alike: the label never disagrees with a number shown beside it (issue 25, item 10;
// docs/decisions/056). The stage rules (insights.ts `lifecycleStageOf`, catalogue-signals.ts
// `measuredInsights`) are written to satisfy it; both end with `agreeingStage`, which corrects whatever a
// rule missed from the card's own figures, so a label the card contradicts can never be shown.
// Pure, and free of imports so both stage rules can use it.

export type Stage = "emerging" | "rising" | "peak" | "declining";

export const LABEL_RULES = {
  /** "Emerging": few stores have picked it up yet. Above this many stores selling it is not emerging. */
  emergingMaxStores: 19,
  /** "Rising" needs at least this many orders in the last 7 days (0 -> 3 orders is not a trend). */
  risingMinOrders7d: 10,
} as const;

/** What a card shows next to the label. `move` is the shown 7-day change read as a reader would. */
export type CardFigures =
  | {
      kind: "orders";
      ordersPrev7d: number;
      orders7d: number;
      storesSelling: number;
      /** The shown change as the stage rule reads it (weekMove): "steady" covers small moves either way. */
      move: "rise" | "fall" | "steady";
    }
  | { kind: "stores"; storesSelling: number; storesAdded7d: number; storesDropped7d: number };

/** Why a label disagrees with its card, as a sentence, or null when it does not. */
export function labelContradiction(stage: Stage, card: CardFigures): string | null {
  const r = LABEL_RULES;
  if (stage === "emerging" && card.storesSelling > r.emergingMaxStores) return `emerging though sold by ${card.storesSelling} stores`;
  if (card.kind === "orders") {
    const up = card.orders7d > card.ordersPrev7d;
    if (stage === "declining" && up) return `declining though orders went up (${card.ordersPrev7d} → ${card.orders7d})`;
    if (stage === "rising" && (card.move !== "rise" || card.orders7d < r.risingMinOrders7d)) {
      return `rising on ${card.ordersPrev7d} → ${card.orders7d} orders`;
    }
    if (stage === "peak" && card.move !== "steady") return `peak though the week is a ${card.move}`;
    if (stage === "emerging" && card.move === "fall") return `emerging though orders fell (${card.ordersPrev7d} → ${card.orders7d})`;
    return null;
  }
  const net = card.storesAdded7d - card.storesDropped7d;
  if (stage === "declining" && net > 0) return `declining though ${net} more stores sell it than a week ago`;
  if (stage === "rising" && net <= 0) return "rising though no more stores sell it than a week ago";
  return null;
}

/**
 * The stage, or when the card contradicts it, the stage the card's own figures support: rising on a rise
 * big enough, declining on a fall, else peak (a steady week). The last step of every stage rule.
 */
export function agreeingStage(stage: Stage, card: CardFigures): Stage {
  if (labelContradiction(stage, card) === null) return stage;
  const candidates: Stage[] =
    card.kind === "orders"
      ? card.move === "rise"
        ? ["rising", "peak"]
        : card.move === "fall"
          ? ["declining"]
          : ["peak", "declining"]
      : card.storesAdded7d - card.storesDropped7d > 0
        ? ["rising"]
        : card.storesAdded7d - card.storesDropped7d < 0
          ? ["declining"]
          : ["peak"];
  for (const c of candidates) if (labelContradiction(c, card) === null) return c;
  // Orders that rose too little to call (a counts move under the rising minimum) on a card whose week is
  // read as a rise: nothing above fits, and "peak" claims the least.
  return "peak";
}
