// Demo data for `npm start` (idempotent): a demo account with a known login, printed at start-up and
// written to data/demo-login.txt. Later issues add products, course content and drops here.
import { mkdirSync, writeFileSync } from "node:fs";
import { db } from "~/db.server";
import { hashPassword } from "~/services/passwords.server";
import { syncCourseContent } from "~/services/course-content.server";
import { recomputeStaleInsights } from "~/services/product-import.server";
import { seedProductsIfEmpty } from "../scripts/lib/seed-products";

export const DEMO_EMAIL = "demo@winningproducts.test";
export const DEMO_PASSWORD = "demo-password-2026";

async function seedDemoUser() {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.user.upsert({
    where: { email: DEMO_EMAIL },
    create: { email: DEMO_EMAIL, passwordHash },
    update: { passwordHash },
    select: { id: true },
  });
}

async function main() {
  await seedDemoUser();
  // Products (issue 4): a generated catalogue of 3,000 when the table is empty.
  const products = await seedProductsIfEmpty(db);
  if (products) console.log(`Products: ${products.imported} generated and imported (seed 42).`);
  // Rows computed by older insight rules (docs/decisions/025) get their stage, growth and reasons again.
  const recomputed = await recomputeStaleInsights(db);
  if (recomputed > 0) console.log(`Products: insights of ${recomputed} recomputed with the current rules.`);
  // The course lives in content/course/ (docs/decisions/010); changed text is updated on every run.
  const course = await syncCourseContent(db);
  console.log(
    `Course: ${course.modules} modules, ${course.lessons} lessons (${course.created} new, ${course.updated} updated, ${course.removed} removed).`,
  );
  const text = `Demo login: ${DEMO_EMAIL} / ${DEMO_PASSWORD}\n`;
  mkdirSync("data", { recursive: true });
  writeFileSync("data/demo-login.txt", text);
  console.log(text.trim());
}

main()
  .then(() => db.$disconnect())
  .catch(async (error) => {
    console.error(error);
    await db.$disconnect();
    process.exit(1);
  });
