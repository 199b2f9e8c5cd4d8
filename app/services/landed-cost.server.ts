// What one product really earns for one seller (decisions 052, 081): its HTS code and origin (the seller's own,
// kept with their saved product, else guessed: the code from the product's title and type against the HTS lines the
// table carries, falling back to its niche; the origin from its supplier), the dated duty layers in force for them,
// and landed cost and profit from app/domain/landed-cost/landed-cost.ts. Also stores the seller's code and origin.
//
// The many-product readers (grid cards, glitch mode, exports, the stored margins of the grid's filter) keep the niche's
// code unless the seller picked one: their figures are the same for every product of a niche and stored by niche
// (decisions 065, 066); the title's guess is the product page's and the profit answer's, with its alternatives.
import { namedRow, parseStringList, readerFor, textOrNull, type Db } from "~/db.server";
import { AppError } from "~/domain/errors";
import {
  CURRENCY,
  dayOf,
  DEFAULT_RESERVES,
  dutyAtValue,
  dutyFor,
  FEE_PRESETS,
  feeSettings,
  formatHtsCode,
  guessHtsCode,
  originFromSupplier,
  parseHtsCode,
  parseOrigin,
  priceForTargetMargin,
  profitOf,
  RESERVE_SOURCES,
  type Duty,
  type EntryType,
  type TariffRow,
  type FeePresetId,
} from "~/domain/landed-cost/landed-cost";
import { guessHtsFromWords, type HtsConfidence } from "~/domain/landed-cost/hts-match";
import { marginAfterDutyAndFeesBps } from "~/domain/landed-cost/margin";
import { currencyInWords, priceInDollars } from "~/domain/catalogue/measured-product";
import type { ResearchAccess } from "~/domain/products/research-access";
import { htsLineIndex, nicheHtsTable, tariffRowsFor, tariffRowsForMany, tariffTableName } from "~/services/landed-cost/tariffs.server";

export interface ProfitQuery {
  priceCents?: number;
  cpaCents?: number;
  /** The seller's cost when the catalogue has none (or to try another). */
  costCents?: number;
  shippingCents?: number;
  hts?: string;
  origin?: string;
  entry?: EntryType;
  fees?: FeePresetId;
  feeRateBp?: number;
  feeFixedCents?: number;
  refundRateBp?: number;
  chargebackRateBp?: number;
  targetMarginBps?: number;
}

const productSelect = {
  id: true,
  title: true,
  costCents: true,
  priceCents: true,
  priceCurrency: true,
  shippingCents: true,
  niches: true,
  supplierName: true,
  supplierUrl: true,
} as const;

type ProductRow = { id: number; title: string; costCents: number | null; priceCents: number; priceCurrency: string | null; shippingCents: number; niches: string; supplierName: string | null; supplierUrl: string | null };

// The product and the seller's own code and origin are read on every product page and grid page: as prepared
// statements on the SqlReader rather than Prisma queries (each ~0.6 ms of CPU; docs/decisions/076), with Prisma
// for a client that has no reader (a transaction's). Same rows, same types (tests/integration/landed-cost/landed-cost-reads.test.ts).
const PRODUCT_COLUMNS = Object.keys(productSelect) as (keyof typeof productSelect)[];
/** The columns of productSelect, in its order, then `extra`. */
const productSql = (where: string, extra: string[] = []) =>
  `SELECT ${[...PRODUCT_COLUMNS, ...extra].map((c) => `"${c}"`).join(", ")} FROM "Product" WHERE ${where}`;

const PRODUCT_BY_OBJECT_ID_SQL = productSql(`"objectID" = ?`);

/** The driver's values for productSql's columns (productSelect's, in its order) as Prisma types them. */
function productRow(row: unknown[]): ProductRow {
  const r = namedRow(PRODUCT_COLUMNS, row);
  return {
    id: Number(r.id),
    title: String(r.title),
    costCents: r.costCents === null ? null : Number(r.costCents),
    priceCents: Number(r.priceCents),
    priceCurrency: textOrNull(r.priceCurrency),
    shippingCents: Number(r.shippingCents),
    niches: String(r.niches),
    supplierName: textOrNull(r.supplierName),
    supplierUrl: textOrNull(r.supplierUrl),
  };
}

