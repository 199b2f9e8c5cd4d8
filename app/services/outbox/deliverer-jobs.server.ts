// The outbox's jobs (docs/decisions/032): one `outbox.deliver` job per service at a time fleet-wide (job
// key outbox.deliver:SERVICE), and the minute schedule `outbox.sweep` that starts a deliverer when due rows
// wait and nobody delivers them, and keeps the sweep's own finished jobs a day.
import { retryBusy, toDbTime } from "~/db.server";
import { OUTBOX_SERVICES, type OutboxService } from "~/domain/marketing/outbox";
import type { Jobs } from "~/services/jobs.server";
import { runDeliverer } from "~/services/outbox/delivery.server";
import {
  configured,
  DELIVER_JOB,
  SWEEP_JOB,
  SWEEP_SCHEDULE,
  zServicePayload,
  type OutboxRuntime,
} from "~/services/outbox/runtime.server";
import { kick } from "~/services/outbox/waking.server";

/** The minute sweep: starts a deliverer for each configured service with due rows. */
export async function sweep(rt: OutboxRuntime): Promise<void> {
  const time = toDbTime(rt.now());
  for (const service of OUTBOX_SERVICES) {
    if (!configured(rt, service)) continue;
    const due = await rt.db.$queryRawUnsafe<unknown[]>(
      `SELECT 1 FROM "OutboxEvent" WHERE "service" = ? AND "status" = 'pending' AND "nextAttemptAt" <= ?
         AND ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" < ?) LIMIT 1`,
      service,
      time,
      time,
    );
    if (due.length > 0) {
      rt.state.lastKick.delete(service);
      await kick(rt, service);
    }
  }
  // The sweep's own finished jobs are history nobody reads: kept a day.
  const dayAgo = toDbTime(new Date(rt.now().getTime() - 24 * 3600_000));
  await retryBusy(() =>
    rt.db.$executeRawUnsafe(`DELETE FROM "Job" WHERE "kind" IN (?, ?) AND "status" = 'done' AND "finishedAt" < ?`, SWEEP_JOB, DELIVER_JOB, dayAgo),
  );
  await retryBusy(() => rt.db.$executeRawUnsafe(`DELETE FROM "JobScheduleRun" WHERE "scheduleName" = ? AND "periodStart" < ?`, SWEEP_SCHEDULE.name, dayAgo));
}

/** Registers the deliverer and the sweep on a job system (the outbox's own, by default). */
export function registerJobs(rt: OutboxRuntime, on: Pick<Jobs, "register" | "schedule"> | undefined = rt.jobs): void {
  if (!on) return;
  on.register<{ service: OutboxService }>(
    DELIVER_JOB,
    async ({ payload, signal }) => {
      await runDeliverer(rt, payload.service, signal);
    },
    {
      payloadSchema: zServicePayload,
      concurrency: OUTBOX_SERVICES.length,
      leaseMs: rt.jobLeaseMs,
      timeoutMs: rt.runForMs + 5 * 60_000,
    },
  );
  on.register(SWEEP_JOB, async () => {
    await sweep(rt);
  });
  on.schedule(SWEEP_SCHEDULE.name, SWEEP_SCHEDULE.pattern, SWEEP_JOB);
}
