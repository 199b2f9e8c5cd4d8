// "Check now" (docs/decisions/024, 047): a follower asks for a read of the store before its schedule. Limits per
// user: one per store per perStoreMs (default 10 minutes) and perHour an hour, decided and recorded in one
// statement so two presses at once cannot both pass; a refusal is AppError 429 with retryAfterSeconds.
import { retryBusy, type Db } from "~/db.server";
import { COMPETITOR_RULES, retryAfterSeconds } from "~/domain/competitors/competitors";
import { AppError } from "~/domain/errors";
import type { JobId, Jobs } from "~/services/jobs.server";
import { enqueueCheck, ownFollow, requirePaid, toDbTime, type CompetitorUser } from "~/services/competitors/shared.server";

export interface CheckNowDeps {
  db: Db;
  jobs: Pick<Jobs, "enqueue">;
  now: () => Date;
  /** One request per store per this long. */
  perStoreMs: number;
  /** Requests per user per COMPETITOR_RULES.checkNowWindowMs. */
  perHour: number;
}

/**
 * Queues a read of the store now. Limits per user: one per store per 10 minutes and a few an hour
 * (AppError 429 with retryAfterSeconds). A read already queued or running is not queued twice.
 */
export async function checkNow(deps: CheckNowDeps, user: CompetitorUser, id: number): Promise<{ queued: true; jobId: JobId; storeId: number }> {
  const { db, now, perStoreMs, perHour } = deps;
  const follow = await ownFollow(db, user.id, id);
  await requirePaid(db, user);
  if (follow.store.paused) throw new AppError(409, `${follow.name} is paused by our team for now; its last read stays as it is.`);
  const at = now();
  const storeSince = new Date(at.getTime() - perStoreMs);
  const hourSince = new Date(at.getTime() - COMPETITOR_RULES.checkNowWindowMs);
  // One statement decides and records, so two presses at once cannot both pass.
  const inserted = await retryBusy(() =>
    db.$executeRawUnsafe(
      `INSERT INTO "CompetitorCheckRequest" ("userId", "storeId", "at")
       SELECT ?, ?, ?
       WHERE NOT EXISTS (SELECT 1 FROM "CompetitorCheckRequest" WHERE "userId" = ? AND "storeId" = ? AND "at" > ?)
         AND (SELECT count(*) FROM "CompetitorCheckRequest" WHERE "userId" = ? AND "at" > ?) < ?`,
      user.id,
      follow.storeId,
      toDbTime(at),
      user.id,
      follow.storeId,
      toDbTime(storeSince),
      user.id,
      toDbTime(hourSince),
      perHour,
    ),
  );
  if (inserted !== 1) {
    const recent = await db.competitorCheckRequest.findFirst({
      where: { userId: user.id, storeId: follow.storeId, at: { gt: storeSince } },
      orderBy: { at: "asc" },
      select: { at: true },
    });
    if (recent) {
      const wait = retryAfterSeconds(recent.at.getTime(), perStoreMs, at.getTime());
      throw new AppError(429, `${follow.name} was checked at your request a moment ago. You can check it again in ${Math.ceil(wait / 60)} minutes.`, {
        retryAfterSeconds: wait,
      });
    }
    const oldest = await db.competitorCheckRequest.findFirst({
      where: { userId: user.id, at: { gt: hourSince } },
      orderBy: { at: "asc" },
      select: { at: true },
    });
    const wait = retryAfterSeconds(oldest?.at.getTime() ?? at.getTime(), COMPETITOR_RULES.checkNowWindowMs, at.getTime());
    throw new AppError(429, `You can ask for ${perHour} checks an hour. Try again in ${Math.ceil(wait / 60)} minutes.`, {
      retryAfterSeconds: wait,
    });
  }
  // A parked store gets another try: the follower asked for it (decision 047). Its failure count stays, so one
  // more failure parks it again at once.
  if (follow.store.parkedAt !== null) {
    await retryBusy(() => db.competitorStore.updateMany({ where: { id: follow.storeId, parkedAt: { not: null } }, data: { parkedAt: null, status: "failing" } }));
  }
  const job = await enqueueCheck(deps, follow.storeId);
  return { queued: true, jobId: job.id, storeId: follow.storeId };
}
