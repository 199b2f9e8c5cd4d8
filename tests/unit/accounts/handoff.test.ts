// Where a hand-off link may land (docs/decisions/016): only the destinations named here, each to a fixed
// site path; the plan must be one of the catalogue's with its own billing.
import { describe, expect, it } from "vitest";
import { HANDOFF_REFUSALS, HandoffDestinationSchema, handoffTarget } from "~/domain/shopify/handoff";
import { PLANS } from "~/domain/billing/plans";

const parse = (raw: unknown) => HandoffDestinationSchema.safeParse(raw);

describe("handoff destinations", () => {
  it.each(PLANS.map((p) => [p.id, p.billing] as const))(
    "checkout of %s (%s) lands on /pay for that plan",
    (plan, billing) => {
      const parsed = parse({ to: "checkout", plan, billing });
      expect(parsed.success).toBe(true);
      expect(handoffTarget(parsed.data!)).toBe(`/pay?plan=${plan}&billing=${billing}`);
    },
  );

  it.each([
    ["billing", "/dashboard/billing"],
    ["discord", "/auth/discord"],
    ["product-pages", "/dashboard/product-pages"],
  ])("%s lands on %s", (to, path) => {
    const parsed = parse({ to });
    expect(handoffTarget(parsed.data!)).toBe(path);
  });

  it.each([
    { to: "checkout", plan: "pro", billing: "one_time" },
    { to: "checkout", plan: "inner-circle", billing: "monthly" },
    { to: "checkout", plan: "pro" },
    { to: "checkout", plan: "pro&billing=monthly&next=//evil", billing: "monthly" },
    { to: "/dashboard" },
    { to: "https://evil.example" },
    { to: "billing ", plan: "pro" },
    {},
    null,
    "billing",
  ])("refuses %j", (raw) => expect(parse(raw).success).toBe(false));

  it("drops anything else the browser sends (a user id, a URL)", () => {
    expect(parse({ to: "billing", userId: "someone-else", url: "https://evil.example" }).data).toEqual({
      to: "billing",
    });
  });

  it("refusals are 400 for links that are not ours, 401 for ours that no longer work", () => {
    expect(Object.fromEntries(Object.entries(HANDOFF_REFUSALS).map(([k, v]) => [k, v.status]))).toEqual({
      invalid: 400,
      expired: 401,
      used: 401,
      unlinked: 401,
    });
  });
});
