// A separate OS process delivering the marketing outbox through the job system, for
// outbox-multiprocess.test.ts and `npm run bench -- outbox`. Not a test file itself.
//
// Run: node --import tsx tests/integration/marketing/outbox-worker.ts, with DATABASE_URL, KLAVIYO_API_KEY and
// KLAVIYO_BASE_URL (or other services' keys) set, and OUTBOX_OWNER; optionally OUTBOX_LEASE_MS (2000,
// both the rows' and the deliverer job's lease). It prints "ready" once connected, starts the job worker
// and kicks every configured service's deliverer on a "go" line, and on "stop" stops and exits.
import { createInterface } from "node:readline";
import { db, dbReady } from "~/db.server";
import { OUTBOX_SERVICES } from "~/domain/marketing/outbox";
import { getEnv } from "~/env.server";
import { createMarketingSenders } from "~/integrations/marketing.server";
import { createJobs } from "~/services/jobs.server";
import { createOutbox } from "~/services/outbox.server";

const owner = process.env.OUTBOX_OWNER ?? `outbox-worker-${process.pid}`;
const leaseMs = Number(process.env.OUTBOX_LEASE_MS ?? 2_000);
const quiet = { info() {}, warn() {}, error() {} };

const jobs = createJobs({ db, ownerId: owner, pollMs: 100, log: quiet });
const outbox = createOutbox({
  db,
  jobs,
  senders: createMarketingSenders(getEnv()),
  ownerId: owner,
  leaseMs,
  jobLeaseMs: leaseMs,
  pollMs: 100,
  log: quiet,
  rateLimits: { "klaviyo:event": { perSecond: 10_000, burst: 10_000 }, "analytics:capture": { perSecond: 10_000, burst: 10_000 } },
  concurrency: Number(process.env.OUTBOX_CONCURRENCY ?? 4),
});
outbox.registerJobs(jobs);

await dbReady;
await db.outboxEvent.count();
process.stdout.write("ready\n");

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line === "go") {
    jobs.start();
    for (const service of OUTBOX_SERVICES) await outbox.kick(service);
  }
  if (line === "stop") break;
}
lines.close();
await jobs.stop();
outbox.close();
await db.$disconnect();
process.exit(0);
