// After logging in, the visitor lands on the page they asked for: the guard sends an anonymous visitor
// of /dashboard/x to the landing page (seed §2) with ?redirectTo=/dashboard/x, its "Log in" links carry it
// to /login?redirectTo=..., the form carries it, and the action goes there.
// Only a path on this site is followed; anything else falls back to the dashboard, as before.
import { describe, expect, it } from "vitest";
import { loginPathFor } from "~/domain/accounts/redirect-to";
import { loader as feedbackLoader } from "~/routes/dashboard.feedback";
import { action as loginAction } from "~/routes/_site.login";
import { call } from "../../helpers/routes";
import { createUser, TEST_PASSWORD, uniqueIp } from "../../helpers/site-users";

function login(form: Record<string, string>) {
  return call(loginAction, "/login", { form, headers: { "x-forwarded-for": uniqueIp() } });
}

describe("log in, then back to the page asked for", () => {
  it("an anonymous visitor of a dashboard page is sent to the landing page with redirectTo, and lands there after", async () => {
    const anonymous = await call(feedbackLoader, "/dashboard/feedback?tab=bugs");
    expect(anonymous.status).toBe(302);
    const landing = new URL(anonymous.headers.get("location")!, "http://x");
    expect(landing.pathname).toBe("/");
    const redirectTo = landing.searchParams.get("redirectTo")!;
    expect(loginPathFor(redirectTo)).toBe("/login?redirectTo=%2Fdashboard%2Ffeedback%3Ftab%3Dbugs");
    expect(redirectTo).toBe("/dashboard/feedback?tab=bugs");

    const user = await createUser();
    const res = await login({ email: user.email, password: TEST_PASSWORD, redirectTo });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/dashboard/feedback?tab=bugs");
  });

  it.each([
    "//evil.com",
    "//evil.com/dashboard",
    "https://evil.com/dashboard",
    "http:/evil.com",
    "/\\evil.com",
    "\\\\evil.com",
    "/%0d%0a//evil.com".replace("%0d%0a", "\r\n"),
    " /dashboard",
    "javascript:alert(1)",
    "dashboard",
    "",
  ])("refuses %j and opens the dashboard as before", async (redirectTo) => {
    const user = await createUser();
    const res = await login({ email: user.email, password: TEST_PASSWORD, redirectTo });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/dashboard?location=dashboard");
  });

  it("the Inner Circle choice still wins over redirectTo", async () => {
    const user = await createUser();
    const res = await login({ email: user.email, password: TEST_PASSWORD, innerCircle: "1", redirectTo: "/dashboard/account" });
    expect(res.headers.get("location")).toBe("/purchase-inner-circle");
  });
});
