// Paddle-Signature is read once, the way the SDK reads it (parts split on ";", each on "="), and
// what we bound (not too old, not in the future) is the very ts the SDK verifies (docs/decisions/043).
// A header that repeats ts=, or has a part that is not a ts= or h1= pair, is refused with 401 and
// nothing changes: with two ts= the SDK verified the last one while our future bound read the first,
// so a decoy "ts=now;ts=tomorrow;h1=…" signed for tomorrow was accepted.
import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { signWebhook } from "~/integrations/paddle.server";
import { balancesOf, eventRow, postWebhook, subscriptionEvent, trialSnapshot, userBilling, webhookSecret } from "../../helpers/paddle";
import { createUser } from "../../helpers/site-users";

const DAY_S = 24 * 3600;
const nowTs = () => Math.floor(Date.now() / 1000);

/** A trial notification for a new user, and the `ts=…;h1=…` parts of a signature made at `atTs`. */
async function notification() {
  const user = await createUser();
  const event = subscriptionEvent("subscription.created", trialSnapshot(user.id), new Date());
  const raw = JSON.stringify(event);
  const signedAt = (atTs: number) => {
    const header = signWebhook(raw, webhookSecret(), new Date(atTs * 1000));
    const [ts, h1] = header.split(";");
    return { header, ts, h1 };
  };
  return { user, event, raw, signedAt };
}

async function expectRefused(raw: string, signature: string, userId: string, eventId: string) {
  const res = await postWebhook(raw, { signature });
  expect(res.status, signature).toBe(401);
  expect(res.body.error).toMatch(/Paddle-Signature/);
  expect(await eventRow(eventId)).toBeNull();
  expect(await userBilling(userId)).toMatchObject({ userSubscribed: "no", trialing: false, subscription_id: null });
  expect(await balancesOf(userId)).toEqual({});
  expect(await db.billingSubscription.count({ where: { userId } })).toBe(0);
}

describe("Paddle-Signature parsed once", () => {
  it("a decoy ts= in front of a signature dated tomorrow -> 401, nothing changes", async () => {
    const { user, event, raw, signedAt } = await notification();
    const tomorrow = signedAt(nowTs() + DAY_S);
    await expectRefused(raw, `ts=${nowTs()};${tomorrow.header}`, user.id, event.event_id);
    // Also with the decoy between the parts, or after them.
    await expectRefused(raw, `${tomorrow.ts};ts=${nowTs()};${tomorrow.h1}`, user.id, event.event_id);
    await expectRefused(raw, `${tomorrow.header};ts=${nowTs()}`, user.id, event.event_id);
  });

  it("ts= given twice, even with the same value -> 401", async () => {
    const { user, event, raw, signedAt } = await notification();
    const now = signedAt(nowTs());
    await expectRefused(raw, `${now.ts};${now.ts};${now.h1}`, user.id, event.event_id);
  });

  it("a part that is not a ts= or h1= pair -> 401", async () => {
    const { user, event, raw, signedAt } = await notification();
    const { header, ts, h1 } = signedAt(nowTs());
    for (const signature of [
      `${header};junk`,
      `${header};`,
      `;${header}`,
      `${ts}; ${h1}`,
      `${ts};${h1}=`,
      `${ts};h2=abc;${h1}`,
      `${ts}x;${h1}`,
      `ts=;${h1}`,
      `${ts};h1=`,
      `${ts};${h1.toUpperCase().replace("H1", "h1")}`,
    ]) {
      await expectRefused(raw, signature, user.id, event.event_id);
    }
  });

  it("two h1= (Paddle rotating the secret): applied when one of them matches, wherever it is", async () => {
    const { user, raw, signedAt } = await notification();
    const { ts, h1 } = signedAt(nowTs());
    const other = `h1=${"0".repeat(64)}`;
    const res = await postWebhook(raw, { signature: `${ts};${h1};${other}` });
    expect(res).toEqual({ status: 200, body: { ok: true, outcome: "applied" } });
    expect((await userBilling(user.id)).userSubscribed).toBe("yes");
    const again = await notification();
    const parts = again.signedAt(nowTs());
    expect((await postWebhook(again.raw, { signature: `${other};${parts.ts};${parts.h1}` })).status).toBe(200);
  });

  it("no h1= matches -> 401", async () => {
    const { user, event, raw, signedAt } = await notification();
    const { ts } = signedAt(nowTs());
    await expectRefused(raw, `${ts};h1=${"0".repeat(64)};h1=${"f".repeat(64)}`, user.id, event.event_id);
  });

  it("the header Paddle sends is still applied", async () => {
    const { user, raw, signedAt } = await notification();
    expect((await postWebhook(raw, { signature: signedAt(nowTs()).header })).status).toBe(200);
    expect((await userBilling(user.id)).userSubscribed).toBe("yes");
  });
});
