// A database that loaded the first starter tariff table (before decision 066 checked it) gets the corrected one on
// its next start: the earlier starter's rows (a Section 301 List 3 row on kitchenware that should never have been
// there among them) are replaced, rows the operator imported stay, and a second start changes nothing.
import { beforeAll, describe, expect, it } from "vitest";
import { db, dbReady } from "~/db.server";
import { ensureTariffTable, starterTable } from "~/services/tariffs.server";

const COLUMNS = `"kind","series","name","htsPrefix","origins","exemptPrefixes","rateBp","perItemCents","validFrom","validTo","source","revision"`;

beforeAll(async () => {
  await dbReady;
  // As the first starter left it: its edition, and the List 3 row on 3924.10.40 that decision 066 found wrong.
  await db.$executeRawUnsafe(
    `INSERT INTO "TariffLayer" (${COLUMNS}) VALUES
      ('mfn','mfn','MFN (column 1)','39241040','["*"]','[]',340,NULL,'2026-01-01',NULL,'old starter','us-starter-2026-11-26'),
      ('section301','section-301-cn','Section 301 (List 3)','39241040','["CN","HK"]','[]',2500,NULL,'2019-05-10',NULL,'old starter','us-starter-2026-11-26'),
      ('surcharge','ops-kitchen','An operator''s layer','3924','["CN"]','[]',500,NULL,'2026-11-01',NULL,'the operator','ops-2026-11')`,
  );
});

const byRevision = async () =>
  Object.fromEntries((await db.tariffLayer.groupBy({ by: ["revision"], _count: { _all: true } })).map((g) => [g.revision, g._count._all]));

describe("the starter tariff table after an upgrade", () => {
  it("replaces the earlier starter's rows with this edition's, keeps the operator's, and loads once", async () => {
    const edition = starterTable().edition;
    await ensureTariffTable(db);
    const after = await byRevision();
    expect(after["us-starter-2026-11-26"]).toBeUndefined();
    expect(after["ops-2026-11"]).toBe(1);
    expect(after[edition]).toBeGreaterThan(10);
    expect(await db.tariffLayer.count({ where: { series: "section-301-cn", htsPrefix: "39241040" } })).toBe(0);

    await ensureTariffTable(db);
    expect(await byRevision()).toEqual(after);
  });
});
