// Glitch mode (seed glitches, glitch_mode_products; docs/decisions/018 and 066): the qualifying products
// (Amazon price >= $19.00 and a spread after duty and fees of at least 20%) ranked by that spread, the products
// that reach 20% on the plain spread but no longer after duty (with why), the user's revealed glitches, and the
// reveal itself, the only place a glitch-mode credit is spent. Who may reveal is glitchModeAccess's call; what a
// product qualifies for and how the spreads are computed is app/domain/glitch-mode/glitch.ts, the landed cost
// glitch-landed.server.ts. Every query is scoped to the user; the candidates are read through the partial
// expression index of migration 007 (plain spread of 20% or more), never the whole catalogue.
import type { Prisma } from "@prisma/client";
import { AppError } from "~/domain/errors";
import { isUniqueViolation, parseStringList, readerFor, type Db } from "~/db.server";
import { creditCost, creditsUpsellOpen, isUnlimited, renderCredits } from "~/domain/billing/credits";
import {
  belowBeforeDutyReason,
  GLITCH_FEATURE,
  GLITCH_MIN_AMAZON_PRICE_CENTS,
  GLITCH_MIN_SPREAD_PERCENT,
  GLITCH_PAGE_SIZE,
  glitchQualifies,
  glitchRevealKey,
  glitchSpread,
  notQualifyingReason,
  plainSpreadReaches,
  spreadExplanation,
} from "~/domain/glitch-mode/glitch";
import type { PaidStateInput } from "~/domain/billing/billing";
import { endedLayersSentence } from "~/domain/landed-cost/landed-cost";
import { glitchModeAccess } from "~/domain/products/research-access";
import * as credits from "~/services/billing/credits.server";
import { glitchLandedOf, glitchRankFiguresOf, type GlitchCandidate, type GlitchLandedView } from "~/services/glitch-mode/landed.server";
import { tariffTableName } from "~/services/landed-cost/tariffs.server";

export type { GlitchLandedView } from "~/services/glitch-mode/landed.server";

/** The user fields glitch mode needs: the paid state, and the trial flags. */
export type GlitchUser = PaidStateInput & { id: string; trialing: boolean; usedGlitchModeOnTrial: boolean };

export interface GlitchModeDeps {
  db: Db;
}

// The literal threshold and expression must match the index's (migration 007) for SQLite to use it.
const SPREAD_SQL = `("amazonPriceCents" - "costCents" - "shippingCents")`;
// A product whose supplier cost is unknown has no spread to rank (docs/decisions/026); the extra term
// still lets SQLite use the partial index, whose condition it implies.
const QUALIFIES_SQL = `"amazonPriceCents" >= ${GLITCH_MIN_AMAZON_PRICE_CENTS} AND "costCents" IS NOT NULL`;
// The candidates: a plain spread of at least 20% (the spread after duty is never larger). Their landed figures
// decide the ranking, so every candidate is read; the count of those under 20% before duty stays index-only.
const CANDIDATES_SQL = `SELECT "id", "objectID", "amazonPriceCents", "costCents", "shippingCents", "niches", "supplierName", "supplierUrl"
  FROM "Product" WHERE ${QUALIFIES_SQL} AND ${SPREAD_SQL} * 100 >= ${GLITCH_MIN_SPREAD_PERCENT} * "amazonPriceCents"
  ORDER BY ${SPREAD_SQL} DESC, "id" ASC`;
const QUALIFYING_COUNT_SQL = `SELECT count(*) AS "n" FROM "Product" WHERE ${QUALIFIES_SQL}`;
/** How many of the products that no longer qualify after duty the page lists (largest spread before duty first). */
export const NO_LONGER_SHOWN = 24;

/** What a reveal copies from the product into the user's glitch. */
const snapshotSelect = {
  title: true,
  supplierName: true,
  supplierUrl: true,
  amazonPriceCents: true,
  costCents: true,
  shippingCents: true,
} as const;

const glitchSelect = { ...snapshotSelect, productObjectID: true, numbersUpdatedAt: true, revealedAt: true } as const;

type GlitchRow = Prisma.GlitchGetPayload<{ select: typeof glitchSelect }>;

/** A revealed glitch as both surfaces and the API show it: the numbers as they were at reveal time. */
export interface GlitchView {
  objectID: string;
  title: string;
  supplier: { name: string | null; url: string | null };
  amazonPriceCents: number;
  costCents: number;
  shippingCents: number;
  spreadCents: number;
  spreadPercent: number;
  hasSpread: boolean;
  /** "Amazon $49.99 − cost $8.20 − shipping $3.00 (estimate) = $38.79, 78% of Amazon price" */
  explanation: string;
  /** Where anyone can check the Amazon side for themselves. */
  amazonSearchUrl: string;
  /** When the numbers were last updated in the catalogue, as of the reveal. */
  numbersUpdatedAt: string;
  revealedAt: string;
  /**
   * The spread after duty and fees of these numbers with today's duty layers (decision 066); null when the
   * product is gone from the catalogue or its code has no duty rate loaded.
   */
  landed: GlitchLandedView | null;
}

