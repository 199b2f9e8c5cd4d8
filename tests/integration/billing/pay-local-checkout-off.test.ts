// /pay with the local test checkout switched off (docs/decisions/042): the purchase is refused with a sentence
// and changes nothing, whatever the form says. A public deployment without Paddle keys does not start at all
// (tests/unit/server/env.test.ts); this is the check the request itself makes.
import { vi } from "vitest";

vi.hoisted(() => {
  process.env.PADDLE_LOCAL_CHECKOUT = "false";
});

import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { action as pay, loader as payPage } from "~/routes/_site.pay";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

describe("/pay when the local test checkout is off", () => {
  it.each(["plan=inner-circle&billing=one_time", "plan=pro&billing=monthly"])("refuses %s with 403 and a sentence, and grants nothing", async (query) => {
    const user = await createSignedInUser();
    const res = await call(pay, `/pay?${query}`, { method: "POST", form: {}, cookie: user.cookie });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "The local test checkout is turned off on this server." });
    expect(await db.billingSubscription.count({ where: { userId: user.id } })).toBe(0);
    expect(await db.paddleEvent.count({ where: { userId: user.id } })).toBe(0);
    expect(await db.user.findUniqueOrThrow({ where: { id: user.id }, select: { innerCircle: true } })).toEqual({ innerCircle: false });
  });

  it("does not show the test checkout's form", async () => {
    const user = await createSignedInUser();
    const res = await call(payPage, "/pay?plan=inner-circle&billing=one_time", { cookie: user.cookie });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ paddle: null, localCheckout: false });
  });
});
