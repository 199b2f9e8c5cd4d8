// A database that loaded an earlier starter tariff table gets this edition (2026 HTS Revision 20, decision 081) on its
// next start: the rows of the first starter (before decision 066 checked it: a Section 301 List 3 row on kitchenware
// that should never have been there among them) and of decision 066's checked starter (Section 122 with no note 52
// layer) are replaced, rows the operator imported stay, and a second start changes nothing.
import { beforeAll, describe, expect, it } from "vitest";
import { db, dbReady } from "~/db.server";
import { ensureTariffTable, starterTable } from "~/services/landed-cost/tariffs.server";

const COLUMNS = `"kind","series","name","htsPrefix","origins","exemptPrefixes","rateBp","perItemCents","validFrom","validTo","source","revision"`;

beforeAll(async () => {
  await dbReady;
  // As the first starter left it: its edition, and the List 3 row on 3924.10.40 that decision 066 found wrong; as
  // decision 066's checked starter left it: its edition and its Section 122 row; and an operator's own layer.
  await db.$executeRawUnsafe(
    `INSERT INTO "TariffLayer" (${COLUMNS}) VALUES
      ('mfn','mfn','MFN (column 1)','39241040','["*"]','[]',340,NULL,'2026-01-01',NULL,'old starter','us-starter-2026-11-26'),
      ('section301','section-301-cn','Section 301 (List 3)','39241040','["CN","HK"]','[]',2500,NULL,'2019-05-10',NULL,'old starter','us-starter-2026-11-26'),
      ('mfn','mfn','MFN (column 1)','39241040','["*"]','[]',340,NULL,'2026-01-01',NULL,'checked starter','us-starter-2026-11-26-checked'),
      ('surcharge','section-122','Section 122 temporary import surcharge','','["*"]','[]',1000,NULL,'2026-02-24','2026-07-24','checked starter','us-starter-2026-11-26-checked'),
      ('surcharge','ops-kitchen','An operator''s layer','3924','["CN"]','[]',500,NULL,'2026-11-01',NULL,'the operator','ops-2026-11')`,
  );
});

const byRevision = async () =>
  Object.fromEntries((await db.tariffLayer.groupBy({ by: ["revision"], _count: { _all: true } })).map((g) => [g.revision, g._count._all]));

describe("the starter tariff table after an upgrade", () => {
  it("replaces the earlier starter's rows with this edition's, keeps the operator's, and loads once", async () => {
    const edition = starterTable().edition;
    expect(edition).toBe("us-starter-2026-12-07-hts-2026-rev20");
    await ensureTariffTable(db);
    const after = await byRevision();
    expect(after["us-starter-2026-11-26"]).toBeUndefined();
    expect(after["us-starter-2026-11-26-checked"]).toBeUndefined();
    expect(after["ops-2026-11"]).toBe(1);
    expect(after[edition]).toBe(starterTable().layers.length);
    expect(await db.tariffLayer.count({ where: { series: "section-301-cn", htsPrefix: "39241040" } })).toBe(0);
    // Revision 20's rows: Section 122 once, ended on 2026-07-24 (its last day of entries 2026-07-23), and the note 52
    // layer for China in force from that day; each row names the revision it was read in.
    const s122 = await db.tariffLayer.findMany({ where: { series: "section-122" }, select: { validFrom: true, validTo: true, rateBp: true, revision: true, source: true } });
    expect(s122).toEqual([{ validFrom: "2026-02-24", validTo: "2026-07-24", rateBp: 1000, revision: edition, source: expect.stringContaining("Revision 20") }]);
    const note52 = await db.tariffLayer.findMany({ where: { series: "section-301-note-52", origins: { contains: '"CN"' } }, select: { kind: true, rateBp: true, validFrom: true, validTo: true } });
    expect(note52).toEqual([{ kind: "section301", rateBp: 1250, validFrom: "2026-07-24", validTo: null }]);

    await ensureTariffTable(db);
    expect(await byRevision()).toEqual(after);
  });
});
