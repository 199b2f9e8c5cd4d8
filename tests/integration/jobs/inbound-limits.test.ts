// Inbound rate limits (issue 26, decision 064): log-in per e-mail and per client address (a success clears the
// e-mail's count), sign-up per client address on both surfaces, and the public page-event call per client address,
// all on the one limiter (app/services/api-access/rate-limits.server.ts). The try past a limit is 429 with Retry-After and a
// sentence; another e-mail or address is not affected. Tests trust X-Forwarded-For (TRUST_PROXY=on in
// tests/helpers/test-env.ts); the last block runs the production server without it, where a forged header changes
// nothing and the socket's address is what counts.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

const oauth = await vi.hoisted(async () => (await import("../../helpers/fake-shopify-oauth")).installFakeShopifyOAuth());

import { db } from "~/db.server";
import { RATE_LIMITS } from "~/services/api-access/rate-limits.server";
import { action as analyticsAction } from "~/routes/api.analytics";
import { action as loginAction } from "~/routes/_site.login";
import { action as signupAction } from "~/routes/_site.signup";
import { action as linkAction } from "~/routes/app.link";
import { installShop } from "../../helpers/linked-shops";
import { call, uniqueEmail } from "../../helpers/routes";
import { signSessionToken } from "../../helpers/shopify";
import { createUser, TEST_PASSWORD, uniqueIp } from "../../helpers/site-users";
import { TEST_ENV } from "../../helpers/test-env";
import { ensureProductionBuild, startServer, type RunningServer } from "../../helpers/production-server";

const DESKTOP_CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const MAX_FAILURES = Number(TEST_ENV.LOGIN_MAX_FAILURES);
const PASSWORD = "a good long password";

const login = (form: Record<string, string>, ip: string) => call(loginAction, "/login", { form, headers: { "x-forwarded-for": ip } });
const signup = (email: string, ip: string) => call(signupAction, "/signup", { form: { email, password: PASSWORD }, headers: { "x-forwarded-for": ip } });
const pageEvent = (ip: string) =>
  call(analyticsAction, "/api/analytics", { method: "POST", json: { event: "$pageview", path: "/", anonymousId: "anon-12345678" }, headers: { "x-forwarded-for": ip } });

beforeEach(() => oauth.reset());

function expectRetryAfter(res: Response) {
  expect(res.status).toBe(429);
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
}

describe("log-in", () => {
  it("the e-mail's failure past LOGIN_MAX_FAILURES is refused with 429, Retry-After and a sentence; another e-mail is not", async () => {
    const user = await createUser();
    for (let i = 0; i < MAX_FAILURES; i++) expect((await login({ email: user.email, password: `wrong-${i}` }, uniqueIp())).status).toBe(401);
    const refused = await login({ email: user.email, password: TEST_PASSWORD }, uniqueIp());
    expectRetryAfter(refused);
    expect(refused.headers.get("set-cookie")).toBeNull();
    expect((await refused.json()).formError).toBe("Too many failed log-ins for this address. Try again in 15 minutes, or reset your password.");
    const other = await createUser();
    expect((await login({ email: other.email, password: TEST_PASSWORD }, uniqueIp())).status).toBe(302);
  });

  it("one client address's failures past its own limit are refused across e-mails; another address is not", async () => {
    const ip = uniqueIp();
    for (let i = 0; i < RATE_LIMITS.loginPerIp.points; i++) {
      expect((await login({ email: uniqueEmail("guess"), password: "guess-guess" }, ip)).status).toBe(401);
    }
    const victim = await createUser();
    const refused = await login({ email: victim.email, password: TEST_PASSWORD }, ip);
    expectRetryAfter(refused);
    expect((await refused.json()).formError).toBe("Too many failed log-ins from your network. Try again in 15 minutes.");
    expect((await login({ email: victim.email, password: TEST_PASSWORD }, uniqueIp())).status).toBe(302);
  });

  it("a success clears the e-mail's count: LOGIN_MAX_FAILURES more mistakes are answered 401 again", async () => {
    const user = await createUser();
    for (let i = 0; i < MAX_FAILURES - 1; i++) expect((await login({ email: user.email, password: "wrong-one" }, uniqueIp())).status).toBe(401);
    expect((await login({ email: user.email, password: TEST_PASSWORD }, uniqueIp())).status).toBe(302);
    for (let i = 0; i < MAX_FAILURES; i++) expect((await login({ email: user.email, password: "wrong-two" }, uniqueIp())).status).toBe(401);
    expectRetryAfter(await login({ email: user.email, password: TEST_PASSWORD }, uniqueIp()));
  });
});

