// Who sees what of the product research (docs/decisions/013). One function decides, for both
// surfaces and the API. Anonymous requests never reach it (401 earlier).
import { paidState, type PaidStateInput } from "~/domain/billing/billing";

export interface ResearchAccess {
  /** Search, browse, titles, images, niches, selling price, orders, revenue, engagement, stores,
   *  winning score and lifecycle stage: everyone signed in, so they can judge the database. */
  browse: true;
  /** Score reasons, trend charts, supplier, cost, margin, profit calculator and Amazon price. */
  insights: boolean;
  /** Why insights are locked, in words, for the upgrade prompt. */
  lockedReason: string | null;
}

export function researchAccess(user: PaidStateInput): ResearchAccess {
  const { paid } = paidState(user);
  return {
    browse: true,
    insights: paid,
    lockedReason: paid
      ? null
      : "Start your free trial to see why a product scores high, its trend chart, supplier cost, margin and Amazon price.",
  };
}

export interface GlitchModeAccess {
  /** Everyone signed in sees how many products qualify and their ranked titles. */
  list: true;
  /** Revealing a glitch's numbers (for a credit): paid states only. */
  reveal: boolean;
  /** Why revealing is locked, in words, for the upgrade prompt and the 403. */
  lockedReason: string | null;
}

/** Who may reveal glitches (docs/decisions/018): the same paid states that see insights. */
export function glitchModeAccess(user: PaidStateInput): GlitchModeAccess {
  const { paid } = paidState(user);
  return {
    list: true,
    reveal: paid,
    lockedReason: paid
      ? null
      : "Revealing a glitch's supplier, cost and spread is part of every plan: start your free trial to reveal glitches.",
  };
}

export interface ProductDropsAccess {
  /** Revealing a weekly drop's products: paid states only (docs/decisions/030). */
  reveal: boolean;
  /** Why revealing is locked, in words, for the upgrade prompt and the 403. */
  lockedReason: string | null;
  /** Where to get a paid state. */
  upgradeUrl: string | null;
}

/** Who may reveal weekly product drops: the same paid states that see insights. */
export function productDropsAccess(user: PaidStateInput): ProductDropsAccess {
  const { paid } = paidState(user);
  return {
    reveal: paid,
    lockedReason: paid ? null : "Weekly product drops are part of every plan: start your free trial to reveal this week's products.",
    upgradeUrl: paid ? null : "/choose-plan",
  };
}
