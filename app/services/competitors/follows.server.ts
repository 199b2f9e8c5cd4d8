// Following (docs/decisions/023): a user's follows of rival stores (add, list, rename, stop) and of single
// products in them (price-drop alerts). A store is ONE CompetitorStore row per domain, shared by every
// follower; a new one is confirmed as a readable Shopify store before it is stored, and its first read is
// queued at once. The plan's cap holds even when two adds race (one statement decides).
import { isUniqueViolation, retryBusy, type Db } from "~/db.server";
import { capSentence, COMPETITOR_RULES } from "~/domain/competitors/competitors";
import { AppError } from "~/domain/errors";
import type { CrawlMemory } from "~/domain/crawl/politeness";
import { normaliseStoreDomain } from "~/domain/crawl/store-url";
import type { ShopifyStorefront } from "~/integrations/shopify-storefront.server";
import type { Jobs } from "~/services/jobs.server";
import { memoryColumns } from "~/services/crawl/state.server";
import {
  enqueueCheck,
  followSelect,
  ownFollow,
  requirePaid,
  requireProduct,
  storeSelect,
  summaryOf,
  toDbTime,
  type CompetitorSummary,
  type CompetitorUser,
} from "~/services/competitors/shared.server";

export interface FollowsDeps {
  db: Db;
  storefront: Pick<ShopifyStorefront, "probe">;
  jobs: Pick<Jobs, "enqueue">;
  now: () => Date;
}

function probeMemory(memory: CrawlMemory | undefined) {
  if (!memory) return {};
  const { robots, nextRequestAt } = memoryColumns(memory);
  return { robots, nextRequestAt };
}

async function findStore(db: Db, domain: string) {
  return (
    (await db.competitorStore.findUnique({ where: { domain }, select: storeSelect })) ??
    (await db.competitorStore.findFirst({ where: { fetchDomain: domain }, select: storeSelect, orderBy: { id: "asc" } }))
  );
}

/**
 * Follows the store at the address the user typed (a URL, a domain or its *.myshopify.com address). A store
 * someone already follows is shared; a new one is confirmed as a readable Shopify store first.
 */
export async function addFollow(deps: FollowsDeps, user: CompetitorUser, input: string): Promise<CompetitorSummary> {
  const { db, storefront, now } = deps;
  const normalised = normaliseStoreDomain(input);
  if (!normalised.ok) throw new AppError(400, normalised.error);
  const domain = normalised.domain;
  const access = await requirePaid(db, user);

  let store = await findStore(db, domain);
  const refuseDuplicate = async (storeId: number) => {
    const existing = await db.competitor.findUnique({ where: { userId_storeId: { userId: user.id, storeId } }, select: { id: true } });
    if (existing) throw new AppError(409, `You already follow ${domain}.`, { id: existing.id });
  };
  const refuseOverCap = async () => {
    const following = await db.competitor.count({ where: { userId: user.id } });
    if (following >= access.limit) {
      throw new AppError(402, capSentence(access, following), { upsell: true, upgradeUrl: access.upgradeUrl, limit: access.limit, following });
    }
  };
  if (store) await refuseDuplicate(store.id);
  await refuseOverCap();

  if (!store) {
    const probe = await storefront.probe(domain);
    if (!probe.ok) throw new AppError(422, probe.message, { reason: probe.reason });
    store = await findStore(db, probe.domain);
    if (store) {
      await refuseDuplicate(store.id);
    } else {
      try {
        store = await retryBusy(() =>
          db.competitorStore.create({
            // The probe's robots.txt and its next allowed moment: the first read does not ask again at once (decision 088).
            data: { domain, fetchDomain: probe.domain, name: domain, status: "pending", nextCheckAt: now(), ...probeMemory(probe.memory) },
            select: storeSelect,
          }),
        );
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        // Someone else added this domain a moment ago: share their row.
        store = (await findStore(db, domain))!;
        await refuseDuplicate(store.id);
      }
    }
  }

  // One statement: the cap holds even when two adds of this user race.
  const at = now();
  const inserted = await retryBusy(() =>
    db.$executeRawUnsafe(
      `INSERT INTO "Competitor" ("userId", "storeId", "name", "createdAt")
       SELECT ?, ?, ?, ? WHERE (SELECT count(*) FROM "Competitor" WHERE "userId" = ?) < ?
       ON CONFLICT ("userId", "storeId") DO NOTHING`,
      user.id,
      store.id,
      domain,
      toDbTime(at),
      user.id,
      access.limit,
    ),
  );
  if (inserted !== 1) {
    await refuseDuplicate(store.id);
    await refuseOverCap();
    throw new AppError(409, `You already follow ${domain}.`);
  }

  // A store nobody followed any more (or never read) is read again at once.
  if (store.nextCheckAt === null || store.lastCheckedAt === null) {
    await retryBusy(() => db.competitorStore.updateMany({ where: { id: store.id, nextCheckAt: null }, data: { nextCheckAt: at } }));
    await enqueueCheck(deps, store.id);
  }
  const follow = await db.competitor.findUniqueOrThrow({ where: { userId_storeId: { userId: user.id, storeId: store.id } }, select: followSelect });
  return summaryOf(follow);
}

