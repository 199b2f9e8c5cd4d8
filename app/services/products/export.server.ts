// Exports of product lists as CSV or JSON (issue 24 item 5, decision 057): the grid's results (with the grid's
// own parameters), the seller's saved and tracked products, a followed competitor's catalogue and a revealed drop.
// Each file is a ReadableStream that reads the database EXPORT_PAGE_SIZE products at a time when the reader
// asks for more, so a 100,000-row export never sits in memory, giving the event loop a turn before each page (the
// rows are read through a synchronous driver: without it a fast reader would hold the loop for the whole file) and
// stopping at the request's AbortSignal (decision 083); each row carries its landed cost
// (landed-cost.server.ts `landedFigures`). CSV is written by csv-stringify (UTF-8 with a BOM, formula-like cells
// prefixed with '). Also the signed links the embedded app's pages hand their download buttons.
import { createHmac, timingSafeEqual } from "node:crypto";
import { stringify } from "csv-stringify/sync";
import type { Db } from "~/db.server";
import { filterPriceCents, priceCurrencyCode, priceInDollars } from "~/domain/catalogue/measured-product";
import { listedPriceConversion } from "~/domain/catalogue/prices";
import { AppError } from "~/domain/errors";
import {
  describeSubject,
  EXPORT_COLUMN_NAMES,
  EXPORT_ID_BATCH,
  EXPORT_MAX_ROWS,
  EXPORT_PAGE_SIZE,
  exportFileName,
  exportRecord,
  signedExportPayload,
  SIGNED_LINK_PARAMS,
  type ExportFormat,
  type ExportLanded,
  type ExportProduct,
  type ExportRecord,
  type ExportSubject,
} from "~/domain/products/product-export";
import { parseProductQuery, type SearchEngine } from "~/domain/products/product-query";
import type { ResearchAccess } from "~/domain/products/research-access";
import { endedLayersSentence } from "~/domain/landed-cost/landed-cost";
import { landedFiguresReader, type LandedFigures } from "~/services/landed-cost.server";
import { cardRowsWithSupplier } from "~/services/products/rows.server";
import { toCard } from "~/services/products.server";
import { currentRateTable } from "~/services/landed-cost/exchange-rates.server";
import type { DropUser, ProductDrops } from "~/services/products/drops.server";
import { exportTurn } from "~/services/products/export-turns.server";

export type ExportList =
  | { kind: "search"; params: URLSearchParams }
  | { kind: "saved" }
  | { kind: "tracked" }
  | { kind: "competitor"; id: number }
  | { kind: "drop"; date: string };

export interface ExportFile {
  fileName: string;
  contentType: string;
  body: ReadableStream<Uint8Array>;
}

export interface ProductExportDeps {
  db: Db;
  engine: SearchEngine;
  drops: Pick<ProductDrops, "get">;
  /** Signs the embedded app's download links (its own key, derived from the session secret). */
  linkSecret: string;
  linkTtlMs: number;
  now?: () => Date;
}

/** One page of rows, or null at the end. */
type PageReader = () => Promise<ExportRecord[] | null>;

function landedOf(f: LandedFigures | undefined): ExportLanded | null {
  if (!f) return null;
  return {
    htsCode: f.htsCode,
    htsReason: f.htsReason,
    origin: f.origin,
    originReason: f.originReason,
    dutyRatePercent: f.duty.ratePercent,
    dutyCents: f.duty.dutyCents,
    dutyExplanation: f.duty.explanation,
    dutyAsOf: f.duty.asOf,
    dutyNotCounted: endedLayersSentence(f.duty.ended),
    feesCents: f.feesCents,
    refundCents: f.profit.reserves.refundCents,
    chargebackCents: f.profit.reserves.chargebackCents,
    landedCostCents: f.profit.landedCostCents,
    marginAfterDutyAndFeesBps: f.marginAfterDutyAndFeesBps,
    netProfitCents: f.profit.netProfitCents,
    netMarginBps: f.profit.marginBps,
    breakEvenCpaCents: f.profit.breakEvenCpaCents,
    breakEvenRoas: f.profit.breakEvenRoas,
  };
}

