// Inputs a person can type that must be refused with a clear message and change nothing.
import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { action as analyticsAction } from "~/routes/api.analytics";
import { action as signupAction } from "~/routes/_site.signup";
import { call, uniqueEmail } from "../../helpers/routes";

describe("sign-up password made only of spaces", () => {
  it("is refused beside the password field and creates no account", async () => {
    const email = uniqueEmail();
    const res = await call(signupAction, "/signup", { form: { email, password: "          " } });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.errors.password).toMatch(/besides spaces/);
    expect(await db.user.count({ where: { email } })).toBe(0);
  });
});

describe("page analytics paths", () => {
  it.each(["//evil.test/x", "/\\evil.test", "https://evil.test/"])("refuses %s as a path", async (path) => {
    const before = await db.outboxEvent.count();
    const res = await call(analyticsAction, "/api/analytics", {
      json: { event: "$pageview", path, anonymousId: "anon-12345678" },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/^path/);
    expect(await db.outboxEvent.count()).toBe(before);
  });
});