/** One row of the ranked list. The Amazon price is shown only to those who may reveal. */
export interface RankedGlitch {
  rank: number;
  objectID: string;
  title: string;
  image: string | null;
  amazonPriceCents: number | null;
  revealed: boolean;
  /** Sample data (the generated or imported catalogue), labelled as such on the page (issue 25). */
  sampleData: boolean;
  /** False when no duty rate is loaded for its code: ranked on the plain spread, and the page says so. */
  dutyIncluded: boolean;
}

/** A product whose plain spread reaches 20% but whose spread after duty and fees does not, and why. */
export interface NoLongerGlitch {
  objectID: string;
  title: string;
  image: string | null;
  sampleData: boolean;
  /** The figures and the reason; null without paid access (titles only, as the ranked list). */
  landed: GlitchLandedView | null;
}

export interface GlitchBalance {
  feature: typeof GLITCH_FEATURE;
  /** What one reveal costs. */
  cost: number;
  credits: number;
  unlimited: boolean;
  /** Show the counter (seed render-credits flag): every balance but an unlimited one. */
  renderCredits: boolean;
  /** The credits upsell opens at exactly 0 (seed §4). */
  upsell: boolean;
}

/** A revealed glitch. Refusals are AppErrors: 402 { upsell, feature, cost, remaining }, 403, 404, 409, 422. */
export type Revealed = { glitch: GlitchView; charged: boolean; balance: GlitchBalance };

export function toGlitchView(row: GlitchRow, landed: GlitchLandedView | null = null): GlitchView {
  const numbers = { amazonPriceCents: row.amazonPriceCents, costCents: row.costCents, shippingCents: row.shippingCents };
  const spread = glitchSpread(numbers);
  return {
    objectID: row.productObjectID,
    title: row.title,
    supplier: { name: row.supplierName, url: row.supplierUrl },
    ...numbers,
    ...spread,
    explanation: spreadExplanation(numbers),
    amazonSearchUrl: `https://www.amazon.com/s?k=${encodeURIComponent(row.title)}`,
    numbersUpdatedAt: row.numbersUpdatedAt.toISOString(),
    revealedAt: row.revealedAt.toISOString(),
    landed,
  };
}

function balanceOf(credits: number): GlitchBalance {
  return {
    feature: GLITCH_FEATURE,
    cost: creditCost(GLITCH_FEATURE),
    credits,
    unlimited: isUnlimited(credits),
    renderCredits: renderCredits(credits),
    upsell: creditsUpsellOpen(credits),
  };
}

