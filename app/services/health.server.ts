// Liveness with a real database round trip, for load balancers and `npm start`'s readiness check.
import type { Db } from "~/db.server";

export async function checkHealth(db: Db, ready: Promise<void>): Promise<{ ok: true } | { ok: false; error: string }> {
  try {
    await ready;
    await db.$queryRawUnsafe("SELECT 1");
    return { ok: true };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : "database unreachable" };
  }
}
