// Marketing outbox (docs/decisions/032): prints; asserts nothing.
//   delivery:  events delivered per second to local stand-ins of Klaviyo and PostHog answering in 50 ms
//              (tests/helpers/fake-marketing.ts): Klaviyo events at the default rate limit, Klaviyo events
//              with the limit lifted (the pipeline's own ceiling at 4 and 16 requests in flight), and
//              PostHog captures (batches of 100).
//   request:   what marketing adds to the user's own request: the log-in write with and without its outbox
//              row (same transaction), sign-up's three rows, and a seed call (cap check + insert). Target:
//              under 1 ms, since the request only writes rows.
// BENCH_EVENTS (default 1000) sets the Klaviyo unthrottled count.
import { performance } from "node:perf_hooks";
import { prepareScratchDb } from "./lib/scratch-db";

prepareScratchDb("outbox");

const { db, dbReady } = await import("~/db.server");
const { createMarketingSenders } = await import("~/integrations/marketing.server");
const { createOutbox, outboxRows, writeOutbox } = await import("~/services/outbox.server");
const { createMarketing } = await import("~/services/marketing.server");
const { startFakeMarketing } = await import("../tests/helpers/fake-marketing");
await dbReady;

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000);
const fake = await startFakeMarketing({ delayMs: 50, record: false });
const senders = createMarketingSenders({
  KLAVIYO_API_KEY: "pk_bench",
  KLAVIYO_BASE_URL: fake.url,
  POSTHOG_KEY: "phc_bench",
  POSTHOG_HOST: fake.url,
  HYROS_BASE_URL: fake.url,
  ANYTRACK_INTEGRATION: "custom",
  ANYTRACK_BASE_URL: fake.url,
});
const quiet = { info() {}, warn() {}, debug() {} };
const user = await db.user.create({ data: { email: "bench@winningproducts.test", lastLoginAt: new Date() }, select: { id: true, email: true } });

async function delivery(label: string, service: "klaviyo" | "analytics", count: number, options: Parameters<typeof createOutbox>[0] extends infer O ? Partial<O> : never) {
  await db.outboxEvent.deleteMany();
  const rows =
    service === "klaviyo"
      ? Array.from({ length: count }, (_, i) => ({ ...outboxRows.course(user.id, { progressPercentage: 100, completedNow: true })[1], dedupeKey: `bench:${label}:${i}` }))
      : Array.from({ length: count }, () => outboxRows.course(user.id, { progressPercentage: 100, completedNow: true })[2]);
  for (let i = 0; i < rows.length; i += 500) await writeOutbox(db, rows.slice(i, i + 500));
  const outbox = createOutbox({ db, senders, log: quiet, ...options });
  const start = performance.now();
  const handled = await outbox.deliverDue(service);
  const ms = performance.now() - start;
  outbox.close();
  const sent = await db.outboxEvent.count({ where: { status: "sent" } });
  console.log(`${label.padEnd(44)} ${sent}/${handled} sent in ${(ms / 1000).toFixed(2)} s = ${((sent * 1000) / ms).toFixed(0)} events/s`);
}

console.log("delivery (every answer takes 50 ms)");
await delivery("Klaviyo events, default limit (50/s, 8 in flight)", "klaviyo", 250, {});
const unlimited = { "klaviyo:event": { perSecond: 1e6, burst: 1e6 } };
await delivery("Klaviyo events, no limit, 4 in flight", "klaviyo", EVENTS / 2, { rateLimits: unlimited, concurrency: 4 });
await delivery("Klaviyo events, no limit, 16 in flight", "klaviyo", EVENTS, { rateLimits: unlimited, concurrency: 16 });
await delivery("PostHog captures, batches of 100", "analytics", EVENTS * 5, { rateLimits: { "analytics:capture": { perSecond: 1e6, burst: 1e6 } } });

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p95: at(0.95) };
}
const fmt = (ms: number) => `${ms.toFixed(3)} ms`;

async function timeEach(n: number, fn: () => Promise<unknown>) {
  const samples: number[] = [];
  for (let i = 0; i < 20; i++) await fn();
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return stats(samples);
}

console.log("\nthe user's own request");
const N = 300;
await db.outboxEvent.deleteMany();
// Inside the caller's transaction (sign-up, a lesson, a Paddle notification): the row's INSERT is all
// marketing adds; the commit (an fsync) is the caller's anyway.
const { writeTransaction } = await import("~/db.server");
const inside: number[] = [];
for (let i = 0; i < N; i++) {
  await writeTransaction(db, async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { lastLoginAt: new Date() }, select: { id: true } });
    const start = performance.now();
    await writeOutbox(tx, outboxRows.signup(user, "password"));
    inside.push(performance.now() - start);
  });
}
const insideStats = stats(inside.slice(20));
console.log(`sign-up's 3 rows inside its transaction       median ${fmt(insideStats.median)}, p95 ${fmt(insideStats.p95)}  <- marketing's share`);
const without = await timeEach(N, () => db.$transaction([db.user.update({ where: { id: user.id }, data: { lastLoginAt: new Date() }, select: { id: true } })]));
const withRow = await timeEach(N, () =>
  db.$transaction([db.user.update({ where: { id: user.id }, data: { lastLoginAt: new Date() }, select: { id: true } }), writeOutbox(db, outboxRows.login(user.id))]),
);
console.log(`log-in write alone (batch, with its commit)   median ${fmt(without.median)}, p95 ${fmt(without.p95)}`);
console.log(`log-in write + its outbox row, same batch     median ${fmt(withRow.median)}, p95 ${fmt(withRow.p95)}`);
// The seed's calls are marketing only: a cap check and the row, committed on their own.
const marketing = createMarketing({ db, outbox: createOutbox({ db, senders: {}, log: quiet }), now: () => new Date("3000-01-01T00:00:00Z") });
const seedCall = await timeEach(N, () => marketing.marketingEvent(user, { email: user.email, event_name: "Viewed Pricing" }));
console.log(`seed call marketingEvent (cap check + row)    median ${fmt(seedCall.median)}, p95 ${fmt(seedCall.p95)}`);
console.log("(times include waits for SQLite's write lock and fsync on this shared machine)");

await fake.close();
await db.$disconnect();
process.exit(0);
