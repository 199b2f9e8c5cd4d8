// The app's jobs as a test reads them, on either engine: through the job system the app runs (our queue's Job table
// on SQLite, pg-boss's tables on PostgreSQL; decision 102), not through one engine's table.
import type { JobRow } from "~/services/jobs/runtime.server";
import { jobs } from "~/services/index.server";

/** The jobs of `kind`, newest first; only those with `key` when one is given. */
export async function jobsOf(kind: string, key?: string): Promise<JobRow[]> {
  const all = await jobs.list({ limit: 100_000 });
  return all.filter((job) => job.kind === kind && (key === undefined || job.key === key));
}