export function createGlitchMode(deps: GlitchModeDeps) {
  const { db } = deps;

  async function balance(userId: string): Promise<GlitchBalance> {
    return balanceOf(await credits.getBalance(db, userId, GLITCH_FEATURE));
  }

  /** Glitch views of kept snapshots, each with its spread after duty and fees on today's layers. */
  async function viewsOf(rows: GlitchRow[]): Promise<GlitchView[]> {
    if (rows.length === 0) return [];
    const products = await db.product.findMany({
      where: { objectID: { in: rows.map((r) => r.productObjectID) } },
      select: { id: true, objectID: true, niches: true },
    });
    const byObjectID = new Map(products.map((p) => [p.objectID, p]));
    const candidates: GlitchCandidate[] = rows.flatMap((r) => {
      const p = byObjectID.get(r.productObjectID);
      // The snapshot's numbers and supplier, the product's niches (for its code).
      return p ? [{ id: p.id, objectID: r.productObjectID, niches: p.niches, supplierName: r.supplierName, supplierUrl: r.supplierUrl, amazonPriceCents: r.amazonPriceCents, costCents: r.costCents, shippingCents: r.shippingCents }] : [];
    });
    const landed = await glitchLandedOf(db, candidates);
    return rows.map((r) => toGlitchView(r, landed.get(r.productObjectID) ?? null));
  }

  /** The user's revealed glitches, newest first. */
  async function listRevealed(userId: string, take = 100): Promise<GlitchView[]> {
    const rows = await db.glitch.findMany({
      where: { userId },
      orderBy: [{ revealedAt: "desc" }, { id: "desc" }],
      take,
      select: glitchSelect,
    });
    return viewsOf(rows);
  }

  /**
   * Every product whose plain spread reaches 20%, with its spread after duty and fees: the glitches ranked by that
   * spread (largest first, ties by catalogue order; a product without a duty rate on its plain spread), and those
   * that no longer reach 20% after duty, by their plain spread.
   */
  async function ranking() {
    // Every candidate is read: a prepared statement on the SqlReader where there is one (decision 039), Prisma else.
    const reader = readerFor(db);
    const raw: unknown[][] = reader
      ? await reader.rows(CANDIDATES_SQL)
      : (await db.$queryRawUnsafe<Record<string, unknown>[]>(CANDIDATES_SQL)).map((r) => Object.values(r));
    const text = (v: unknown) => (v === null ? null : String(v));
    const candidates: GlitchCandidate[] = raw.map(([id, objectID, amazon, cost, shipping, niches, supplierName, supplierUrl]) => ({
      id: Number(id),
      objectID: String(objectID),
      amazonPriceCents: Number(amazon),
      costCents: Number(cost),
      shippingCents: Number(shipping),
      niches: String(niches),
      supplierName: text(supplierName),
      supplierUrl: text(supplierUrl),
    }));
    const landed = await glitchRankFiguresOf(db, candidates);
    const qualifying: { c: GlitchCandidate; spreadCents: number }[] = [];
    const noLonger: GlitchCandidate[] = [];
    for (const c of candidates) {
      const l = landed.get(c.objectID);
      if (!l) qualifying.push({ c, spreadCents: c.amazonPriceCents - c.costCents - c.shippingCents });
      else if (l.qualifies) qualifying.push({ c, spreadCents: l.spreadCents });
      else noLonger.push(c);
    }
    qualifying.sort((a, b) => b.spreadCents - a.spreadCents || a.c.id - b.c.id);
    // What the page says once about its duty (decision 081): the day, and the layers that ended and are not counted.
    const notCounted = endedLayersSentence([...landed.values()].flatMap((l) => l.ended));
    const asOf = landed.values().next().value?.asOf ?? null;
    return { qualifying, noLonger, ranked: landed, candidates: candidates.length, notCounted, asOf };
  }

  async function cardsOf(objectIDs: string[]) {
    const rows = await db.product.findMany({ where: { objectID: { in: objectIDs } }, select: { objectID: true, title: true, images: true, source: true } });
    return new Map(rows.map((r) => [r.objectID, { title: r.title, image: parseStringList(r.images)[0] ?? null, sampleData: r.source === "catalog" }]));
  }

  /** How many products have an Amazon price of $19.00 or more and a known cost: an index-only count. */
  async function countPriced(): Promise<number> {
    const [row] = await db.$queryRawUnsafe<{ n: number | bigint }[]>(QUALIFYING_COUNT_SQL);
    return Number(row?.n ?? 0);
  }

  /**
   * One page of the glitches ranked by their spread after duty and fees, how many there are, the products that no
   * longer qualify after duty (the first NO_LONGER_SHOWN, each with why), how many never reached 20% before duty,
   * what the duty assumes (its day, table and the layers no longer counted; said once, decision 081), the user's revealed glitches and glitch-mode balance. Without
   * paid access the rows carry titles only.
   */
  async function list(user: GlitchUser, page: number) {
    const access = glitchModeAccess(user);
    const offset = (page - 1) * GLITCH_PAGE_SIZE;
    const [priced, ranked, revealed, credits] = await Promise.all([countPriced(), ranking(), listRevealed(user.id), balance(user.id)]);
    const pageRows = ranked.qualifying.slice(offset, offset + GLITCH_PAGE_SIZE);
    const noLongerRows = ranked.noLonger.slice(0, NO_LONGER_SHOWN);
    const cards = await cardsOf([...pageRows, ...noLongerRows.map((c) => ({ c }))].map((r) => r.c.objectID));
    // The sentences and breakdowns only for the greyed rows shown (the ranked rows show no figures until revealed).
    const shownLanded = access.reveal ? await glitchLandedOf(db, noLongerRows) : new Map<string, GlitchLandedView>();
    const revealedIds = new Set(revealed.map((g) => g.objectID));
    const total = ranked.qualifying.length;
    const items: RankedGlitch[] = pageRows.map(({ c }, i) => ({
      rank: offset + i + 1,
      objectID: c.objectID,
      ...cards.get(c.objectID)!,
      amazonPriceCents: access.reveal ? c.amazonPriceCents : null,
      revealed: revealedIds.has(c.objectID),
      dutyIncluded: ranked.ranked.has(c.objectID),
    }));
    const noLonger: NoLongerGlitch[] = noLongerRows.map((c) => ({
      objectID: c.objectID,
      ...cards.get(c.objectID)!,
      landed: access.reveal ? (shownLanded.get(c.objectID) ?? null) : null,
    }));
    return {
      access: { reveal: access.reveal, lockedReason: access.lockedReason },
      minAmazonPriceCents: GLITCH_MIN_AMAZON_PRICE_CENTS,
      minSpreadPercent: GLITCH_MIN_SPREAD_PERCENT,
      total,
      page,
      pageSize: GLITCH_PAGE_SIZE,
      pageCount: Math.max(1, Math.ceil(total / GLITCH_PAGE_SIZE)),
      hasMore: offset + pageRows.length < total,
      items,
      noLonger: { total: ranked.noLonger.length, items: noLonger },
      /** Amazon price of $19.00 or more and a known cost, but a spread under 20% before any duty: not listed. */
      belowBeforeDuty: priced - ranked.candidates,
      /** Said once on the page: the day of the duty layers, the table they come from, the layers that ended (not counted). */
      duty: { asOf: ranked.asOf, table: tariffTableName(), notCounted: ranked.notCounted },
      revealed,
      balance: credits,
    };
  }

  async function existing(userId: string, objectID: string) {
    return db.glitch.findUnique({ where: { userId_productObjectID: { userId, productObjectID: objectID } }, select: glitchSelect });
  }

  /**
   * Reveals one product's glitch: supplier, cost, shipping, Amazon price, spread and when the numbers
   * were updated. 1 glitch-mode credit, spent through credits.spend under one key per user + product,
   * so a second reveal (a double click, a retry, the other surface) charges nothing and shows the kept
   * snapshot. If the snapshot cannot be written after the spend, the credit is not refunded: the next
   * reveal replays the same spend and writes it, still charged once.
   */
  async function reveal(user: GlitchUser, objectID: string): Promise<Revealed> {
    const access = glitchModeAccess(user);
    if (!access.reveal) throw new AppError(403, access.lockedReason!);

    const kept = await existing(user.id, objectID);
    if (kept) return { glitch: (await viewsOf([kept]))[0], charged: false, balance: await balance(user.id) };

    const product = await db.product.findUnique({
      where: { objectID },
      select: { ...snapshotSelect, id: true, niches: true, objectID: true, lastUpdatedAt: true },
    });
    if (!product) throw new AppError(404, `No product with objectID ${objectID}.`);
    if (!glitchQualifies(product.amazonPriceCents)) {
      throw new AppError(422, notQualifyingReason(product.amazonPriceCents)!);
    }
    const costCents = product.costCents;
    if (costCents === null) {
      throw new AppError(422, "This product's supplier cost is unknown, so it has no spread to reveal. Nothing was charged.");
    }
    // Only glitches are sold: a spread under 20% before duty, or after duty and fees, is refused with why.
    const candidate = { ...product, amazonPriceCents: product.amazonPriceCents, costCents };
    if (!plainSpreadReaches(candidate)) throw new AppError(422, `${belowBeforeDutyReason(candidate)} Nothing was charged.`);
    const landed = (await glitchLandedOf(db, [candidate])).get(objectID) ?? null;
    if (landed && !landed.qualifies) throw new AppError(422, `${landed.reason} Nothing was charged.`);

    const spent = await credits.spend(
      db,
      {
        userId: user.id,
        feature: GLITCH_FEATURE,
        idempotencyKey: glitchRevealKey(user.id, objectID),
        reason: `glitch mode: revealed ${objectID}`,
      },
      // Glitch mode's upsell opens only at 0 credits (seed §4), not at every short balance.
      (short, message) => new AppError(402, message, { ...short, upsell: creditsUpsellOpen(short.remaining) }),
    );

    const numbers = {
      amazonPriceCents: product.amazonPriceCents,
      costCents,
      shippingCents: product.shippingCents,
    };
    let row: GlitchRow;
    try {
      row = await db.glitch.create({
        data: {
          userId: user.id,
          productObjectID: product.objectID,
          title: product.title,
          supplierName: product.supplierName,
          supplierUrl: product.supplierUrl,
          ...numbers,
          spreadCents: glitchSpread(numbers).spreadCents,
          numbersUpdatedAt: product.lastUpdatedAt,
          ledgerId: spent.ledgerId,
        },
        select: glitchSelect,
      });
    } catch (error) {
      // The same reveal at the same moment (both replay one spend): the first snapshot is the one kept.
      if (!isUniqueViolation(error)) throw error;
      row = (await existing(user.id, objectID))!;
    }
    if (user.trialing && !user.usedGlitchModeOnTrial) {
      await db.user.update({ where: { id: user.id }, data: { usedGlitchModeOnTrial: true }, select: { id: true } });
    }
    // A replayed spend reports the balance of its time; the current one is read instead.
    const after = spent.replayed ? await balance(user.id) : balanceOf(spent.remaining);
    return { glitch: toGlitchView(row, landed), charged: !spent.replayed, balance: after };
  }

  return { list, listRevealed, reveal, balance };
}

export type GlitchMode = ReturnType<typeof createGlitchMode>;
