// Weekly product drops (docs/decisions/030; seed product-drops, user-product-drops.revealedDates). This service
// owns the drops (ProductDrop and its items), the next-drop date (ProductDropSchedule, the seed's next-drop
// document) and each user's revealed dates (UserProductDrop). A drop is made by an operator (publish with
// objectIDs) or by the weekly job (publish "auto": pickWeekly over the catalogue). A drop is visible from its
// date on; subscribers (paid states, productDropsAccess) reveal it; a drop becoming visible is a notification
// to every subscriber. The rules are app/domain/products/product-drops.ts; nothing here knows HTTP.
import { isUniqueViolation, parseStringList, readerFor, retryBusy, type Db } from "~/db.server";
import type { PaidStateInput } from "~/domain/billing/billing";
import { paidState } from "~/domain/billing/billing";
import { AppError } from "~/domain/errors";
import { landedFigures, type LandedProductRow } from "~/services/landed-cost.server";
import {
  BAD_DATE_SENTENCE,
  DROP_RULES,
  dropDay,
  dropReason,
  effectiveNextDropDate,
  latestDropDateOnOrBefore,
  nextDropDateAfter,
  operatorReason,
  parseDropDate,
  pickWeekly,
  type DropCandidate,
} from "~/domain/products/product-drops";
import { DEFAULT_PAGE_SIZE } from "~/domain/products/product-query";
import { productDropsAccess } from "~/domain/products/research-access";
import type { Jobs } from "~/services/jobs.server";
import type { NotificationInput, Notifications } from "~/services/notifications.server";

export const WEEKLY_DROP_JOB = "product-drops.weekly";
/** Every day at 06:00 UTC: publishes the drop when its date has come and announces drops dated today. */
export const WEEKLY_DROP_SCHEDULE = { name: "product-drops", pattern: "0 6 * * *" } as const;
/** The key of the weekly job queued at start (queueCatchUp). */
export const CATCH_UP_KEY = "product-drops.catch-up";
/** Candidates the weekly pick reads, best score first: far more than a drop needs after the niche cap. */
const CANDIDATES = 2_000;
const NOTIFY_BATCH = 500;

export type DropUser = PaidStateInput & { id: string };

/** One product of a drop, as a revealed drop shows it. */
export interface DropProduct {
  position: number;
  objectID: string;
  title: string;
  image: string | null;
  niches: string[];
  priceCents: number;
  /** Product.priceCurrency: null for US dollars, else its ISO code ("XXX": the stores publish none; decision 059). */
  priceCurrency: string | null;
  /** null when the product's cost is unknown. */
  marginBps: number | null;
  winningScore: number;
  lifecycleStage: string;
  /** Why it is in the drop, from its own evidence at publish time. */
  reason: string;
  /** Sample data (the generated or imported catalogue), labelled as such where it is shown (issue 25). */
  sampleData: boolean;
}

export interface DropSummary {
  date: string;
  productCount: number;
  revealed: boolean;
}

export interface DropList {
  nextDropDate: string;
  drops: DropSummary[];
}

export interface RevealedDrop extends DropSummary {
  revealed: true;
  products: DropProduct[];
}

/** What publish takes: the products by objectID (with an operator's reason each, optional), or "auto". */
export type DropSelection = "auto" | { objectID: string; reason?: string | null }[];

export interface PublishedDrop {
  date: string;
  source: "operator" | "weekly";
  productCount: number;
  /** Subscribers told now (0 for a drop dated ahead: they are told on its day). */
  notified: number;
  nextDropDate: string;
}

export interface ProductDropsLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface ProductDropsDeps {
  db: Db;
  notifications: Pick<Notifications, "notify">;
  now?: () => Date;
  /** The site path a drop notification opens. */
  dropsPath?: string;
  log?: ProductDropsLog;
}

export type ProductDrops = ReturnType<typeof createProductDrops>;

const productSelect = {
  id: true,
  objectID: true,
  title: true,
  images: true,
  niches: true,
  primaryNiche: true,
  priceCents: true,
  priceCurrency: true,
  marginBps: true,
  costCents: true,
  shippingCents: true,
  supplierName: true,
  supplierUrl: true,
  winningScore: true,
  lifecycleStage: true,
  orders7d: true,
  reasons: true,
  source: true,
} as const;

/** Products added from a followed store carry 0 placeholders, not sales data (decision 026): no evidence to quote. */
const NO_SALES_DATA = "tracked-store";

