// A product page's row and daily series are read as two prepared statements on the SqlReader (docs/decisions/076); the
// product they make must be exactly the one the Prisma read makes (a client with no reader, e.g. a transaction's,
// still reads through Prisma): with and without a history, saved and tracked, with and without insights, a missing
// product's 404.
import { beforeAll, describe, expect, it } from "vitest";
import { db, readerFor, type Db } from "~/db.server";
import { researchAccess } from "~/domain/products/research-access";
import { importProducts } from "~/services/products/import.server";
import { getProduct, saveProduct, trackProduct } from "~/services/products.server";
import { generateProducts } from "../../../scripts/lib/product-generator";
import { fixtureCatalogue, insertProducts } from "../../helpers/products";
import { outcome, throughPrisma } from "../../helpers/prisma-reads";
import { createSignedInUser } from "../../helpers/site-users";

const NOW = new Date("2026-11-26T09:00:00Z");

beforeAll(async () => {
  const generated = [...generateProducts(2, { seed: 761, endDay: "2026-11-25" })];
  const rows = generated.map((row, i) => ({
    line: i + 1,
    row: { ...row, objectID: `pdr-imported-${i}`, supplierName: i === 0 ? "AliExpress" : null, supplierUrl: i === 0 ? "https://www.aliexpress.com/item/9.html" : null },
  }));
  expect((await importProducts(db, rows, { now: NOW })).rejected).toEqual([]);
  // Inserted without a history row.
  await insertProducts(db, fixtureCatalogue(1, 76).map((p) => ({ ...p, objectID: "pdr-no-history" })));
});

const read = (client: Db, input: Parameters<typeof getProduct>[1]) => outcome(() => getProduct(client, input));

describe("a product page's reads", () => {
  it("make the product Prisma makes", async () => {
    expect(readerFor(db)).not.toBeNull();
    const paid = await createSignedInUser({ userSubscribed: "yes" });
    const free = await createSignedInUser();
    await saveProduct(db, paid.id, "pdr-imported-0");
    await trackProduct(db, paid.id, "pdr-imported-1");
    for (const seller of [paid, free]) {
      const user = await db.user.findUniqueOrThrow({ where: { id: seller.id } });
      for (const objectID of ["pdr-imported-0", "pdr-imported-1", "pdr-no-history", "pdr-missing"]) {
        const input = { userId: user.id, objectID, access: researchAccess(user) };
        const ours = await read(db, input);
        const prisma = await throughPrisma((client) => read(client, input));
        expect(ours, `${seller.email} ${objectID}`).toEqual(prisma);
      }
    }
    const user = await db.user.findUniqueOrThrow({ where: { id: paid.id } });
    const saved = await getProduct(db, { userId: user.id, objectID: "pdr-imported-0", access: researchAccess(user) });
    expect(saved).toMatchObject({ saved: true, supplier: { name: "AliExpress" } });
    expect(saved.history?.orders.length).toBeGreaterThan(20);
    const tracked = await getProduct(db, { userId: user.id, objectID: "pdr-imported-1", access: researchAccess(user) });
    expect(tracked.sinceTracking).not.toBeNull();
    expect((await getProduct(db, { userId: user.id, objectID: "pdr-no-history", access: researchAccess(user) })).history).toBeNull();
    expect(await read(db, { userId: user.id, objectID: "pdr-missing", access: researchAccess(user) })).toMatchObject({ status: 404 });
  });
});
