// A separate OS process that delivers Paddle notifications to billing.handleWebhook on a shared SQLite
// file, for the multi-process webhook test (billing-webhook-concurrency.test.ts). Not a test file.
// Reads WEBHOOK_BODIES_FILE (a JSON array of raw bodies) and WEBHOOK_SECRET; prints "ready", waits for a
// line on stdin, delivers every body (all at once), prints one JSON line { statuses, outcomes }.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { AppError } from "~/domain/errors";
import { db, dbReady } from "~/db.server";
import { readPaddleNotification, signWebhook } from "~/integrations/paddle.server";
import { createLocalPaddle } from "~/integrations/paddle-local.server";
import { createBilling } from "~/services/billing.server";

const bodies = JSON.parse(readFileSync(process.env.WEBHOOK_BODIES_FILE!, "utf8")) as string[];
const secret = process.env.WEBHOOK_SECRET!;
const prices = JSON.parse(process.env.WEBHOOK_PRICES!) as {
  basic: string;
  pro: string;
  innerCircle: string;
  caseStudy: string;
};
const billing = createBilling({
  db,
  prices,
  webhookSecret: secret,
  retentionDiscountId: "dsc_local_retention",
  localCheckout: false,
  paddle: { local: createLocalPaddle },
  readNotification: readPaddleNotification,
});

await dbReady;
await db.user.findFirst({ select: { id: true } });
process.stdout.write("ready\n");
const lines = createInterface({ input: process.stdin });
await new Promise<void>((resolve) => lines.once("line", () => resolve()));
lines.close();

const results = await Promise.all(
  bodies.map(async (raw) => {
    try {
      const res = await billing.handleWebhook(raw, signWebhook(raw, secret));
      return { status: 200, outcome: res.outcome };
    } catch (error) {
      // What the route answers: an AppError's status through the one mapper, anything else the error handler's 500.
      return { status: error instanceof AppError ? error.status : 500, outcome: String((error as Error).message) };
    }
  }),
);
process.stdout.write(`${JSON.stringify(results)}\n`);
await db.$disconnect();