/** Products by objectID with what their landed cost needs, in no particular order. */
async function productRowsByObjectID(db: Db, objectIDs: readonly string[]): Promise<(ProductRow & { objectID: string })[]> {
  const reader = readerFor(db);
  if (!reader) return db.product.findMany({ where: { objectID: { in: [...objectIDs] } }, select: { ...productSelect, objectID: true } });
  const out: (ProductRow & { objectID: string })[] = [];
  for (let i = 0; i < objectIDs.length; i += 100) {
    const chunk = objectIDs.slice(i, i + 100);
    const sql = productSql(`"objectID" IN (${chunk.map(() => "?").join(",")})`, ["objectID"]);
    for (const row of await reader.rows(sql, chunk)) out.push({ ...productRow(row), objectID: String(row[PRODUCT_COLUMNS.length]) });
  }
  return out;
}

async function findProduct(db: Db, objectID: string): Promise<ProductRow> {
  const reader = readerFor(db);
  let product: ProductRow | null;
  if (reader) {
    const row = await reader.row(PRODUCT_BY_OBJECT_ID_SQL, [objectID]);
    product = row ? productRow(row) : null;
  } else {
    product = await db.product.findUnique({ where: { objectID }, select: productSelect });
  }
  if (!product) throw new AppError(404, "We could not find that product.");
  return product;
}

type OwnTariffChoice = { htsCode: string | null; originCountry: string | null };

/** The seller's own code and origin for one saved product, or null when it is not saved. */
async function ownTariffChoice(db: Db, userId: string, productId: number): Promise<OwnTariffChoice | null> {
  const reader = readerFor(db);
  if (!reader) return db.savedProduct.findUnique({ where: { userId_productId: { userId, productId } }, select: { htsCode: true, originCountry: true } });
  const row = await reader.row(`SELECT "htsCode", "originCountry" FROM "SavedProduct" WHERE "userId" = ? AND "productId" = ?`, [userId, productId]);
  return row ? { htsCode: textOrNull(row[0]), originCountry: textOrNull(row[1]) } : null;
}

/** The seller's saved products that carry their own code or origin. */
async function ownTariffChoices(db: Db, userId: string): Promise<(OwnTariffChoice & { productId: number })[]> {
  const reader = readerFor(db);
  if (!reader) {
    return db.savedProduct.findMany({ where: { userId, OR: [{ htsCode: { not: null } }, { originCountry: { not: null } }] }, select: { productId: true, htsCode: true, originCountry: true } });
  }
  const rows = await reader.rows(`SELECT "productId", "htsCode", "originCountry" FROM "SavedProduct" WHERE "userId" = ? AND ("htsCode" IS NOT NULL OR "originCountry" IS NOT NULL)`, [userId]);
  return rows.map(([productId, htsCode, originCountry]) => ({ productId: Number(productId), htsCode: textOrNull(htsCode), originCountry: textOrNull(originCountry) }));
}

/** How many codes the seller is offered to pick from (the guess and its nearest alternatives). */
const HTS_CHOICES = 5;

export interface HtsGuessView {
  /** The code the title's words point to, or the niche's when they match nothing. */
  htsCode: string;
  confidence: HtsConfidence;
  reason: string;
  /** The nearest codes, best first (the guess among them), each with its HTS text, for the seller to pick from. */
  alternatives: { htsCode: string; description: string; scorePercent: number; section301Checked: boolean }[];
}

/** The HTS code guessed from a product's title and type (niches), with how sure, and the nearest codes (decision 081). */
export function htsGuessFor(product: { title: string; niches: readonly string[] }): HtsGuessView | null {
  const { index, unchecked301 } = htsLineIndex();
  const guess = guessHtsFromWords(index, { title: product.title, type: product.niches }, HTS_CHOICES);
  const alternatives = [guess.best, ...guess.alternatives]
    .filter((c) => c !== null)
    .map((c) => ({ htsCode: c.htsCode, description: c.description, scorePercent: Math.round(c.score * 100), section301Checked: !unchecked301.has(c.htsCode) }));
  if (guess.best && guess.confidence !== "low") return { htsCode: guess.best.htsCode, confidence: guess.confidence, reason: guess.reason, alternatives };
  const niche = guessHtsCode(product.niches, nicheHtsTable());
  if (!niche) return null;
  const nicheCode = formatHtsCode(parseHtsCode(niche.htsCode));
  return {
    htsCode: nicheCode,
    confidence: "low",
    reason: `${guess.reason} So the code is ${niche.reason}.`,
    alternatives: alternatives.some((a) => a.htsCode === nicheCode)
      ? alternatives
      : [{ htsCode: nicheCode, description: niche.reason, scorePercent: 0, section301Checked: !unchecked301.has(nicheCode) }, ...alternatives].slice(0, HTS_CHOICES),
  };
}

