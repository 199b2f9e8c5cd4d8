// The TikTok library (seed tiktoks; docs/decisions/033): TikTok video links a seller saves against research
// products, with a note. Title, author and thumbnail come from TikTok's oEmbed endpoint in a background job
// (kind "tiktok.oembed", one per link by key): with no network the link is kept and marked "not fetched"
// with the reason, and the job system tries again with backoff. A short link (vm.tiktok.com/…) is resolved
// by the same answer, which names the video. Saved videos show on the product's page ("Seen on TikTok")
// and are handed to the AI ad writer as references. Every query is scoped to the owner; nothing here knows HTTP.
import type { Prisma } from "@prisma/client";
import { z } from "zod";
import { dateFromDb, dateOrNull, isUniqueViolation, namedRow, parseStringList, readerFor, textOrNull, type Db } from "~/db.server";
import { AppError } from "~/domain/errors";
import { hookOf, parseTikTokUrl, TIKTOK_LIMITS } from "~/domain/ai-ads/tiktoks";
import { TikTokOEmbedError, type TikTokOEmbed } from "~/integrations/tiktok-oembed.server";
import { childLogger } from "~/logger.server";
import type { Jobs } from "~/services/jobs.server";

const log = childLogger("tiktoks");

export const OEMBED_JOB = "tiktok.oembed";
export const oembedJobKey = (id: number) => `tiktok.oembed:${id}`;

export type TikTokMetaStatus = "pending" | "fetched" | "not-fetched";

export interface TikToksDeps {
  db: Db;
  oembed: TikTokOEmbed;
  jobs: Jobs;
}

const rowSelect = {
  id: true,
  productObjectID: true,
  url: true,
  videoId: true,
  note: true,
  metaStatus: true,
  title: true,
  authorName: true,
  authorUrl: true,
  thumbnailUrl: true,
  fetchError: true,
  fetchedAt: true,
  createdAt: true,
} as const satisfies Prisma.TikTokSelect;

type Row = Prisma.TikTokGetPayload<{ select: typeof rowSelect }>;
const ROW_FIELDS = Object.keys(rowSelect) as (keyof typeof rowSelect)[];
const listSql = (where: string) =>
  `SELECT ${ROW_FIELDS.map((f) => `"${f}"`).join(", ")} FROM "TikTok" WHERE ${where} ORDER BY "createdAt" DESC, "id" DESC LIMIT ?`;
const LIST_SQL = listSql(`"userId" = ?`);
const LIST_OF_PRODUCT_SQL = listSql(`"userId" = ? AND "productObjectID" = ?`);

export interface TikTokView {
  id: number;
  objectID: string;
  url: string;
  /** The numeric video id; null for a short link not resolved yet. */
  videoId: string | null;
  note: string;
  metaStatus: TikTokMetaStatus;
  title: string | null;
  authorName: string | null;
  authorUrl: string | null;
  thumbnailUrl: string | null;
  /** Why the metadata is not there (metaStatus "not-fetched"). */
  fetchError: string | null;
  fetchedAt: string | null;
  createdAt: string;
  product: { objectID: string; title: string; image: string | null } | null;
}

/** What the ad writer may take after: a saved video that worked for this product. */
export interface TikTokReference {
  hook: string;
  author: string | null;
  url: string;
  note: string;
}

export const AddTikTokSchema = z.object({
  url: z.string().max(2000),
  objectID: z.string().trim().min(1, "Choose the product this video is about.").max(200),
  note: z
    .string()
    .max(5000)
    .default("")
    .transform((v) => v.trim())
    .refine((v) => v.length <= TIKTOK_LIMITS.noteMax, { message: `Keep the note to ${TIKTOK_LIMITS.noteMax} characters.` }),
});
export type AddTikTok = z.input<typeof AddTikTokSchema>;