describe("sign-up", () => {
  it("one client address's sign-up past the limit is refused with 429, Retry-After and a sentence, and creates nothing", async () => {
    const ip = uniqueIp();
    for (let i = 0; i < RATE_LIMITS.signupPerIp.points; i++) expect((await signup(uniqueEmail("new"), ip)).status).toBe(302);
    const email = uniqueEmail("one-too-many");
    const refused = await signup(email, ip);
    expectRetryAfter(refused);
    expect((await refused.json()).errors.email).toBe("Too many accounts were made from your network. Try again in 60 minutes.");
    expect(await db.user.count({ where: { email } })).toBe(0);
    expect((await signup(email, uniqueIp())).status).toBe(302);
  });

  it("inside Shopify admin, the link screen's sign-up and log-in count against the same limits", async () => {
    const { shop } = await installShop();
    const ip = uniqueIp();
    const link = async (form: Record<string, string>) =>
      call(linkAction, "/app/link", {
        method: "POST",
        form,
        headers: { authorization: `Bearer ${await signSessionToken({ shop })}`, "user-agent": DESKTOP_CHROME, "x-forwarded-for": ip },
      });
    for (let i = 0; i < RATE_LIMITS.signupPerIp.points; i++) await signup(uniqueEmail("elsewhere"), ip);
    const refused = await link({ intent: "signup", email: uniqueEmail("embedded"), password: PASSWORD });
    expect(refused.status).toBe(429);
    expect(JSON.stringify(await refused.json())).toContain("Too many accounts were made from your network.");

    const user = await createUser();
    for (let i = 0; i < MAX_FAILURES; i++) await login({ email: user.email, password: "wrong" }, uniqueIp());
    const loginRefused = await link({ intent: "login", email: user.email, password: TEST_PASSWORD });
    expect(loginRefused.status).toBe(429);
    expect((await loginRefused.json()).formError).toMatch(/^Too many failed log-ins for this address/);
  });
});

describe("the public page-event call (/api/analytics)", () => {
  it("one client address past the limit gets 429 with Retry-After and a sentence; another address does not", async () => {
    const ip = uniqueIp();
    for (let i = 0; i < RATE_LIMITS.publicCallsPerIp.points; i++) expect((await pageEvent(ip)).status).toBe(204);
    const refused = await pageEvent(ip);
    expectRetryAfter(refused);
    expect((await refused.json()).error).toBe("Too many requests from your network. Try again in 1 minute.");
    expect((await pageEvent(uniqueIp())).status).toBe(204);
  });
});

describe("the client address on the production server without TRUST_PROXY", () => {
  let server: RunningServer;
  beforeAll(async () => {
    ensureProductionBuild();
    // A small scale so the page-event limit is a handful of calls: round(120 * 0.05) = 6.
    server = await startServer({ TRUST_PROXY: "off", INBOUND_LIMITS_SCALE: "0.05", JOBS_WORKER: "off" });
  }, 300_000);
  afterAll(async () => server?.stop());

  it("a forged X-Forwarded-For does not escape the limit: the socket's address is counted", async () => {
    const post = (forged: string) =>
      fetch(`http://127.0.0.1:${server.port}/api/analytics`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: `http://127.0.0.1:${server.port}`, "x-forwarded-for": forged, "x-real-ip": forged },
        body: JSON.stringify({ event: "$pageview", path: "/", anonymousId: "anon-12345678" }),
      });
    const points = Math.round(RATE_LIMITS.publicCallsPerIp.points * 0.05);
    for (let i = 0; i < points; i++) expect((await post(uniqueIp())).status).toBe(204);
    const refused = await post(uniqueIp());
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});