/** Where a code guessed from the title came from, as the product page and the API's profit answer say it. */
function titleGuessReason(guess: HtsGuessView): string {
  return `guessed from the product's title (${guess.confidence} confidence): ${guess.reason}`;
}

/** The HTS code and origin used for this seller's product, each with where it came from, and the title's guess. */
async function tariffChoice(db: Db, userId: string, product: ProductRow, query: ProfitQuery) {
  const saved = await ownTariffChoice(db, userId, product.id);
  const guess = htsGuessFor({ title: product.title, niches: parseStringList(product.niches) });
  let hts: { digits: string; reason: string };
  if (query.hts !== undefined) hts = { digits: parseHtsCode(query.hts), reason: "the code you asked for" };
  else if (saved?.htsCode) hts = { digits: parseHtsCode(saved.htsCode), reason: "your code, kept with your saved product" };
  else {
    if (!guess) throw new AppError(422, "We cannot guess an HTS code for this product: give one (hts=3924.10.40).");
    hts = { digits: parseHtsCode(guess.htsCode), reason: titleGuessReason(guess) };
  }
  let origin: { code: string; reason: string };
  if (query.origin !== undefined) origin = { code: parseOrigin(query.origin), reason: "the origin you asked for" };
  else if (saved?.originCountry) origin = { code: saved.originCountry, reason: "your origin, kept with your saved product" };
  else {
    const o = originFromSupplier(product.supplierName, product.supplierUrl);
    origin = { code: o.origin, reason: o.reason };
  }
  return { hts, origin, guess };
}

export async function productProfit(db: Db, input: { userId: string; objectID: string; access: ResearchAccess; query: ProfitQuery; now?: Date }) {
  if (!input.access.insights) throw new AppError(403, input.access.lockedReason ?? "The profit calculator is part of every plan.");
  const product = await findProduct(db, input.objectID);
  const q = input.query;
  const costCents = q.costCents ?? product.costCents;
  if (costCents === null || costCents === undefined) {
    throw new AppError(422, "Add your cost: we do not know this product's supplier cost (send costCents).", { needs: "costCents" });
  }
  if (q.priceCents === undefined && product.priceCurrency !== null) {
    // Its price is in the stores' currency (decision 059): read as dollars it would be a made-up figure.
    throw new AppError(422, `This product is priced in ${currencyInWords(product.priceCurrency)}, not US dollars: send priceCents with your selling price in US dollars.`, { needs: "priceCents" });
  }
  const priceCents = q.priceCents ?? product.priceCents;
  if (priceCents <= 0) throw new AppError(400, "priceCents must be a whole number of cents above 0.");
  const shippingCents = q.shippingCents ?? product.shippingCents;
  const { hts, origin, guess } = await tariffChoice(db, input.userId, product, q);
  const asOf = dayOf(input.now ?? new Date());
  const duty = dutyFor({ rows: await tariffRowsFor(db, hts.digits), hts: hts.digits, origin: origin.code, asOf, entry: q.entry, valueCents: costCents });
  const fees = feeSettings(q.fees, { rateBp: q.feeRateBp, fixedCents: q.feeFixedCents });
  const reserves = { ...DEFAULT_RESERVES, ...(q.refundRateBp !== undefined ? { refundRateBp: q.refundRateBp } : {}), ...(q.chargebackRateBp !== undefined ? { chargebackRateBp: q.chargebackRateBp } : {}) };
  const profitInput = { costCents, shippingCents, dutyCents: duty.dutyCents, fees, reserves, cpaCents: q.cpaCents ?? 0 };
  const profit = profitOf({ ...profitInput, priceCents });
  return {
    currency: CURRENCY,
    priceCents,
    cpaCents: q.cpaCents ?? 0,
    costFrom: q.costCents !== undefined ? ("yours" as const) : ("catalogue" as const),
    landedCostCents: profit.landedCostCents,
    parts: profit.parts,
    duty: {
      htsCode: duty.htsCode,
      htsReason: hts.reason,
      origin: duty.origin,
      originReason: origin.reason,
      entry: duty.entry,
      ratePercent: duty.ratePercent,
      dutyCents: duty.dutyCents,
      layers: duty.layers,
      asOf: duty.asOf,
      table: tariffTableName(),
      explanation: duty.explanation,
      ended: duty.ended,
    },
    htsGuess: guess,
    fees: { ...fees, label: FEE_PRESETS[fees.preset].label, source: FEE_PRESETS[fees.preset].source, edited: q.feeRateBp !== undefined || q.feeFixedCents !== undefined },
    reserves: { ...reserves, ...profit.reserves, sources: RESERVE_SOURCES },
    netProfitCents: profit.netProfitCents,
    marginBps: profit.marginBps,
    breakEvenCpaCents: profit.breakEvenCpaCents,
    breakEvenRoas: profit.breakEvenRoas,
    ...(q.targetMarginBps !== undefined
      ? { targetMarginBps: q.targetMarginBps, priceForTargetMarginCents: priceForTargetMargin(profitInput, q.targetMarginBps) }
      : {}),
    rounding: "Each percentage (each duty layer, the fee, each reserve) is rounded half up to the cent, then added. Break-even ROAS is not rounded.",
  };
}

