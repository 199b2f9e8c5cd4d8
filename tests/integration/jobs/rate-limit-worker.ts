// A separate OS process counting tries on the shared rate limiter and checking API keys, for
// rate-limits-shared.test.ts. Not a test file itself.
//
// Run: node --import tsx tests/integration/jobs/rate-limit-worker.ts with DATABASE_URL set. It prints "ready", then
// answers each line on stdin with one JSON line:
//   take NAME POINTS COUNT  -> { accepted, refused }: COUNT concurrent takes on a limit of POINTS a minute
//   steps MINUTE POINTS MONTH COUNT -> { accepted, refused }: COUNT concurrent calls counted as an API call is (the key's
//                              and the user's minute on a limit of POINTS, then the user's month: takeSteps)
//   auth KEY                -> { status }: 200 for a good key, else the AppError's status
import { createInterface } from "node:readline";
import { db, dbReady } from "~/db.server";
import { AppError } from "~/domain/errors";
import { getEnv } from "~/env.server";
import { apiKeys } from "~/services/index.server";
import { createRateLimits } from "~/services/api-access/rate-limits.server";

const limits = createRateLimits({ db, databaseUrl: getEnv().DATABASE_URL });
await dbReady;
process.stdout.write("ready\n");

for await (const line of createInterface({ input: process.stdin })) {
  const [command, ...args] = line.trim().split(" ");
  if (command === "take") {
    const [name, points, count] = [args[0], Number(args[1]), Number(args[2])];
    const limit = limits.limit({ name, points, windowSeconds: 60, refusal: (retryIn) => `Over. Try again ${retryIn}.` });
    const results = await Promise.allSettled(Array.from({ length: count }, () => limit.take({ subject: "shared" })));
    const refused = results.filter((r) => r.status === "rejected" && r.reason instanceof AppError && r.reason.status === 429).length;
    const accepted = results.filter((r) => r.status === "fulfilled").length;
    process.stdout.write(`${JSON.stringify({ accepted, refused, failed: count - accepted - refused })}\n`);
  } else if (command === "steps") {
    const [minuteName, points, monthName, count] = [args[0], Number(args[1]), args[2], Number(args[3])];
    const minute = limits.limit({ name: minuteName, points, windowSeconds: 60, refusal: (retryIn) => `Over. Try again ${retryIn}.` });
    const month = limits.limit({ name: monthName, points: 100_000, windowSeconds: 3600, refusal: (retryIn) => `Over. Try again ${retryIn}.` });
    const results = await Promise.allSettled(
      Array.from({ length: count }, () =>
        limits.takeSteps([
          { limit: minute, subjects: [{ subject: "key:shared" }, { subject: "user:shared" }] },
          { limit: month, subjects: [{ subject: "user:shared" }] },
        ]),
      ),
    );
    const refused = results.filter((r) => r.status === "rejected" && r.reason instanceof AppError && r.reason.status === 429).length;
    const accepted = results.filter((r) => r.status === "fulfilled").length;
    process.stdout.write(`${JSON.stringify({ accepted, refused, failed: count - accepted - refused })}\n`);
  } else if (command === "auth") {
    const status = await apiKeys.authenticate(args[0], "read").then(
      () => 200,
      (error: unknown) => (error instanceof AppError ? error.status : 500),
    );
    process.stdout.write(`${JSON.stringify({ status })}\n`);
  } else if (command === "stop") {
    break;
  }
}
process.exit(0);
