// At-least-once delivery across a crash: 1,000 undelivered Klaviyo events, the delivering process is
// killed with SIGKILL mid-way, a new one starts; every event arrives, and none twice at Klaviyo's side,
// which keeps one event per unique_id (tests/helpers/fake-marketing.ts). Rows the dead process had
// claimed wait out their lease, then are sent again with the same unique_id.
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { db, dbReady } from "~/db.server";
import { outboxRows, writeOutbox } from "~/services/outbox.server";
import { startFakeMarketing, type FakeMarketing } from "../../helpers/fake-marketing";
import { createUser } from "../../helpers/site-users";
import { killWorkerProcesses, startWorkerProcesses, until } from "../../helpers/worker-processes";

const WORKER = path.resolve("tests/integration/marketing/outbox-worker.ts");
let fake: FakeMarketing;

beforeAll(async () => {
  await dbReady;
  // A slow-ish Klaviyo (5 ms an answer), so the kill lands while requests are in flight.
  fake = await startFakeMarketing({ delayMs: 5 });
});
afterAll(async () => {
  await fake.close();
});
afterEach(killWorkerProcesses);

async function startWorker(owner: string) {
  const [worker] = await startWorkerProcesses(WORKER, [owner], () => ({ OUTBOX_OWNER: owner, OUTBOX_LEASE_MS: "2000", KLAVIYO_API_KEY: "pk_test", KLAVIYO_BASE_URL: fake.url }));
  worker.child.stdin.write("go\n");
  return worker.child;
}

describe("a deliverer killed with SIGKILL while 1,000 rows wait", () => {
  it("after a restart every event is delivered, and Klaviyo keeps each once", async () => {
    const user = await createUser();
    const rows = Array.from({ length: 1_000 }, (_, i) => ({
      ...outboxRows.course(user.id, { progressPercentage: 100, completedNow: true })[1],
      dedupeKey: `bulk:${i}`,
    }));
    await writeOutbox(db, rows);
    const events = () => fake.to("/api/events").length;

    const first = await startWorker("first");
    await until(() => events() >= 150, "150 events sent by the first process", { pollMs: 50 });
    first.kill("SIGKILL");
    await new Promise((r) => first.once("exit", r));
    const beforeRestart = await db.outboxEvent.count({ where: { status: "sent" } });
    expect(beforeRestart).toBeLessThan(1_000);

    await startWorker("second");
    await until(async () => (await db.outboxEvent.count({ where: { status: "sent" } })) === 1_000, "all 1,000 rows sent", { pollMs: 50 });

    const sentIds = fake.to("/api/events").map((r) => (r.body as { data: { attributes: { unique_id: string } } }).data.attributes.unique_id);
    const expected = rows.map((r) => r.dedupeKey).sort();
    expect([...new Set(sentIds)].sort()).toEqual(expected);
    // Klaviyo keeps one event per unique_id: exactly 1,000, none twice.
    expect(fake.kept.klaviyoEvents.size).toBe(1_000);
    // Requests repeated only for rows the dead process had claimed and not recorded (at most one batch).
    expect(sentIds.length - 1_000).toBeLessThanOrEqual(100);
    expect(await db.outboxEvent.count({ where: { status: "pending" } })).toBe(0);
  }, 180_000);
});