export type ProductProfit = Awaited<ReturnType<typeof productProfit>>;

/**
 * What the product page's calculator needs: the duty layers for this seller's code and origin today (the page
 * recomputes the duty for whatever cost the seller types), fees and reserves with their sources. null without
 * paid access; `unavailable` with the sentence when no duty can be figured (e.g. no MFN rate for the code).
 */
export async function landedCostView(db: Db, input: { userId: string; objectID: string; access: ResearchAccess; costCents: number | null; now?: Date }) {
  if (!input.access.insights) return null;
  try {
    // An unknown cost still gets the layers: the duty on $0 is only the per-item part, and the page refigures it.
    // The view keeps the layers, fee settings and reserve rates, none of which depend on the price: a nominal one
    // keeps a product priced in another currency (decision 059) from being refused; the page asks for a dollar price.
    const query = { ...(input.costCents === null ? { costCents: 0 } : {}), priceCents: 100 };
    const answer = await productProfit(db, { ...input, query });
    return { duty: answer.duty, reserves: answer.reserves, fees: answer.fees, htsGuess: answer.htsGuess, unavailable: null };
  } catch (error) {
    if (error instanceof AppError && error.status === 422) return { duty: null, reserves: null, fees: null, htsGuess: null, unavailable: error.message };
    throw error;
  }
}

export type LandedCostView = NonNullable<Awaited<ReturnType<typeof landedCostView>>>;

/** Keeps the seller's own HTS code and origin with their saved product (null puts back the guess; left out, unchanged). */
export async function setTariffChoice(db: Db, input: { userId: string; objectID: string; htsCode?: string | null; origin?: string | null }) {
  const product = await findProduct(db, input.objectID);
  const data: { htsCode?: string | null; originCountry?: string | null } = {};
  if (input.htsCode !== undefined) data.htsCode = input.htsCode === null ? null : formatHtsCode(parseHtsCode(input.htsCode));
  if (input.origin !== undefined) data.originCountry = input.origin === null ? null : parseOrigin(input.origin);
  const updated = await db.savedProduct.updateMany({ where: { userId: input.userId, productId: product.id }, data });
  if (updated.count === 0) throw new AppError(409, "Save this product first: your HTS code and origin are kept with your saved product.");
  const kept = await ownTariffChoice(db, input.userId, product.id);
  return { objectID: input.objectID, htsCode: kept?.htsCode ?? null, origin: kept?.originCountry ?? null };
}

export interface LandedMargin {
  /** (price - cost - shipping - duty - Shopify Payments fees) / price, basis points. */
  marginBps: number;
  dutyCents: number;
  feesCents: number;
  /** "duty 38.4% = MFN ... as of ...; fees $1.17 (Shopify Payments 2.9% + 30c)" */
  explanation: string;
  /** The day the layers are figured for; a page says it once, with the layers no longer counted (decision 081). */
  asOf: string;
  /** The table the layers come from ("2026 HTS Revision 20 (exported 2026-09-29)"). */
  table: string;
  ended: Duty["ended"];
}