export async function listFollows(db: Db, userId: string): Promise<{ items: CompetitorSummary[] }> {
  const rows = await db.competitor.findMany({ where: { userId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], select: followSelect });
  return { items: rows.map(summaryOf) };
}

export async function renameFollow(db: Db, userId: string, id: number, name: string): Promise<CompetitorSummary> {
  const follow = await ownFollow(db, userId, id);
  const clean = name.trim().replace(/\s+/g, " ");
  if (clean === "" || clean.length > COMPETITOR_RULES.nameMaxLength) {
    throw new AppError(400, `A store's name is 1 to ${COMPETITOR_RULES.nameMaxLength} characters.`);
  }
  await retryBusy(() => db.competitor.update({ where: { id: follow.id }, data: { name: clean }, select: { id: true } }));
  return { ...summaryOf(follow), name: clean };
}

/**
 * Stops following; a store nobody follows any more and the operator does not list is no longer read (its history
 * is kept). A listed one is read on at the operator's interval (decision 047).
 */
export async function removeFollow(db: Db, userId: string, id: number): Promise<{ deleted: true }> {
  const follow = await ownFollow(db, userId, id);
  await retryBusy(() => db.competitor.deleteMany({ where: { id: follow.id, userId } }));
  await retryBusy(() =>
    db.$executeRawUnsafe(
      `UPDATE "CompetitorStore" SET "nextCheckAt" = NULL
       WHERE "id" = ? AND "operatorListed" = FALSE AND NOT EXISTS (SELECT 1 FROM "Competitor" WHERE "storeId" = ?)`,
      follow.storeId,
      follow.storeId,
    ),
  );
  return { deleted: true };
}

/** Follows one of the store's products: its price drops alert this user. Following it twice is one follow. */
export async function followProduct(
  deps: Pick<FollowsDeps, "db" | "now">,
  user: CompetitorUser,
  id: number,
  productId: string,
): Promise<{ productId: string; followed: true }> {
  const { db, now } = deps;
  const follow = await ownFollow(db, user.id, id);
  await requirePaid(db, user);
  await requireProduct(db, follow.storeId, productId);
  try {
    await retryBusy(() =>
      db.competitorProductFollow.create({
        data: { userId: user.id, competitorId: follow.id, storeId: follow.storeId, productId, createdAt: now() },
        select: { id: true },
      }),
    );
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  return { productId, followed: true };
}

export async function unfollowProduct(db: Db, userId: string, id: number, productId: string): Promise<{ productId: string; followed: false }> {
  const follow = await ownFollow(db, userId, id);
  await retryBusy(() => db.competitorProductFollow.deleteMany({ where: { competitorId: follow.id, productId, userId } }));
  return { productId, followed: false };
}
