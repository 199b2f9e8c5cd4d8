// Delivering the outbox's rows (docs/decisions/032): one round claims a batch of a service's due rows,
// builds the calls, sends them within the service's rate limit (requests in flight at once, PostHog one
// batch at a time) and records each answer; the deliverer job repeats rounds while there is work, waits
// a while for more, then ends. Delivery is at least once: a row sent but not yet marked when its
// deliverer died is sent again with the same dedupe key.
import { retryBusy } from "~/db.server";
import { errorText } from "~/domain/jobs";
import { classifyAnswer, TokenBucket, type OutboxService } from "~/domain/marketing/outbox";
import { claim, markFailed, markSent, pauseService, release } from "~/services/outbox/leases.server";
import { configured, type ClaimedRow, type OutboxRuntime, type Unit } from "~/services/outbox/runtime.server";
import { analyticsUnit, klaviyoUnits, simpleUnits } from "~/services/outbox/units.server";
import { sleep } from "~/services/outbox/waking.server";

async function waitForToken(rt: OutboxRuntime, rateKey: string, signal?: AbortSignal) {
  const limit = rt.rateLimits[rateKey] ?? { perSecond: 10, burst: 10 };
  let bucket = rt.state.buckets.get(rateKey);
  if (!bucket) rt.state.buckets.set(rateKey, (bucket = new TokenBucket(limit, Date.now())));
  for (;;) {
    const wait = bucket.take(Date.now());
    if (wait === 0 || signal?.aborted) return;
    await sleep(rt, wait, signal);
  }
}

async function runUnit(rt: OutboxRuntime, service: OutboxService, lease: string, unit: Unit, sent: number[], signal?: AbortSignal): Promise<void> {
  const { pausedUntil } = rt.state;
  const ids = unit.rows.map((r) => r.id);
  const paused = pausedUntil.get(service) ?? 0;
  if (paused > Date.now() || signal?.aborted) {
    await release(rt, lease, ids, new Date(Math.max(paused, rt.now().getTime())));
    return;
  }
  await waitForToken(rt, unit.rateKey, signal);
  const result = await unit.send();
  const outcome = classifyAnswer(result.status, result.retryAfter, rt.now().getTime(), result.detail);
  if (outcome.kind === "sent") {
    // Marked together at the end of the round (one write for the batch); a crash before that sends
    // them again with the same dedupe key.
    if (unit.rows.some((r) => r.operation === "profile-deletion")) await markSent(rt, lease, ids, true);
    else sent.push(...ids);
    if (unit.after) await unit.after(result).catch((error) => rt.log.warn({ err: error, service }, "after-send step failed"));
    return;
  }
  rt.log.warn({ service, ids, reason: outcome.reason }, "outbox delivery failed");
  if (outcome.kind === "retry" && outcome.pauseServiceMs) {
    const until = Date.now() + outcome.pauseServiceMs;
    if (!outcome.countsAsAttempt) await pauseService(rt, service, until);
    else pausedUntil.set(service, Math.max(pausedUntil.get(service) ?? 0, until));
  }
  await markFailed(rt, lease, unit.rows, outcome);
}

/** One round: claims up to a batch of due rows of the service and delivers them. Returns the rows handled. */
export async function deliverOnce(rt: OutboxRuntime, service: OutboxService, signal?: AbortSignal): Promise<number> {
  if (!configured(rt, service)) return 0;
  const paused = rt.state.pausedUntil.get(service) ?? 0;
  if (paused > Date.now()) return 0;
  const { lease, rows } = await claim(rt, service, rt.batchSize);
  if (rows.length === 0) return 0;
  let units: Unit[] = [];
  let broken: ClaimedRow[] = [];
  let orphans: ClaimedRow[] = [];
  if (service === "analytics") units = [analyticsUnit(rt, rows)];
  else if (service === "klaviyo") ({ units, broken, orphans } = await klaviyoUnits(rt, rows));
  else ({ units, broken } = simpleUnits(rt, service, rows));
  if (broken.length > 0) await markFailed(rt, lease, broken, { kind: "park", reason: "the row's payload is not one this service can send" });
  if (orphans.length > 0) {
    // The user was deleted after the row was written: nothing to send, and nothing of theirs to keep.
    await retryBusy(() => rt.db.outboxEvent.deleteMany({ where: { id: { in: orphans.map((r) => r.id) } } }));
  }
  const queue = [...units];
  const sent: number[] = [];
  const workers = Array.from({ length: service === "analytics" ? 1 : rt.concurrency }, async () => {
    for (let unit = queue.shift(); unit; unit = queue.shift()) {
      try {
        await runUnit(rt, service, lease, unit, sent, signal);
      } catch (error) {
        rt.log.warn({ service, err: error }, "outbox unit failed");
        await markFailed(rt, lease, unit.rows, { kind: "retry", reason: errorText(error), countsAsAttempt: true }).catch(() => undefined);
      }
    }
  });
  await Promise.all(workers);
  await markSent(rt, lease, sent, false);
  return rows.length;
}

/** Delivers everything due now (tests and scripts); stops when nothing due is left or the service pauses. */
export async function deliverDue(rt: OutboxRuntime, service: OutboxService): Promise<number> {
  let total = 0;
  for (let n = await deliverOnce(rt, service); n > 0; n = await deliverOnce(rt, service)) total += n;
  return total;
}

/** The job handler: delivers while there is work, waits for more a while, then ends. */
export async function runDeliverer(rt: OutboxRuntime, service: OutboxService, signal: AbortSignal): Promise<number> {
  if (!configured(rt, service)) return 0;
  rt.state.active.add(service);
  const started = Date.now();
  let idleSince = Date.now();
  let total = 0;
  try {
    while (!signal.aborted && Date.now() - started < rt.runForMs) {
      const paused = (rt.state.pausedUntil.get(service) ?? 0) - Date.now();
      if (paused > 0) {
        await sleep(rt, Math.min(paused, rt.pollMs * 4), signal);
        idleSince = Date.now();
        continue;
      }
      const n = await deliverOnce(rt, service, signal);
      total += n;
      if (n > 0) {
        idleSince = Date.now();
        continue;
      }
      if (Date.now() - idleSince > rt.idleExitMs) break;
      await sleep(rt, rt.pollMs, signal, true);
    }
  } finally {
    rt.state.active.delete(service);
  }
  return total;
}
