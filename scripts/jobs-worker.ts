// The job worker of `npm run worker` (scripts/worker.mjs prepares the environment, the database and the storage,
// then runs this): the composition root's background work, as a web process runs it with JOBS_WORKER=on, without the
// web server. Stops on SIGTERM or SIGINT once the running jobs have ended.
import { redactedUrl } from "./lib/postgres-ready.mjs";
import { db, dbReady } from "~/db.server";
import { getEnv } from "~/env.server";
import { childLogger } from "~/logger.server";
import { jobs, startBackgroundWork, stopBackgroundWork } from "~/services/index.server";

const log = childLogger("worker");
await dbReady;
startBackgroundWork();
console.log(`✔ Worker ready: running background jobs as ${jobs.ownerId} on ${redactedUrl(getEnv().DATABASE_URL)}`);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log(`Worker stopping (${signal}): no new jobs; waiting for the running ones to end`);
    stopBackgroundWork()
      .then(() => db.$disconnect())
      .then(
        () => {
          console.log("Worker stopped.");
          process.exit(0);
        },
        (error: unknown) => {
          log.error({ err: error }, "the worker did not stop cleanly");
          process.exit(1);
        },
      );
  });
}
