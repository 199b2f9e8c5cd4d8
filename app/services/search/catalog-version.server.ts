// The catalogue's version (CatalogState.version): every web process's in-memory search index and cached totals
// compare it with the one they were built on and reload when it moved (decision 012). Whatever changes products
// (the CSV importer, the measured catalogue's materialiser) bumps it here, on the search
// side, rather than reaching into one another.
import { retryBusy, toDbTime, type Db } from "~/db.server";

/** Tells search caches the catalogue changed; returns the new version. */
export async function bumpCatalogVersion(db: Db, now = new Date()): Promise<number> {
  const rows = await retryBusy(() =>
    db.$queryRawUnsafe<{ version: number | bigint }[]>(
      `INSERT INTO "CatalogState" ("id", "version", "updatedAt") VALUES (1, 1, ?)
       ON CONFLICT("id") DO UPDATE SET "version" = "CatalogState"."version" + 1, "updatedAt" = excluded."updatedAt"
       RETURNING "version"`,
      toDbTime(now),
    ),
  );
  return Number(rows[0].version);
}