/** A product as the many-product readers (grid cards, exports) pass it in. */
export type LandedProductRow = {
  id: number;
  objectID: string;
  costCents: number | null;
  priceCents: number;
  /** The stores' currency when not dollars (decision 059): such a price gets no figure rather than one read as dollars. */
  priceCurrency?: string | null;
  shippingCents: number;
  niches: string;
  supplierName: string | null;
  supplierUrl: string | null;
  /** Read with `codeFrom: "title"`: the code is guessed from it (and the niches), as on the product page. */
  title?: string;
};

export interface LandedFigures {
  htsCode: string;
  htsReason: string;
  origin: string;
  originReason: string;
  duty: Duty;
  feesCents: number;
  /** Shopify Payments' rate: the fee the figures assume. */
  feeLabel: string;
  /** (price - cost - shipping - duty - fees) / price, basis points: no reserves, no ads (the grid's margin). */
  marginAfterDutyAndFeesBps: number;
  /** With the default reserves (decision 052) and no ad cost. */
  profit: ReturnType<typeof profitOf>;
}

/**
 * Landed cost of many products at once for one seller (grid cards, exports): each product's code and origin as
 * the profit answer chooses them (the seller's own, else the guesses), the layers in force on the day, Shopify
 * Payments' fees and the default reserves, no ad cost. Products without a known cost, or whose code has no MFN
 * rate, are left out (their rows say "Add your cost", or keep their gross margin).
 *
 * A reader, because an export calls it page after page: the seller's own codes are read once (a short list), the
 * tariff rows once per code and the layers once per code and origin, whatever the number of pages.
 *
 * `codeFrom`: without a code of the seller's, "niche" (the default) takes the niche's code, as the many-product
 * readers whose figures are stored per niche code do (decisions 065, 066, 081); "title" guesses it from the product's
 * title and niches exactly as the product page does (htsGuessFor), for a reader of one product the seller looks at
 * (the product-page writer's suggested price, decision 092).
 */
export function landedFiguresReader(db: Db, input: { userId: string; now?: Date; codeFrom?: "niche" | "title" }) {
  const asOf = dayOf(input.now ?? new Date());
  const fees = feeSettings("shopify-payments");
  let own: Promise<Map<number, { htsCode: string | null; originCountry: string | null }>> | null = null;
  const tables = new Map<string, TariffRow[]>();
  const layersFor = new Map<string, Duty | null>();

  return async function figures(rows: readonly LandedProductRow[]): Promise<Map<string, LandedFigures>> {
    const out = new Map<string, LandedFigures>();
    if (rows.length === 0) return out;
    own ??= ownTariffChoices(db, input.userId).then((list) => new Map(list.map((r) => [r.productId, r])));
    const savedBy = await own;
    const priced: Array<{ p: LandedProductRow & { costCents: number }; hts: string; htsReason: string; origin: string; originReason: string }> = [];
    for (const p of rows) {
      if (p.costCents === null || p.priceCents <= 0 || !priceInDollars(p.priceCurrency)) continue;
      const mine = savedBy.get(p.id);
      let hts: { code: string; reason: string } | null = mine?.htsCode ? { code: mine.htsCode, reason: "your code, kept with your saved product" } : null;
      if (!hts && input.codeFrom === "title" && p.title !== undefined) {
        const guess = htsGuessFor({ title: p.title, niches: parseStringList(p.niches) });
        if (guess) hts = { code: guess.htsCode, reason: titleGuessReason(guess) };
      } else if (!hts) {
        const guess = guessHtsCode(parseStringList(p.niches), nicheHtsTable());
        if (guess) hts = { code: guess.htsCode, reason: guess.reason };
      }
      if (!hts) continue;
      const origin = mine?.originCountry
        ? { origin: mine.originCountry, reason: "your origin, kept with your saved product" }
        : originFromSupplier(p.supplierName, p.supplierUrl);
      priced.push({ p: { ...p, costCents: p.costCents }, hts: parseHtsCode(hts.code), htsReason: hts.reason, origin: origin.origin, originReason: origin.reason });
    }
    const missing = [...new Set(priced.map((x) => x.hts))].filter((h) => !tables.has(h));
    if (missing.length > 0) for (const [hts, list] of await tariffRowsForMany(db, missing)) tables.set(hts, list);
    for (const { p, hts, htsReason, origin, originReason } of priced) {
      // The layers depend on the code, origin and day, not the cost: chosen once per pair, then figured on each cost.
      const key = `${hts}|${origin}`;
      if (!layersFor.has(key)) {
        try {
          layersFor.set(key, dutyFor({ rows: tables.get(hts)!, hts, origin, asOf, valueCents: 0 }));
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          layersFor.set(key, null);
        }
      }
      const chosen = layersFor.get(key);
      if (!chosen) continue;
      const duty = dutyAtValue(chosen, p.costCents);
      const profit = profitOf({ priceCents: p.priceCents, costCents: p.costCents, shippingCents: p.shippingCents, dutyCents: duty.dutyCents, fees, reserves: DEFAULT_RESERVES });
      out.set(p.objectID, {
        htsCode: duty.htsCode,
        htsReason,
        origin,
        originReason,
        duty,
        feesCents: profit.parts.feesCents,
        feeLabel: `${FEE_PRESETS[fees.preset].label} 2.9% + 30c`,
        // The same figure the grid's filter and sort store (decision 065), for the seller's own code and origin.
        marginAfterDutyAndFeesBps: marginAfterDutyAndFeesBps({ priceCents: p.priceCents, costCents: p.costCents, shippingCents: p.shippingCents, dutyCents: duty.dutyCents, fees }),
        profit,
      });
    }
    return out;
  };
}

