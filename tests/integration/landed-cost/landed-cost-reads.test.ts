// The landed cost's reads on every grid and product page (the products' costs and suppliers, the seller's own HTS code
// and origin) are prepared statements on the SqlReader (docs/decisions/076); they must answer exactly what the Prisma
// reads answer (a client with no reader, e.g. a transaction's, still reads through Prisma): the grid's margins, the
// profit answer and the product page's breakdown, for products with and without a cost, a supplier, a dollar price,
// and with the seller's own code and origin.
import { beforeAll, describe, expect, it } from "vitest";
import { db, readerFor } from "~/db.server";
import { researchAccess } from "~/domain/products/research-access";
import { landedCostView, landedMargins, productProfit, setTariffChoice } from "~/services/landed-cost.server";
import { importProducts } from "~/services/products/import.server";
import { generateProducts } from "../../../scripts/lib/product-generator";
import { outcome, throughPrisma } from "../../helpers/prisma-reads";
import { createSignedInUser } from "../../helpers/site-users";

const NOW = new Date("2026-11-26T09:00:00Z");
// objectID, cost, shipping, supplier, niche
const PRODUCTS: [string, number | null, number, { supplierName: string; supplierUrl: string } | null, string][] = [
  ["lr-kitchen", 2000, 500, { supplierName: "AliExpress", supplierUrl: "https://www.aliexpress.com/item/1.html" }, "kitchen"],
  ["lr-nocost", null, 0, null, "kitchen"],
  ["lr-own-code", 1500, 900, { supplierName: "CJdropshipping", supplierUrl: "https://cjdropshipping.com/p/2.html" }, "pets"],
  ["lr-no-supplier", 800, 0, null, "beauty"],
];
const OBJECT_IDS = PRODUCTS.map(([objectID]) => objectID);

let user: Awaited<ReturnType<typeof db.user.findUniqueOrThrow>>;

beforeAll(async () => {
  const generated = [...generateProducts(PRODUCTS.length, { seed: 76, endDay: "2026-11-25" })];
  const rows = PRODUCTS.map(([objectID, costCents, shippingCents, supplier, niche], i) => ({
    line: i + 1,
    row: { ...generated[i], objectID, title: `Reads ${objectID}`, niches: [niche], priceCents: 4999, costCents, shippingCents, ...(supplier ?? { supplierName: null, supplierUrl: null }) },
  }));
  expect((await importProducts(db, rows, { now: NOW })).rejected).toEqual([]);
  const seller = await createSignedInUser({ userSubscribed: "yes" });
  user = await db.user.findUniqueOrThrow({ where: { id: seller.id } });
  const product = await db.product.findUniqueOrThrow({ where: { objectID: "lr-own-code" } });
  await db.savedProduct.create({ data: { userId: user.id, productId: product.id } });
  await setTariffChoice(db, { userId: user.id, objectID: "lr-own-code", htsCode: "4201.00.30", origin: "VN" });
  const kitchen = await db.product.findUniqueOrThrow({ where: { objectID: "lr-kitchen" } });
  // Saved without a code of its own: the guess stands.
  await db.savedProduct.create({ data: { userId: user.id, productId: kitchen.id } });
});

describe("the landed cost's reads", () => {
  it("give the grid's margins Prisma gives, the seller's own code and origin included", async () => {
    expect(readerFor(db)).not.toBeNull();
    const access = researchAccess(user);
    const input = { userId: user.id, objectIDs: [...OBJECT_IDS, "lr-missing"], access, now: NOW };
    const margins = await landedMargins(db, input);
    expect(margins).toEqual(await throughPrisma((client) => landedMargins(client, input)));
    expect(Object.keys(margins).sort()).toEqual(["lr-kitchen", "lr-no-supplier", "lr-own-code"]);
    // The seller's own code and origin (4201.00.30 from VN), as the profit answer figures them, not the niche's guess.
    const own = await productProfit(db, { userId: user.id, objectID: "lr-own-code", access, query: {}, now: NOW });
    expect(own.duty).toMatchObject({ htsCode: "4201.00.30", origin: "VN" });
    expect(margins["lr-own-code"].dutyCents).toBe(own.duty.dutyCents);
  });

  it("give the profit answer and the product page's breakdown Prisma gives, and the same 404 and 422", async () => {
    const access = researchAccess(user);
    for (const objectID of [...OBJECT_IDS, "lr-missing"]) {
      for (const query of [{}, { costCents: 700 }, { hts: "3924.10.40", origin: "MX" }]) {
        const input = { userId: user.id, objectID, access, query, now: NOW };
        const ours = await outcome(() => productProfit(db, input));
        expect(ours, `${objectID} ${JSON.stringify(query)}`).toEqual(await outcome(() => throughPrisma((client) => productProfit(client, input))));
      }
      const view = { userId: user.id, objectID, access, costCents: null, now: NOW };
      expect(await outcome(() => landedCostView(db, view))).toEqual(await outcome(() => throughPrisma((client) => landedCostView(client, view))));
    }
    expect(await outcome(() => productProfit(db, { userId: user.id, objectID: "lr-missing", access, query: {}, now: NOW }))).toMatchObject({ status: 404 });
    expect(await outcome(() => productProfit(db, { userId: user.id, objectID: "lr-nocost", access, query: {}, now: NOW }))).toMatchObject({ status: 422 });
  });
});
