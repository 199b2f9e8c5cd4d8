// Glitch mode (seed glitches, glitch_mode_products; docs/decisions/018): the qualifying products
// (Amazon price >= $19.00) ranked by their spread, the user's revealed glitches, and the reveal itself,
// the only place a glitch-mode credit is spent. Who may reveal is glitchModeAccess's call; what a
// product qualifies for and how the spread is computed is app/domain/glitch.ts. Every query is scoped
// to the user; the ranking reads the partial expression index of migration 007, never the catalogue.
import type { Prisma } from "@prisma/client";
import { AppError } from "~/domain/errors";
import { isUniqueViolation, parseStringList, type Db } from "~/db.server";
import { creditCost, creditsUpsellOpen, isUnlimited, renderCredits } from "~/domain/credits";
import {
  GLITCH_FEATURE,
  GLITCH_MIN_AMAZON_PRICE_CENTS,
  GLITCH_PAGE_SIZE,
  glitchQualifies,
  glitchRevealKey,
  glitchSpread,
  notQualifyingReason,
  spreadExplanation,
} from "~/domain/glitch";
import type { PaidStateInput } from "~/domain/billing";
import { glitchModeAccess } from "~/domain/research-access";
import * as credits from "~/services/credits.server";

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
const RANKED_PAGE_SQL = `SELECT "objectID", "title", "images", "amazonPriceCents", "source" FROM "Product"
  WHERE ${QUALIFIES_SQL} ORDER BY ${SPREAD_SQL} DESC, "id" ASC LIMIT ? OFFSET ?`;
const QUALIFYING_COUNT_SQL = `SELECT count(*) AS "n" FROM "Product" WHERE ${QUALIFIES_SQL}`;

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

export function toGlitchView(row: GlitchRow): GlitchView {
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

  /** The user's revealed glitches, newest first. */
  async function listRevealed(userId: string, take = 100): Promise<GlitchView[]> {
    const rows = await db.glitch.findMany({
      where: { userId },
      orderBy: [{ revealedAt: "desc" }, { id: "desc" }],
      take,
      select: glitchSelect,
    });
    return rows.map(toGlitchView);
  }

  /** How many products qualify: an index-only count of the qualifying rows. */
  async function countQualifying(): Promise<number> {
    const [row] = await db.$queryRawUnsafe<{ n: number | bigint }[]>(QUALIFYING_COUNT_SQL);
    return Number(row?.n ?? 0);
  }

  /**
   * One page of qualifying products ranked by spread (largest first, ties by catalogue order), the
   * count, the user's revealed glitches and glitch-mode balance. Without paid access the rows carry
   * titles only.
   */
  async function list(user: GlitchUser, page: number) {
    const access = glitchModeAccess(user);
    const offset = (page - 1) * GLITCH_PAGE_SIZE;
    const [total, rows, revealed, credits] = await Promise.all([
      countQualifying(),
      db.$queryRawUnsafe<{ objectID: string; title: string; images: string; amazonPriceCents: number | bigint; source: string }[]>(
        RANKED_PAGE_SQL,
        GLITCH_PAGE_SIZE,
        offset,
      ),
      listRevealed(user.id),
      balance(user.id),
    ]);
    const revealedIds = new Set(revealed.map((g) => g.objectID));
    const items: RankedGlitch[] = rows.map((r, i) => ({
      rank: offset + i + 1,
      objectID: r.objectID,
      title: r.title,
      image: parseStringList(r.images)[0] ?? null,
      amazonPriceCents: access.reveal ? Number(r.amazonPriceCents) : null,
      revealed: revealedIds.has(r.objectID),
      sampleData: r.source === "catalog",
    }));
    return {
      access: { reveal: access.reveal, lockedReason: access.lockedReason },
      minAmazonPriceCents: GLITCH_MIN_AMAZON_PRICE_CENTS,
      total,
      page,
      pageSize: GLITCH_PAGE_SIZE,
      pageCount: Math.max(1, Math.ceil(total / GLITCH_PAGE_SIZE)),
      hasMore: offset + rows.length < total,
      items,
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
    if (kept) return { glitch: toGlitchView(kept), charged: false, balance: await balance(user.id) };

    const product = await db.product.findUnique({
      where: { objectID },
      select: { ...snapshotSelect, objectID: true, lastUpdatedAt: true },
    });
    if (!product) throw new AppError(404, `No product with objectID ${objectID}.`);
    if (!glitchQualifies(product.amazonPriceCents)) {
      throw new AppError(422, notQualifyingReason(product.amazonPriceCents)!);
    }
    const costCents = product.costCents;
    if (costCents === null) {
      throw new AppError(422, "This product's supplier cost is unknown, so it has no spread to reveal. Nothing was charged.");
    }

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
    return { glitch: toGlitchView(row), charged: !spent.replayed, balance: after };
  }

  return { list, listRevealed, reveal, balance };
}

export type GlitchMode = ReturnType<typeof createGlitchMode>;
