// What the tracker keeps of a store's history (docs/decisions/047). A read already stores only what changed
// (CompetitorChange rows) and one CompetitorCheck row (the catalogue's size at that read); this daily job keeps
// those tables from growing forever: checks older than RETENTION_RULES.thinAfterDays are thinned to one a UTC day
// per store (the day's last successful read, else its last attempt), and checks and changes older than keepDays
// are deleted. Deletions go in batches so a reader is never locked out for long.
import { dialectOf, retryBusy, type Db } from "~/db.server";
import { RETENTION_RULES, retentionCutoffs } from "~/domain/competitors/competitors";
import { toDbTime } from "~/services/crawl/rows.server";

const BATCH = 5_000;

export interface RetentionOutcome {
  /** Checks removed because another check of their store and day is kept. */
  thinned: number;
  /** Checks and changes removed for their age. */
  checksDeleted: number;
  changesDeleted: number;
}

async function inBatches(db: Db, statement: string, ...values: unknown[]): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await retryBusy(() => db.$executeRawUnsafe(statement, ...values, BATCH));
    total += n;
    if (n < BATCH) return total;
  }
}

/** Thins and deletes old history; running it twice in a row removes nothing the second time. */
export async function applyRetention(
  deps: { db: Db; now: () => Date },
  rules: { thinAfterDays: number; keepDays: number } = RETENTION_RULES,
): Promise<RetentionOutcome> {
  const { db } = deps;
  const { thinBefore, deleteBefore } = retentionCutoffs(deps.now(), rules);
  const checksDeleted = await inBatches(
    db,
    `DELETE FROM "CompetitorCheck" WHERE "id" IN (SELECT "id" FROM "CompetitorCheck" WHERE "takenAt" < ? LIMIT ?)`,
    toDbTime(deleteBefore),
  );
  const changesDeleted = await inBatches(
    db,
    `DELETE FROM "CompetitorChange" WHERE "id" IN (SELECT "id" FROM "CompetitorChange" WHERE "at" < ? LIMIT ?)`,
    toDbTime(deleteBefore),
  );
  // SQLite stores times as ISO text, whose first 10 characters are the UTC day; PostgreSQL's are UTC timestamps.
  const day = dialectOf(db) === "sqlite" ? `substr("takenAt", 1, 10)` : `date_trunc('day', "takenAt")`;
  const thinned = await inBatches(
    db,
    `DELETE FROM "CompetitorCheck" WHERE "id" IN (
       SELECT "id" FROM (
         SELECT "id", row_number() OVER (
           PARTITION BY "storeId", ${day} ORDER BY "ok" DESC, "takenAt" DESC, "id" DESC
         ) AS "rank"
         FROM "CompetitorCheck" WHERE "takenAt" < ?
       ) AS "ranked" WHERE "rank" > 1 LIMIT ?
     )`,
    toDbTime(thinBefore),
  );
  return { thinned, checksDeleted, changesDeleted };
}