const silent: ProductDropsLog = { info() {}, warn() {} };

function requireDate(date: string): string {
  const parsed = parseDropDate(date);
  if (!parsed) throw new AppError(400, BAD_DATE_SENTENCE, { field: "date" });
  return parsed;
}

export function createProductDrops(deps: ProductDropsDeps) {
  const { db, notifications } = deps;
  const now = deps.now ?? (() => new Date());
  const dropsPath = deps.dropsPath ?? "/dashboard/drops";
  const log = deps.log ?? silent;
  const today = () => dropDay(now());

  /** Read on the dashboard and the drops page: a prepared statement on the SqlReader (docs/decisions/076), else Prisma. */
  async function storedNextDate(): Promise<string | null> {
    const reader = readerFor(db);
    if (reader) {
      const row = await reader.row(`SELECT "nextDropDate" FROM "ProductDropSchedule" WHERE "id" = 1`);
      return row ? String(row[0]) : null;
    }
    const row = await db.productDropSchedule.findUnique({ where: { id: 1 }, select: { nextDropDate: true } });
    return row?.nextDropDate ?? null;
  }

  /** The date of the next drop (the stored one while it has not passed). */
  async function nextDropDate(): Promise<string> {
    return effectiveNextDropDate(await storedNextDate(), today());
  }

  async function setNextDropDate(date: string): Promise<string> {
    const next = requireDate(date);
    await retryBusy(() =>
      db.productDropSchedule.upsert({
        where: { id: 1 },
        create: { id: 1, nextDropDate: next, updatedAt: now() },
        update: { nextDropDate: next, updatedAt: now() },
        select: { id: true },
      }),
    );
    return next;
  }

  /** The visible drop of that date (published, dated today or earlier), or a 404. */
  async function visibleDrop(date: string) {
    const day = requireDate(date);
    const drop = await db.productDrop.findUnique({ where: { date: day }, select: { id: true, date: true, _count: { select: { items: true } } } });
    if (!drop || drop.date > today()) throw new AppError(404, `There is no product drop for ${day}.`);
    return drop;
  }

  async function isRevealed(userId: string, date: string): Promise<boolean> {
    const row = await db.userProductDrop.findUnique({ where: { userId_date: { userId, date } }, select: { id: true } });
    return row !== null;
  }

  async function productsOf(dropId: number): Promise<DropProduct[]> {
    const items = await db.productDropItem.findMany({
      where: { dropId },
      orderBy: { position: "asc" },
      select: { position: true, productId: true, objectID: true, reason: true },
    });
    const rows = await db.product.findMany({ where: { id: { in: items.map((i) => i.productId) } }, select: productSelect });
    const byId = new Map(rows.map((r) => [r.id, r]));
    // A product removed from the catalogue since the drop is left out rather than shown empty.
    return items.flatMap((item) => {
      const p = byId.get(item.productId);
      if (!p) return [];
      return [
        {
          position: item.position,
          objectID: p.objectID,
          title: p.title,
          image: parseStringList(p.images)[0] ?? null,
          niches: parseStringList(p.niches),
          priceCents: p.priceCents,
          priceCurrency: p.priceCurrency,
          marginBps: p.marginBps,
          winningScore: p.winningScore,
          lifecycleStage: p.lifecycleStage,
          reason: item.reason,
          sampleData: p.source === "catalog",
        },
      ];
    });
  }

  /** The user's revealed dates (seed user-product-drops.revealedDates), newest first. */
  async function revealedDates(userId: string): Promise<string[]> {
    const reader = readerFor(db);
    if (reader) return (await reader.rows(`SELECT "date" FROM "UserProductDrop" WHERE "userId" = ? ORDER BY "date" DESC`, [userId])).map(([date]) => String(date));
    const rows = await db.userProductDrop.findMany({ where: { userId }, orderBy: { date: "desc" }, select: { date: true } });
    return rows.map((r) => r.date);
  }

  /** Drops dated up to `until`, newest first, with their product counts. */
  async function visibleDrops(until: string, take: number): Promise<{ date: string; productCount: number }[]> {
    const reader = readerFor(db);
    if (reader) {
      const sql =
        `SELECT d."date", (SELECT COUNT(*) FROM "ProductDropItem" i WHERE i."dropId" = d."id") FROM "ProductDrop" d ` +
        `WHERE d."date" <= ? ORDER BY d."date" DESC LIMIT ?`;
      return (await reader.rows(sql, [until, take])).map(([date, count]) => ({ date: String(date), productCount: Number(count) }));
    }
    const drops = await db.productDrop.findMany({
      where: { date: { lte: until } },
      orderBy: { date: "desc" },
      take,
      select: { date: true, _count: { select: { items: true } } },
    });
    return drops.map((d) => ({ date: d.date, productCount: d._count.items }));
  }

  /**
   * The next drop date and the visible drops, newest first, each with its product count and whether the user revealed
   * it. Read on every drops page and `GET /api/drops`: prepared statements on the SqlReader (docs/decisions/076), or
   * Prisma for a client without one.
   */
  async function list(userId: string, options: { limit?: number } = {}): Promise<DropList> {
    const take = Math.min(Math.max(options.limit ?? 52, 1), 520);
    const [next, drops, revealed] = await Promise.all([nextDropDate(), visibleDrops(today(), take), revealedDates(userId)]);
    const revealedSet = new Set(revealed);
    return {
      nextDropDate: next,
      drops: drops.map((d) => ({ ...d, revealed: revealedSet.has(d.date) })),
    };
  }

  /** A revealed drop's products. Not revealed: 403 with the reveal action; unknown or future: 404; bad date: 400. */
  async function get(user: DropUser, date: string): Promise<RevealedDrop> {
    const drop = await visibleDrop(date);
    if (!(await isRevealed(user.id, drop.date))) {
      const access = productDropsAccess(user);
      throw new AppError(403, access.reveal ? `Reveal the ${drop.date} drop to see its products.` : access.lockedReason!, {
        reveal: { method: "POST", url: `/api/drops/${drop.date}/reveal` },
        ...(access.upgradeUrl ? { upgradeUrl: access.upgradeUrl } : {}),
      });
    }
    return { date: drop.date, productCount: drop._count.items, revealed: true, products: await productsOf(drop.id) };
  }

  /**
   * Reveals a drop for a subscriber: its date joins the user's revealed dates (twice is harmless) and its
   * products are returned. Without a paid state: 403 with the upgrade path. Unknown or future: 404.
   */
  async function reveal(user: DropUser, date: string): Promise<RevealedDrop> {
    const drop = await visibleDrop(date);
    const access = productDropsAccess(user);
    if (!access.reveal) throw new AppError(403, access.lockedReason!, { upgradeUrl: access.upgradeUrl });
    try {
      await retryBusy(() =>
        db.userProductDrop.upsert({
          where: { userId_date: { userId: user.id, date: drop.date } },
          create: { userId: user.id, date: drop.date, revealedAt: now() },
          update: {},
          select: { id: true },
        }),
      );
    } catch (error) {
      // Two reveals at the same moment: the first row stands.
      if (!isUniqueViolation(error)) throw error;
    }
    return { date: drop.date, productCount: drop._count.items, revealed: true, products: await productsOf(drop.id) };
  }

  /**
   * Margins after duty and fees for a drop's reasons (issue 24): a drop is the same for every seller, so the guessed
   * code and origin (no seller's own), the layers of the publish day, Shopify Payments' fees, no reserves.
   */
  async function landedMarginsOf(rows: readonly LandedProductRow[]): Promise<Map<string, number>> {
    const figures = await landedFigures(db, { userId: "", products: rows, now: now() });
    return new Map([...figures].map(([objectID, f]) => [objectID, f.marginAfterDutyAndFeesBps]));
  }

  /**
   * The weekly pick for the drop of `date`: candidates by score, minus the last drops' products and the
   * grid's first page (what a seller sees first without a drop), mixed anew each week (pickWeekly).
   */
  async function pickFor(date: string): Promise<(DropCandidate & { objectID: string; reason: string })[]> {
    // The grid's default order: winning score, ties to the newer row (app/services/search).
    const firstPage = await db.product.findMany({ orderBy: [{ winningScore: "desc" }, { id: "desc" }], take: DEFAULT_PAGE_SIZE, select: { id: true } });
    const recent = await db.productDrop.findMany({
      orderBy: { date: "desc" },
      take: DROP_RULES.noRepeatDrops,
      select: { items: { select: { productId: true } } },
    });
    const shown = new Set(recent.flatMap((d) => d.items.map((i) => i.productId)));
    const rows = await db.product.findMany({
      where: { lifecycleStage: { notIn: [...DROP_RULES.skippedStages] }, source: { not: NO_SALES_DATA } },
      orderBy: [{ winningScore: "desc" }, { orders7d: "desc" }, { id: "asc" }],
      take: CANDIDATES + shown.size,
      select: productSelect,
    });
    const byId = new Map(rows.map((r) => [r.id, r]));
    const picked = pickWeekly(rows, shown, { date, leaveOut: new Set(firstPage.map((p) => p.id)) });
    const landed = await landedMarginsOf(picked.map((c) => byId.get(c.id)!));
    return picked.map((c) => {
      const p = byId.get(c.id)!;
      return { ...c, objectID: p.objectID, reason: dropReason({ ...p, landedMarginBps: landed.get(p.objectID) ?? null, reasons: parseStringList(p.reasons) }) };
    });
  }

  /** The operator's list, resolved: every objectID must name a product (else nothing is published). */
  async function resolve(selection: Exclude<DropSelection, "auto">) {
    const ids = selection.map((s) => s.objectID.trim());
    const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
    if (duplicate) throw new AppError(422, `${duplicate} is listed twice: a drop shows each product once. Nothing was published.`);
    if (ids.length < DROP_RULES.minProducts || ids.length > DROP_RULES.maxProducts) {
      throw new AppError(
        422,
        `A drop holds ${DROP_RULES.minProducts} to ${DROP_RULES.maxProducts} products; this list has ${ids.length}. Nothing was published.`,
      );
    }
    const rows = await db.product.findMany({ where: { objectID: { in: ids } }, select: productSelect });
    const byObject = new Map(rows.map((r) => [r.objectID, r]));
    const missing = ids.filter((id) => !byObject.has(id));
    if (missing.length > 0) {
      throw new AppError(
        404,
        `No product with objectID ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ` and ${missing.length - 5} more` : ""}. Nothing was published.`,
        { missing },
      );
    }
    const unmeasured = selection.filter((s, i) => byObject.get(ids[i])!.source === NO_SALES_DATA && operatorReason(s.reason) === null);
    if (unmeasured.length > 0) {
      throw new AppError(
        422,
        `${unmeasured.map((s) => s.objectID.trim()).join(", ")} came from a tracked store and has no sales data to build a reason from: give it a reason in the file, or leave it out. Nothing was published.`,
      );
    }
    const landed = await landedMarginsOf(rows);
    return selection.map((s, i) => {
      const p = byObject.get(ids[i])!;
      return {
        id: p.id,
        objectID: p.objectID,
        reason: operatorReason(s.reason) ?? dropReason({ ...p, landedMarginBps: landed.get(p.objectID) ?? null, reasons: parseStringList(p.reasons) }),
      };
    });
  }

  /** Tells every subscriber about a visible drop not announced yet; returns how many were told. */
  async function announce(date: string): Promise<number> {
    const drop = await db.productDrop.findUnique({ where: { date }, select: { id: true, date: true, announcedAt: true, _count: { select: { items: true } } } });
    if (!drop || drop.announcedAt || drop.date > today()) return 0;
    let told = 0;
    let cursor: string | undefined;
    for (;;) {
      // Paid states are innerCircle, or userSubscribed "yes" (paidState decides the rest in code).
      const users = await db.user.findMany({
        where: { OR: [{ innerCircle: true }, { userSubscribed: "yes" }], ...(cursor ? { id: { gt: cursor } } : {}) },
        orderBy: { id: "asc" },
        take: NOTIFY_BATCH,
        select: { id: true, userSubscribed: true, trialing: true, innerCircle: true, extendedTrial: true, claimedDiscount: true },
      });
      if (users.length === 0) break;
      cursor = users[users.length - 1].id;
      const items: NotificationInput[] = users
        .filter((u) => paidState(u).paid)
        .map((u) => ({
          userId: u.id,
          kind: "product-drop",
          title: `New product drop: ${drop._count.items} products`,
          body: `The ${drop.date} drop is out: ${drop._count.items} products picked by our rules from their evidence (strong winning scores, a new mix each week), each with the reason it made the cut. Reveal it on the Drops page.`,
          url: dropsPath,
          dedupeKey: `product-drop:${drop.date}`,
        }));
      told += await notifications.notify(items);
    }
    await retryBusy(() => db.productDrop.update({ where: { id: drop.id }, data: { announcedAt: now() }, select: { id: true } }));
    return told;
  }

  /**
   * Publishes the drop of `date`: the operator's products (8-20, each must exist) or the weekly pick
   * ("auto"). A drop dated today or earlier is announced at once; one dated ahead on its day (the job).
   * When it is the next drop, the next date moves a week on. A second drop for a date: 409.
   */
  async function publish(date: string, selection: DropSelection, source: "operator" | "weekly" = selection === "auto" ? "weekly" : "operator"): Promise<PublishedDrop> {
    const day = requireDate(date);
    if (await db.productDrop.findUnique({ where: { date: day }, select: { id: true } })) {
      throw new AppError(409, `A drop for ${day} is already published. Nothing was changed.`);
    }
    const items = selection === "auto" ? await pickFor(day) : await resolve(selection);
    if (items.length < DROP_RULES.minProducts) {
      throw new AppError(
        422,
        `Only ${items.length} products qualify for the weekly pick (a drop needs ${DROP_RULES.minProducts}: at most ${DROP_RULES.perNiche} per niche, none from the last ${DROP_RULES.noRepeatDrops} drops, none declining). Nothing was published.`,
      );
    }
    try {
      await retryBusy(() =>
        db.productDrop.create({
          data: {
            date: day,
            source,
            publishedAt: now(),
            items: { create: items.map((item, i) => ({ productId: item.id, objectID: item.objectID, position: i + 1, reason: item.reason })) },
          },
          select: { id: true },
        }),
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(409, `A drop for ${day} is already published. Nothing was changed.`);
      throw error;
    }
    // The countdown follows: a drop dated ahead of the next date becomes the next; today's drop on the drop
    // day moves the next date a week on. Older dates leave it alone.
    let next = await nextDropDate();
    if (day > today() ? day < next : day === next) next = await setNextDropDate(day > today() ? day : nextDropDateAfter(day));
    const notified = await announce(day);
    log.info({ date: day, source, products: items.length, notified }, "product drop published");
    return { date: day, source, productCount: items.length, notified, nextDropDate: next };
  }

  /**
   * The daily job (and the catch-up queued at start): when no drop exists for the latest drop day that has
   * come (today or before), publishes the weekly pick dated that day, so a server started mid-week shows
   * this week's drop at once rather than an empty page until the next drop day (issue 25); moves the next
   * date on; announces drops dated ahead whose day has come. Two processes running it at once publish
   * once (the drop's date is unique; the loser's 409 is ignored).
   */
  async function runScheduled(): Promise<{ published: string | null; announced: number }> {
    const day = today();
    const latest = latestDropDateOnOrBefore(day);
    const stored = await storedNextDate();
    let published: string | null = null;
    const thisWeek = await db.productDrop.findFirst({ where: { date: { gte: latest, lte: day } }, select: { id: true } });
    if (!thisWeek) {
      try {
        published = (await publish(latest, "auto", "weekly")).date;
      } catch (error) {
        if (!(error instanceof AppError) || (error.status !== 422 && error.status !== 409)) throw error;
        // Not enough products this week (422): said, and tried again on the next run. 409: another process won.
        if (error.status === 422) log.warn({ date: latest, reason: error.message }, "weekly product drop not published");
      }
    }
    if (stored === null || stored <= day) await setNextDropDate(nextDropDateAfter(day));
    let announced = 0;
    const unannounced = await db.productDrop.findMany({ where: { announcedAt: null, date: { lte: day } }, select: { date: true } });
    for (const d of unannounced) announced += await announce(d.date);
    return { published, announced };
  }

  /**
   * Queues the weekly job once at start (a keyed job: every process asks, one row runs), so a fresh
   * install or a server down on the drop day does not wait for the next 06:00 run.
   */
  async function queueCatchUp(on: Pick<Jobs, "enqueue">): Promise<void> {
    await on.enqueue(WEEKLY_DROP_JOB, {}, { key: CATCH_UP_KEY });
  }

  /** The daily job kind and its schedule on the job system (once per day however many processes run). */
  function registerJobs(on: Pick<Jobs, "register" | "schedule">): void {
    on.register(WEEKLY_DROP_JOB, async () => {
      await runScheduled();
    });
    on.schedule(WEEKLY_DROP_SCHEDULE.name, WEEKLY_DROP_SCHEDULE.pattern, WEEKLY_DROP_JOB);
  }

  return { list, get, reveal, publish, revealedDates, nextDropDate, setNextDropDate, runScheduled, registerJobs, queueCatchUp };
}
