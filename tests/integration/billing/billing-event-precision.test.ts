// Paddle's occurred_at carries microseconds ("2023-08-22T07:13:34.599095Z"); two notifications about the
// same subscription can be less than a millisecond apart. Their order is decided on the full precision
// Paddle sends (docs/decisions/043): a withdrawn cancellation 0.4 ms after the cancellation, delivered
// in reverse, leaves the subscription on, as in-order delivery does. Nanoseconds, fewer digits and a
// timezone offset keep their order too.
import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import {
  deliver,
  eventRow,
  nextPeriod,
  subscriptionEvent,
  trialSnapshot,
  userBilling,
} from "../../helpers/paddle";
import { createUser } from "../../helpers/site-users";

/** [the cancellation's occurred_at, the withdrawal's]: the withdrawal is always the later one. */
const PAIRS: [string, string, string][] = [
  ["0.4 ms apart (microseconds)", "2026-11-26T08:00:00.123456Z", "2026-11-26T08:00:00.123856Z"],
  ["1 µs apart", "2026-11-26T08:00:00.999998Z", "2026-11-26T08:00:00.999999Z"],
  ["1 ns apart (nanoseconds)", "2026-11-26T08:00:00.123456789Z", "2026-11-26T08:00:00.123456790Z"],
  ["fewer digits against more", "2026-11-26T08:00:00.1Z", "2026-11-26T08:00:00.1000001Z"],
  ["an offset against Z", "2026-11-26T10:00:00.1234561+02:00", "2026-11-26T08:00:00.1234562Z"],
  ["two offsets", "2026-11-26T03:00:00.500001-05:00", "2026-11-26T09:00:00.5000011+01:00"],
];

/** An active subscription, its scheduled cancellation and the update that withdraws it, at the given times. */
async function story(cancelAt: string, withdrawAt: string) {
  const user = await createUser();
  const trial = trialSnapshot(user.id, { at: new Date(Date.parse("2026-10-01T00:00:00Z")) });
  const active = nextPeriod(trial);
  const activated = subscriptionEvent("subscription.activated", active, new Date("2026-11-26T07:00:00Z"));
  const scheduled = { ...active, scheduledChange: { action: "cancel" as const, effectiveAt: active.currentPeriodEnd }, nextBilledAt: null };
  const cancel = { ...subscriptionEvent("subscription.updated", scheduled, new Date(cancelAt)), occurred_at: cancelAt };
  const withdraw = { ...subscriptionEvent("subscription.updated", active, new Date(withdrawAt)), occurred_at: withdrawAt };
  return { user, active, activated, cancel, withdraw };
}

describe("occurred_at below a millisecond", () => {
  for (const [name, cancelAt, withdrawAt] of PAIRS) {
    it(`${name}: the withdrawal delivered before the cancellation still wins`, async () => {
      const { user, active, activated, cancel, withdraw } = await story(cancelAt, withdrawAt);
      expect((await deliver(activated)).body.outcome).toBe("applied");
      expect((await deliver(withdraw)).body.outcome).toBe("applied");
      expect((await deliver(cancel)).body.outcome).toBe("stale");
      expect(await eventRow(cancel.event_id)).toMatchObject({ outcome: "stale" });
      expect(await userBilling(user.id)).toMatchObject({ userSubscribed: "yes", subscriptionCancelled: false });
      const row = await db.billingSubscription.findUniqueOrThrow({ where: { id: active.id }, select: { scheduledChange: true, status: true } });
      expect(row).toEqual({ scheduledChange: null, status: "active" });
    });

    it(`${name}: in order, the same end`, async () => {
      const { user, activated, cancel, withdraw } = await story(cancelAt, withdrawAt);
      await deliver(activated);
      expect((await deliver(cancel)).body.outcome).toBe("applied");
      expect((await userBilling(user.id)).subscriptionCancelled).toBe(true);
      expect((await deliver(withdraw)).body.outcome).toBe("applied");
      expect(await userBilling(user.id)).toMatchObject({ userSubscribed: "yes", subscriptionCancelled: false });
    });
  }

  it("an occurred_at that is not a time -> 400, nothing changes", async () => {
    const { user, activated } = await story("2026-11-26T08:00:00Z", "2026-11-26T08:00:01Z");
    for (const occurredAt of ["yesterday", "2026-11-26T08:00:00", "2026-02-30T08:00:00Z", "2026-11-26T08:00:00.12a Z"]) {
      const res = await deliver({ ...activated, event_id: `${activated.event_id.slice(0, -2)}${occurredAt.length}x`, occurred_at: occurredAt });
      expect(res.status, occurredAt).toBe(400);
    }
    expect(await userBilling(user.id)).toMatchObject({ userSubscribed: "no" });
  });
});
