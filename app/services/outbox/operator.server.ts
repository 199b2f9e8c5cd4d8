// The operator's view of the outbox (docs/decisions/032, `npm run outbox`): rows and counts by service and
// status, sending parked rows again, and purging old ones.
import type { Prisma } from "@prisma/client";
import { AppError } from "~/domain/errors";
import { OUTBOX_SERVICES, type OutboxService, type OutboxStatus } from "~/domain/marketing/outbox";
import { configured, type OutboxRuntime } from "~/services/outbox/runtime.server";
import { outboxWritten } from "~/services/outbox/waking.server";

export async function list(
  rt: Pick<OutboxRuntime, "db" | "senders">,
  options: { status?: OutboxStatus; service?: OutboxService; limit?: number } = {},
) {
  const where: Prisma.OutboxEventWhereInput = {
    ...(options.status ? { status: options.status } : {}),
    ...(options.service ? { service: options.service } : {}),
  };
  const [rows, counts] = await Promise.all([
    rt.db.outboxEvent.findMany({
      where,
      orderBy: { id: "desc" },
      take: Math.min(Math.max(options.limit ?? 50, 1), 1000),
      select: { id: true, service: true, operation: true, name: true, userId: true, status: true, attempts: true, nextAttemptAt: true, createdAt: true, sentAt: true, error: true },
    }),
    rt.db.outboxEvent.groupBy({ by: ["service", "status"], _count: { _all: true } }),
  ]);
  return {
    rows,
    counts: counts.map((c) => ({ service: c.service, status: c.status, count: c._count._all })),
    configured: Object.fromEntries(OUTBOX_SERVICES.map((s) => [s, configured(rt, s)])) as Record<OutboxService, boolean>,
  };
}

/** A parked row (or every parked row) goes back to pending with fresh attempts; sent rows are refused. */
export async function retry(rt: Pick<OutboxRuntime, "db" | "now">, target: number | "parked"): Promise<number> {
  if (target === "parked") {
    const { count } = await rt.db.outboxEvent.updateMany({
      where: { status: "parked" },
      data: { status: "pending", attempts: 0, nextAttemptAt: rt.now(), leaseOwner: null, leaseExpiresAt: null },
    });
    if (count > 0) outboxWritten();
    return count;
  }
  const row = await rt.db.outboxEvent.findUnique({ where: { id: target }, select: { status: true } });
  if (!row) throw new AppError(404, `There is no outbox row ${target}.`);
  if (row.status === "sent") throw new AppError(409, `Row ${target} was already sent; it is not sent again.`);
  await rt.db.outboxEvent.update({
    where: { id: target },
    data: { status: "pending", attempts: 0, nextAttemptAt: rt.now(), leaseOwner: null, leaseExpiresAt: null },
    select: { id: true },
  });
  outboxWritten();
  return 1;
}

/** Deletes rows of a status (sent by default) older than `olderThanDays` (default 30; 0 = all). */
export async function purge(rt: Pick<OutboxRuntime, "db" | "now">, options: { status?: OutboxStatus; olderThanDays?: number } = {}): Promise<number> {
  const days = options.olderThanDays ?? 30;
  const { count } = await rt.db.outboxEvent.deleteMany({
    where: { status: options.status ?? "sent", createdAt: { lt: new Date(rt.now().getTime() - days * 24 * 3600_000 + (days === 0 ? 1000 : 0)) } },
  });
  return count;
}