export async function landedFigures(db: Db, input: { userId: string; products: readonly LandedProductRow[]; now?: Date; codeFrom?: "niche" | "title" }): Promise<Map<string, LandedFigures>> {
  return landedFiguresReader(db, input)(input.products);
}

/**
 * Margin after duty and fees for the grid's cards (decision 052): landedFigures for the page's products, without
 * reserves or ads. Products without a known cost, or whose code has no MFN rate, are left out (the card keeps
 * "Add your cost" or its gross margin).
 */
export async function landedMargins(db: Db, input: { userId: string; objectIDs: readonly string[]; access: ResearchAccess; now?: Date }): Promise<Record<string, LandedMargin>> {
  if (!input.access.insights || input.objectIDs.length === 0) return {};
  const rows = await productRowsByObjectID(db, input.objectIDs);
  const figures = await landedFigures(db, { userId: input.userId, products: rows, now: input.now });
  const out: Record<string, LandedMargin> = {};
  for (const [objectID, f] of figures) {
    out[objectID] = {
      marginBps: f.marginAfterDutyAndFeesBps,
      dutyCents: f.duty.dutyCents,
      feesCents: f.feesCents,
      explanation: `${f.duty.explanation}; fees ${(f.feesCents / 100).toFixed(2)} USD (${f.feeLabel})`,
      asOf: f.duty.asOf,
      table: tariffTableName(),
      ended: f.duty.ended,
    };
  }
  return out;
}

/**
 * One product's landed figures in the shape the landed-cost breakdown (app/ui/landed-cost/landed-cost-breakdown.tsx) renders,
 * as landedCostView answers it for the product page: the duty with its layers, dates and sources, the default
 * reserves with theirs, Shopify Payments' fees. Glitch mode shows its spread after duty with it (decision 066).
 */
export function breakdownOf(f: LandedFigures): LandedCostView {
  const fees = feeSettings("shopify-payments");
  return {
    duty: {
      htsCode: f.duty.htsCode,
      htsReason: f.htsReason,
      origin: f.duty.origin,
      originReason: f.originReason,
      entry: f.duty.entry,
      ratePercent: f.duty.ratePercent,
      dutyCents: f.duty.dutyCents,
      layers: f.duty.layers,
      asOf: f.duty.asOf,
      table: tariffTableName(),
      explanation: f.duty.explanation,
      ended: f.duty.ended,
    },
    reserves: { ...DEFAULT_RESERVES, ...f.profit.reserves, sources: RESERVE_SOURCES },
    fees: { ...fees, label: FEE_PRESETS[fees.preset].label, source: FEE_PRESETS[fees.preset].source, edited: false },
    htsGuess: null,
    unavailable: null,
  };
}