export function createProductExport(deps: ProductExportDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  type Landed = ReturnType<typeof landedFiguresReader>;

  /** Our products by id, in the given order, as export rows with their landed cost. */
  async function productRecords(landedOfRows: Landed, access: ResearchAccess, ids: readonly number[], notes: ReadonlyMap<number, string> = new Map()): Promise<ExportRecord[]> {
    if (ids.length === 0) return [];
    const rows = await cardRowsWithSupplier(db, [...ids]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const ordered = ids.map((id) => byId.get(id)).filter((r): r is NonNullable<typeof r> => r !== undefined);
    const landed = await landedOfRows(ordered);
    return ordered.map((r) => {
      const card = toCard(r, access);
      const product: ExportProduct = {
        objectID: r.objectID,
        title: r.title,
        url: `/dashboard/products/${encodeURIComponent(r.objectID)}`,
        source: card.source,
        niches: card.niches,
        listNote: notes.get(r.id) ?? null,
        figuresAsOf: card.measured?.asOf ?? r.insightsAt.toISOString().slice(0, 10),
        // As listed, and in dollars (as listed or converted at a dated reference rate; decision 089).
        priceCents: r.priceCents,
        priceCurrency: priceCurrencyCode(r.priceCurrency),
        priceUsdCents: filterPriceCents(r),
        priceRateDate: priceInDollars(r.priceCurrency) ? null : r.priceRateDate,
        costCents: r.costCents,
        shippingCents: r.shippingCents,
        amazonPriceCents: r.amazonPriceCents,
        grossMarginBps: r.marginBps,
        orders: card.orders,
        orders7d: card.orders7d,
        ordersGrowth7d: card.ordersGrowth7d,
        revenueCents: card.revenueCents,
        trendingScore: card.insights?.trendingScore ?? null,
        storesSelling: card.storesSelling,
        storesAdded7d: r.storesAdded7d,
        storesAdded30d: r.storesAdded30d,
        winningScore: card.winningScore,
        lifecycleStage: card.lifecycleStage,
        saturation: card.saturation,
        firstSeen: r.firstSeenAt.toISOString().slice(0, 10),
        lastUpdated: r.lastUpdatedAt.toISOString().slice(0, 10),
      };
      return exportRecord(product, landedOf(landed.get(r.objectID)));
    });
  }

  function searchPages(landed: Landed, access: ResearchAccess, params: URLSearchParams): PageReader {
    // Parsed before the file starts, so a bad parameter is a 400 naming it, not a cut-off download.
    const query = parseProductQuery(params);
    // Ids come from the engine EXPORT_ID_BATCH at a time (a walk of the index per batch, not per page of rows),
    // rows are read EXPORT_PAGE_SIZE at a time; at most EXPORT_MAX_ROWS in all.
    let batch = 1;
    let more = true;
    let ids: number[] = [];
    let sent = 0;
    return async () => {
      if (ids.length === 0 && more && sent < EXPORT_MAX_ROWS) {
        const result = await deps.engine.search({ ...query, page: batch, pageSize: EXPORT_ID_BATCH });
        more = result.hasMore && result.ids.length > 0;
        batch++;
        ids = result.ids.slice(0, EXPORT_MAX_ROWS - sent);
      }
      if (ids.length === 0) return null;
      const page = ids.splice(0, EXPORT_PAGE_SIZE);
      sent += page.length;
      return productRecords(landed, access, page);
    };
  }

  /** Saved or tracked products, in product id order, a page at a time (keyset: no rows skipped or repeated). */
  function ownListPages(userId: string, landed: Landed, access: ResearchAccess, list: "saved" | "tracked"): PageReader {
    let after = 0;
    let done = false;
    return async () => {
      if (done) return null;
      const where = { userId, productId: { gt: after } };
      const rows =
        list === "saved"
          ? (await db.savedProduct.findMany({ where, orderBy: { productId: "asc" }, take: EXPORT_PAGE_SIZE, select: { productId: true, savedAt: true } })).map((r) => ({ productId: r.productId, at: r.savedAt }))
          : (await db.trackedProduct.findMany({ where, orderBy: { productId: "asc" }, take: EXPORT_PAGE_SIZE, select: { productId: true, trackedAt: true } })).map((r) => ({ productId: r.productId, at: r.trackedAt }));
      if (rows.length < EXPORT_PAGE_SIZE) done = true;
      if (rows.length === 0) return null;
      after = rows[rows.length - 1].productId;
      const notes = new Map(rows.map((r) => [r.productId, `${list} on ${r.at.toISOString().slice(0, 10)}`]));
      return productRecords(landed, access, rows.map((r) => r.productId), notes);
    };
  }

  /** A followed store's current catalogue (removed products left out). Its products have no supplier cost. */
  async function competitorPages(userId: string, id: number): Promise<{ domain: string; read: PageReader }> {
    const follow = await db.competitor.findFirst({ where: { id, userId }, select: { store: { select: { id: true, domain: true, currency: true } } } });
    if (!follow) throw new AppError(404, "You do not follow that store.");
    const { store } = follow;
    let after = 0;
    let done = false;
    const read: PageReader = async () => {
      if (done) return null;
      const rows = await db.competitorProduct.findMany({
        where: { storeId: store.id, removedAt: null, id: { gt: after } },
        orderBy: { id: "asc" },
        take: EXPORT_PAGE_SIZE,
        select: { id: true, handle: true, title: true, productType: true, priceMinCents: true, priceMaxCents: true, currency: true, lastSeenAt: true, firstSeenAt: true, publishedAt: true },
      });
      if (rows.length < EXPORT_PAGE_SIZE) done = true;
      if (rows.length === 0) return null;
      after = rows[rows.length - 1].id;
      const rates = await currentRateTable(db);
      return rows.map((r) => {
        // The currency its store published when the listing was read: unknown is never dollars (decisions 084, 089).
        const usd = r.currency === "USD";
        const price = r.priceMinCents ?? 0;
        const range = r.priceMaxCents !== null && r.priceMaxCents !== r.priceMinCents ? ` to ${((r.priceMaxCents ?? 0) / 100).toFixed(2)}` : "";
        const converted = usd ? null : listedPriceConversion(r.priceMinCents, r.currency, rates).converted;
        return exportRecord(
          {
            objectID: null,
            title: r.title,
            url: `https://${store.domain}/products/${encodeURIComponent(r.handle)}`,
            source: "competitor-store",
            niches: r.productType ? [r.productType] : [],
            listNote: usd
              ? range
                ? `price ${(price / 100).toFixed(2)}${range} USD`
                : null
              : `price ${(price / 100).toFixed(2)}${range} ${r.currency ?? "(the store publishes no currency)"} as listed${converted ? `; ${(converted.cents / 100).toFixed(2)} USD at the reference rate of ${converted.rateDate}` : ", not converted"}`,
            figuresAsOf: r.lastSeenAt.toISOString().slice(0, 10),
            priceCents: price,
            priceCurrency: r.currency,
            priceUsdCents: usd ? price : (converted?.cents ?? null),
            priceRateDate: converted?.rateDate ?? null,
            costCents: null,
            shippingCents: null,
            amazonPriceCents: null,
            grossMarginBps: null,
            orders: null,
            orders7d: null,
            ordersGrowth7d: null,
            revenueCents: null,
            trendingScore: null,
            storesSelling: null,
            storesAdded7d: null,
            storesAdded30d: null,
            winningScore: null,
            lifecycleStage: null,
            saturation: null,
            firstSeen: (r.publishedAt ?? r.firstSeenAt).toISOString().slice(0, 10),
            lastUpdated: r.lastSeenAt.toISOString().slice(0, 10),
          },
          null,
        );
      });
    };
    return { domain: store.domain, read };
  }

  /** A revealed drop's products with their reasons (the drops service decides who may see it). */
  async function dropPages(user: DropUser, landed: Landed, access: ResearchAccess, date: string): Promise<{ date: string; read: PageReader }> {
    const drop = await deps.drops.get(user, date);
    const rows = await db.product.findMany({ where: { objectID: { in: drop.products.map((p) => p.objectID) } }, select: { id: true, objectID: true } });
    const idOf = new Map(rows.map((r) => [r.objectID, r.id]));
    const ids = drop.products.map((p) => idOf.get(p.objectID)).filter((id): id is number => id !== undefined);
    const notes = new Map(drop.products.flatMap((p) => (idOf.has(p.objectID) ? [[idOf.get(p.objectID)!, p.reason] as const] : [])));
    let offset = 0;
    const read: PageReader = async () => {
      if (offset >= ids.length) return null;
      const page = ids.slice(offset, offset + EXPORT_PAGE_SIZE);
      offset += page.length;
      return productRecords(landed, access, page, notes);
    };
    return { date: drop.date, read };
  }

  function stream(read: PageReader, format: ExportFormat, head: { what: string; exportedAt: Date }, signal?: AbortSignal): ReadableStream<Uint8Array> {
    const encoder = new TextEncoder();
    let started = false;
    let wroteRow = false;
    let cancelled = false;
    let stopOnAbort: (() => void) | undefined;
    const finish = () => signal?.removeEventListener("abort", stopOnAbort!);
    return new ReadableStream<Uint8Array>(
      {
        start(controller) {
          // The client went away (the request's signal): the reader's next read fails at once, queued page and all.
          stopOnAbort = () => controller.error(signal!.reason);
          signal?.addEventListener("abort", stopOnAbort, { once: true });
        },
        async pull(controller) {
          if (signal?.aborted) return controller.error(signal.reason);
          if (!started) {
            started = true;
            controller.enqueue(
              encoder.encode(
                format === "csv"
                  ? stringify([EXPORT_COLUMN_NAMES], { bom: true, record_delimiter: "windows" })
                  : `{"what":${JSON.stringify(head.what)},"exportedAt":${JSON.stringify(head.exportedAt.toISOString())},"columns":${JSON.stringify(EXPORT_COLUMN_NAMES)},"rows":[`,
              ),
            );
            return;
          }
          // A turn of the event loop before each page: whatever the reader does, no page's work runs in the same
          // turn as the last one's, nor as another export's, so other requests are answered between pages (decisions
          // 083, 093).
          await exportTurn();
          if (cancelled) return;
          if (signal?.aborted) return controller.error(signal.reason);
          const records = await read();
          // The reader went away while the page was read: nothing more is read or written.
          if (cancelled) return;
          if (signal?.aborted) return controller.error(signal.reason);
          if (records === null) {
            if (format === "json") controller.enqueue(encoder.encode("]}\n"));
            finish();
            controller.close();
            return;
          }
          if (records.length === 0) return;
          if (format === "csv") {
            controller.enqueue(encoder.encode(stringify(records, { columns: [...EXPORT_COLUMN_NAMES], escape_formulas: true, record_delimiter: "windows" })));
          } else {
            const text = records.map((r) => JSON.stringify(r)).join(",\n");
            controller.enqueue(encoder.encode(`${wroteRow ? ",\n" : "\n"}${text}`));
            wroteRow = true;
          }
        },
        cancel() {
          cancelled = true;
          finish();
        },
      },
      // One page ahead at most: the database is read as fast as the client downloads, no faster.
      { highWaterMark: 1 },
    );
  }

  /**
   * The export file of a list for this user. Everything that can be refused (a bad parameter, a store not
   * followed, a drop not revealed, no paid access) is refused here, before the first byte.
   */
  async function open(input: { user: DropUser; access: ResearchAccess; list: ExportList; format: ExportFormat; signal?: AbortSignal }): Promise<ExportFile> {
    if (!input.access.insights) throw new AppError(403, input.access.lockedReason ?? "Exports are part of every paid plan.");
    const { user, access, list } = input;
    let subject: ExportSubject;
    let read: PageReader;
    const landed = landedFiguresReader(db, { userId: user.id, now: now() });
    if (list.kind === "search") {
      read = searchPages(landed, access, list.params);
      subject = { kind: "search", q: (list.params.get("q") ?? "").trim() };
    } else if (list.kind === "saved" || list.kind === "tracked") {
      read = ownListPages(user.id, landed, access, list.kind);
      subject = { kind: list.kind };
    } else if (list.kind === "competitor") {
      const c = await competitorPages(user.id, list.id);
      read = c.read;
      subject = { kind: "competitor", domain: c.domain };
    } else {
      const d = await dropPages(user, landed, access, list.date);
      read = d.read;
      subject = { kind: "drop", date: d.date };
    }
    const at = now();
    return {
      fileName: exportFileName(subject, at, input.format),
      contentType: input.format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
      body: stream(read, input.format, { what: describeSubject(subject), exportedAt: at }, input.signal),
    };
  }

  function signature(payload: string): string {
    return createHmac("sha256", deps.linkSecret).update(payload).digest("base64url");
  }

  /**
   * Download links for the embedded app's pages (an <a download> inside Shopify admin sends neither our cookie nor
   * a session token): the path and parameters, signed with the user and an expiry. One link per format.
   */
  function signedLinks(path: string, params: URLSearchParams, userId: string): Record<ExportFormat, string> {
    const expires = Math.floor((now().getTime() + deps.linkTtlMs) / 1000);
    const link = (format: ExportFormat) => {
      const out = new URLSearchParams([...params].filter(([k]) => k !== "format" && !(SIGNED_LINK_PARAMS as readonly string[]).includes(k)));
      out.set("format", format);
      out.set("u", userId);
      out.set("expires", String(expires));
      out.set("sig", signature(signedExportPayload(path, out, userId, expires)));
      return `${path}?${out.toString()}`;
    };
    return { csv: link("csv"), json: link("json") };
  }

  /** The user a signed link names; 403 with a sentence when it was changed or has expired. */
  function verifySignedLink(path: string, params: URLSearchParams): string {
    const userId = params.get("u") ?? "";
    const expires = Number(params.get("expires"));
    const sig = params.get("sig") ?? "";
    const expected = Buffer.from(signature(signedExportPayload(path, params, userId, expires)));
    const given = Buffer.from(sig);
    if (!userId || !Number.isSafeInteger(expires) || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new AppError(403, "This download link is not valid: open the page again for a new one.");
    }
    if (expires * 1000 < now().getTime()) throw new AppError(403, "This download link has expired: open the page again for a new one.");
    return userId;
  }

  return { open, signedLinks, verifySignedLink };
}

export type ProductExport = ReturnType<typeof createProductExport>;
