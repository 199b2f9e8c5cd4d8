// Data for `npm start` (idempotent): products, course content and, on a local demo only (docs/decisions/042),
// a demo account with a known login, printed at start-up and written to data/demo-login.txt. A public
// deployment gets no demo account, and one left from an earlier start is locked.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { db } from "~/db.server";
import { localCheckoutEnabled, localDemo } from "~/env.server";
import { DEMO_EMAIL, DEMO_PASSWORD, DEMO_PLAN_ID, seedDemoAccount } from "~/services/accounts/demo-account.server";
import { syncCourseContent } from "~/services/course/content.server";
import { recomputeStaleInsights } from "~/services/products/import.server";
import { seedProductsIfEmpty } from "../scripts/lib/seed-products";

const DEMO_LOGIN_FILE = "data/demo-login.txt";

async function startDemoTrial(userId: string) {
  // Loaded only here: the composition root binds billing to this database and the local checkout.
  const { auth, billing } = await import("~/services/index.server");
  return billing.completeLocalCheckout(await auth.loadUser(userId), DEMO_PLAN_ID);
}

async function main() {
  // The demo's trial is bought through the local checkout, as a visitor would (decision 051).
  const demo = await seedDemoAccount(db, {
    localDemo: localDemo(),
    startTrial: localCheckoutEnabled() ? startDemoTrial : undefined,
  });
  if (demo !== "ready") {
    rmSync(DEMO_LOGIN_FILE, { force: true });
    console.log(
      demo === "locked"
        ? `Demo account: ${DEMO_EMAIL} exists on a server that is not a local demo (APP_URL not on localhost): locked with a random password and signed out.`
        : "Demo account: none (this server is not a local demo: APP_URL is not on localhost).",
    );
  }
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
  if (demo === "ready") {
    const text = `Demo login: ${DEMO_EMAIL} / ${DEMO_PASSWORD} (a ${DEMO_PLAN_ID} plan trial with credits)\n`;
    mkdirSync("data", { recursive: true });
    writeFileSync(DEMO_LOGIN_FILE, text);
    console.log(text.trim());
  }
}

main()
  .then(() => db.$disconnect())
  .catch(async (error) => {
    console.error(error);
    await db.$disconnect();
    process.exit(1);
  });