export function createTikToks(deps: TikToksDeps) {
  const { db } = deps;

  async function views(rows: Row[]): Promise<TikTokView[]> {
    const ids = [...new Set(rows.map((r) => r.productObjectID))];
    const products = ids.length
      ? await db.product.findMany({ where: { objectID: { in: ids } }, select: { objectID: true, title: true, images: true } })
      : [];
    const byId = new Map(products.map((p) => [p.objectID, p]));
    return rows.map((r) => {
      const p = byId.get(r.productObjectID);
      return {
        id: r.id,
        objectID: r.productObjectID,
        url: r.url,
        videoId: r.videoId.startsWith("short:") ? null : r.videoId,
        note: r.note,
        metaStatus: r.metaStatus as TikTokMetaStatus,
        title: r.title,
        authorName: r.authorName,
        authorUrl: r.authorUrl,
        thumbnailUrl: r.thumbnailUrl,
        fetchError: r.fetchError,
        fetchedAt: r.fetchedAt?.toISOString() ?? null,
        createdAt: r.createdAt.toISOString(),
        product: p ? { objectID: p.objectID, title: p.title, image: parseStringList(p.images)[0] ?? null } : null,
      };
    });
  }

  /** The user's saved videos, newest first; only one product's with `objectID`. */
  async function list(userId: string, filter: { objectID?: string } = {}, take = 200): Promise<TikTokView[]> {
    return views(await listRows(userId, filter, take));
  }

  /**
   * Every product page asks for the seller's videos of its product (usually none): a prepared statement on the
   * SqlReader instead of a Prisma query (docs/decisions/076); Prisma for a client without a reader. Same rows, same
   * types (tests/integration/ai-ads/tiktoks.test.ts compares them).
   */
  async function listRows(userId: string, filter: { objectID?: string }, take: number): Promise<Row[]> {
    const reader = readerFor(db);
    if (reader) {
      const rows = filter.objectID
        ? await reader.rows(LIST_OF_PRODUCT_SQL, [userId, filter.objectID, take])
        : await reader.rows(LIST_SQL, [userId, take]);
      return rows.map((row) => {
        const r = namedRow(ROW_FIELDS, row);
        return {
          id: Number(r.id),
          productObjectID: String(r.productObjectID),
          url: String(r.url),
          videoId: String(r.videoId),
          note: String(r.note),
          metaStatus: String(r.metaStatus),
          title: textOrNull(r.title),
          authorName: textOrNull(r.authorName),
          authorUrl: textOrNull(r.authorUrl),
          thumbnailUrl: textOrNull(r.thumbnailUrl),
          fetchError: textOrNull(r.fetchError),
          fetchedAt: dateOrNull(r.fetchedAt),
          createdAt: dateFromDb(r.createdAt),
        };
      });
    }
    return db.tikTok.findMany({
      where: { userId, ...(filter.objectID ? { productObjectID: filter.objectID } : {}) },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take,
      select: rowSelect,
    });
  }

  async function enqueueFetch(id: number) {
    await deps.jobs.enqueue(OEMBED_JOB, { id }, { key: oembedJobKey(id) });
  }

  /**
   * Saves a video link against a product (422 with a sentence for a link that is not a TikTok video, 404
   * for an unknown product, 409 when this video is already saved for it) and queues its oEmbed fetch.
   */
  async function add(userId: string, input: AddTikTok): Promise<TikTokView> {
    const parsed = AddTikTokSchema.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = String(issue?.path[0] ?? "url");
      throw new AppError(422, issue?.message ?? "Check the form.", { fieldErrors: { [field]: issue?.message } });
    }
    const link = parseTikTokUrl(parsed.data.url);
    if (!link.ok) throw new AppError(422, link.message, { fieldErrors: { url: link.message } });
    const product = await db.product.findUnique({ where: { objectID: parsed.data.objectID }, select: { objectID: true } });
    if (!product) throw new AppError(404, `No product with objectID ${parsed.data.objectID}.`);
    const count = await db.tikTok.count({ where: { userId, productObjectID: product.objectID } });
    if (count >= TIKTOK_LIMITS.perProductMax)
      throw new AppError(409, `This product has ${count} saved TikToks, the most one product keeps: remove one first.`);
    let row: Row;
    try {
      row = await db.tikTok.create({
        data: { userId, productObjectID: product.objectID, url: link.link.url, videoId: link.link.videoId, note: parsed.data.note },
        select: rowSelect,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(409, "This video is already saved for this product.");
      throw error;
    }
    await enqueueFetch(row.id);
    return (await views([row]))[0];
  }

  async function remove(userId: string, id: number): Promise<{ deleted: true }> {
    const { count } = await db.tikTok.deleteMany({ where: { id, userId } });
    if (count === 0) throw new AppError(404, "No such saved TikTok.");
    return { deleted: true };
  }

  /** "Fetch again" for a link whose metadata could not be fetched. */
  async function refetch(userId: string, id: number): Promise<TikTokView> {
    const row = await db.tikTok.findFirst({ where: { id, userId }, select: rowSelect });
    if (!row) throw new AppError(404, "No such saved TikTok.");
    await db.tikTok.updateMany({ where: { id, userId }, data: { metaStatus: row.metaStatus === "fetched" ? "fetched" : "pending" } });
    const job = await deps.jobs.enqueue(OEMBED_JOB, { id }, { key: oembedJobKey(id) });
    // Already waiting for its retry: run it now instead (a running one is left to finish).
    if (!job.created) await deps.jobs.retry(job.id).catch((error: unknown) => {
      if (!(error instanceof AppError)) throw error;
    });
    return (await views([{ ...row, metaStatus: row.metaStatus === "fetched" ? "fetched" : "pending" }]))[0];
  }

  /** The saved videos of a product whose metadata came, as hooks for the ad writer (at most 5). */
  async function references(userId: string, objectID: string): Promise<TikTokReference[]> {
    const rows = await db.tikTok.findMany({
      where: { userId, productObjectID: objectID, metaStatus: "fetched" },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: 5,
      select: { url: true, title: true, authorName: true, note: true },
    });
    return rows
      .map((r) => ({ hook: hookOf(r.title ?? ""), author: r.authorName, url: r.url, note: r.note }))
      .filter((r) => r.hook.length > 0);
  }

  // ---- the oEmbed job ----

  async function runFetch(id: number, attempt: number): Promise<void> {
    const row = await db.tikTok.findUnique({ where: { id }, select: { ...rowSelect, userId: true } });
    if (!row) return;
    let meta;
    try {
      meta = await deps.oembed.lookup(row.url);
    } catch (error) {
      if (!(error instanceof TikTokOEmbedError)) throw error;
      await db.tikTok.updateMany({
        where: { id },
        data: { metaStatus: row.metaStatus === "fetched" ? "fetched" : "not-fetched", fetchError: error.message, fetchAttempts: { increment: 1 } },
      });
      log.info({ tiktokId: id, attempt, kind: error.kind }, "oEmbed fetch failed");
      // Unavailable: throw, so the job system tries again with backoff. Gone: nothing to retry.
      if (error.kind === "unavailable") throw error;
      return;
    }
    const data = {
      metaStatus: "fetched",
      title: meta.title,
      authorName: meta.authorName,
      authorUrl: meta.authorUrl,
      thumbnailUrl: meta.thumbnailUrl,
      fetchError: null,
      fetchedAt: new Date(),
      fetchAttempts: { increment: 1 },
    };
    const resolved = row.videoId.startsWith("short:") && meta.video ? meta.video : null;
    try {
      await db.tikTok.updateMany({ where: { id }, data: resolved ? { ...data, url: resolved.url, videoId: resolved.videoId } : data });
    } catch (error) {
      if (!resolved || !isUniqueViolation(error)) throw error;
      // The short link was a video already saved for this product: keep the one saved first, with this note added.
      const existing = await db.tikTok.findFirst({
        where: { userId: row.userId, productObjectID: row.productObjectID, videoId: resolved.videoId },
        select: { id: true, note: true },
      });
      if (existing && row.note && !existing.note.includes(row.note))
        await db.tikTok.updateMany({ where: { id: existing.id }, data: { note: `${existing.note}\n${row.note}`.trim().slice(0, TIKTOK_LIMITS.noteMax) } });
      await db.tikTok.deleteMany({ where: { id } });
    }
  }

  function registerJobs(jobs: Jobs = deps.jobs): void {
    jobs.register<{ id: number }>(OEMBED_JOB, ({ payload, attempt }) => runFetch(payload.id, attempt), {
      payloadSchema: z.object({ id: z.number().int().positive() }),
      concurrency: 2,
      timeoutMs: 60_000,
    });
  }

  return {
    list,
    add,
    remove,
    refetch,
    references,
    registerJobs,
    /** Runs the due oEmbed jobs in this process until none is left (tests, scripts). */
    idle: async () => {
      while ((await deps.jobs.runDue({ kinds: [OEMBED_JOB] })).ran > 0);
    },
  };
}

export type TikToks = ReturnType<typeof createTikToks>;
