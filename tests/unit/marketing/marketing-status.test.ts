import { describe, expect, it } from "vitest";
import { marketingStatus } from "~/domain/marketing/marketing-status";

describe("marketingStatus", () => {
  it.each([
    [{ chargeDeclined: true, userSubscribed: "yes", subscriptionCancelled: false }, "declined"],
    [{ chargeDeclined: true, userSubscribed: "no" }, "declined"],
    [{ chargeDeclined: false, userSubscribed: "no" }, "unactive"],
    [{ userSubscribed: "no", subscriptionCancelled: true }, "unactive"],
    [{ userSubscribed: "yes", subscriptionCancelled: false }, "active"],
    [{ userSubscribed: "yes" }, "active"],
    [{ userSubscribed: "yes", subscriptionCancelled: true }, "canceled"],
    [{}, null],
    [{ userSubscribed: "maybe" }, null],
    [{ userSubscribed: null, chargeDeclined: null }, null],
  ] as const)("%o -> %s", (flags, expected) => {
    expect(marketingStatus(flags)).toBe(expected);
  });
});
