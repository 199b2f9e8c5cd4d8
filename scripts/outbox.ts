// `npm run outbox -- list [--status S] [--service S] [--limit N] | retry ID|parked | purge [--status S]
// [--older-than-days N] | deliver SERVICE`: the operator's view of the marketing outbox
// (docs/decisions/032), against DATABASE_URL like the app.
//   list     counts per service and status, then the newest rows: id, service, what, status, attempts,
//            next attempt, last error (parked rows stand out); says which services have no key
//   retry    a parked (or waiting) row, or every parked row, goes back to pending with fresh attempts
//   purge    deletes sent rows (or --status parked|pending) older than --older-than-days (default 30)
//   deliver  sends what is due for one service now, in this process, then exits
import { db, dbReady } from "~/db.server";
import { OUTBOX_SERVICES, OUTBOX_STATUSES, type OutboxService, type OutboxStatus } from "~/domain/marketing/outbox";
import { getEnv } from "~/env.server";
import { createMarketingSenders } from "~/integrations/marketing.server";
import { createOutbox } from "~/services/outbox.server";
import { oneLine, oneOf, option, runCli, table, UsageError, whole } from "./lib/cli-args";

const USAGE = `Usage:
  npm run outbox -- list [--status ${OUTBOX_STATUSES.join("|")}] [--service ${OUTBOX_SERVICES.join("|")}] [--limit N]
  npm run outbox -- retry ID|parked
  npm run outbox -- purge [--status ${OUTBOX_STATUSES.join("|")}] [--older-than-days N]
  npm run outbox -- deliver ${OUTBOX_SERVICES.join("|")}`;

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  const outbox = createOutbox({ db, senders: createMarketingSenders(getEnv()) });
  await dbReady;
  try {
    if (command === "list") {
      const status = oneOf(option(args, "--status"), OUTBOX_STATUSES, "--status") as OutboxStatus | undefined;
      const service = oneOf(option(args, "--service"), OUTBOX_SERVICES, "--service") as OutboxService | undefined;
      const limit = whole(option(args, "--limit"), "--limit") ?? 50;
      const { rows, counts, configured } = await outbox.list({ status, service, limit });
      const summary = OUTBOX_SERVICES.map((s) => {
        const of = (st: string) => counts.find((c) => c.service === s && c.status === st)?.count ?? 0;
        return [s, configured[s] ? "yes" : "NO (rows kept, never sent)", String(of("pending")), String(of("sent")), of("parked") ? `${of("parked")} PARKED` : "0"];
      });
      console.log(table(["service", "key set", "pending", "sent", "parked"], summary));
      console.log("");
      if (rows.length === 0) console.log("No rows.");
      else {
        console.log(
          table(
            ["id", "service", "what", "status", "attempts", "next attempt", "last error"],
            rows.map((r) => [
              String(r.id),
              r.service,
              oneLine(`${r.operation} ${r.name}`, 40),
              r.status === "parked" ? "PARKED" : r.status,
              String(r.attempts),
              r.status === "pending" ? r.nextAttemptAt.toISOString() : r.sentAt?.toISOString() ?? "",
              oneLine(r.error, 100),
            ]),
          ),
        );
        if (rows.some((r) => r.status === "parked")) console.log("\nParked rows gave up (see last error). Send again: npm run outbox -- retry ID|parked");
      }
      return 0;
    }
    if (command === "retry") {
      const target = args[0];
      if (args.length !== 1 || !target) throw new UsageError("retry takes one row id, or the word parked.");
      const n = await outbox.retry(target === "parked" ? "parked" : (whole(target, "ID") as number));
      console.log(`${n} row${n === 1 ? "" : "s"} queued to send again.`);
      return 0;
    }
    if (command === "purge") {
      const status = oneOf(option(args, "--status"), OUTBOX_STATUSES, "--status") as OutboxStatus | undefined;
      const olderThanDays = whole(option(args, "--older-than-days"), "--older-than-days");
      const n = await outbox.purge({ status, olderThanDays });
      console.log(`${n} ${status ?? "sent"} row${n === 1 ? "" : "s"} deleted.`);
      return 0;
    }
    if (command === "deliver") {
      const service = oneOf(args[0], OUTBOX_SERVICES, "SERVICE") as OutboxService | undefined;
      if (!service) throw new UsageError("deliver takes a service.");
      if (!outbox.configured(service)) {
        console.log(`${service} has no key set: its rows are kept, never sent.`);
        return 1;
      }
      const n = await outbox.deliverDue(service);
      console.log(`${n} ${service} row${n === 1 ? "" : "s"} handled.`);
      return 0;
    }
    throw new UsageError(command ? `Unknown command "${command}".` : "No command given.");
  } finally {
    outbox.close();
  }
}

runCli(() => main(process.argv.slice(2)), { usage: USAGE, close: () => db.$disconnect() });
