// A worker on "another host" for jobs-postgres.test.ts: a process of its own that takes one "pg.held" job from
// pg-boss, says "holding <id>" and never finishes it, so the test can kill it mid-job (SIGKILL: no goodbye).
// Run: node --import tsx tests/helpers/pg-job-holder.ts postgresql://...
import { createPostgresJobs } from "~/services/jobs/postgres-engine.server";

const url = process.argv[2];
const system = createPostgresJobs({ url, log: { info() {}, warn() {}, error() {} }, maxConnections: 2 });
system.register(
  "pg.held",
  ({ jobId }) => {
    process.stdout.write(`holding ${jobId}\n`);
    return new Promise<void>(() => {});
  },
  // The shortest heartbeat pg-boss takes (10 s): a host that stops beating loses the job after it.
  { leaseMs: 10_000 },
);
await system.start();
process.stdout.write("ready\n");
