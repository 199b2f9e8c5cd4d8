// Retry-After on every page's 429 (issue 35 item 7, decision 079). Remix, not the action, decides a page's headers:
// for a document POST (a form sent without JavaScript) and for a JavaScript form's `.data` request alike it builds
// them from the route's `headers` export, so these requests go through Remix's own request handler with the real
// route modules (only the document's React render is left out: the headers are what is tested).
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { getEnv } from "~/env.server";
import * as accountRoute from "~/routes/dashboard.account";
import * as forgotRoute from "~/routes/_site.forgot-password";
import * as loginRoute from "~/routes/_site.login";
import * as signupRoute from "~/routes/_site.signup";
import * as verifyRoute from "~/routes/_site.verify-email";
import { RATE_LIMITS } from "~/services/api-access/rate-limits.server";
import { uniqueEmail } from "../../helpers/routes";
import { createSignedInUser, createUser, TEST_PASSWORD, uniqueIp } from "../../helpers/site-users";
import { TEST_APP_URL } from "../../helpers/test-env";

const LEAVES = {
  "routes/_site.login": { path: "login", module: loginRoute },
  "routes/_site.signup": { path: "signup", module: signupRoute },
  "routes/_site.forgot-password": { path: "forgot-password", module: forgotRoute },
  "routes/_site.verify-email": { path: "verify-email", module: verifyRoute },
  "routes/dashboard.account": { path: "dashboard/account", module: accountRoute },
};

/** A server build of the real route modules under a root without a loader; the document answer is its status and headers. */
function build(): ServerBuild {
  const routes: ServerBuild["routes"] = {
    root: { id: "root", path: "", module: { default: () => null } },
    ...Object.fromEntries(
      Object.entries(LEAVES).map(([id, leaf]) => [id, { id, parentId: "root", path: leaf.path, module: leaf.module as never }]),
    ),
  };
  return {
    mode: "production",
    routes,
    entry: { module: { default: (_request: Request, status: number, headers: Headers) => new Response("page", { status, headers }) } },
    assets: { entry: { imports: [], module: "" }, routes: {}, url: "", version: "test" },
    future: { v3_fetcherPersist: true, v3_relativeSplatPath: true, v3_throwAbortReason: true, v3_lazyRouteDiscovery: true, v3_singleFetch: true },
    publicPath: "/",
    assetsBuildDirectory: "",
    basename: undefined,
    isSpaMode: false,
    criticalCss: undefined,
  } as unknown as ServerBuild;
}

const handler = createRequestHandler(build(), "production");

/** A form POST as a browser sends it: without JavaScript (the document) or with it (Remix's `.data` request). */
function post(path: string, form: Record<string, string>, options: { ip: string; cookie?: string; js: boolean }) {
  const url = new URL(options.js ? `${path}.data` : path, TEST_APP_URL);
  const headers = new Headers({ "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": options.ip, origin: url.origin, host: url.host });
  if (options.cookie) headers.set("cookie", options.cookie);
  return handler(new Request(url, { method: "POST", headers, body: new URLSearchParams(form) }));
}

function expectRetryAfter(res: Response) {
  expect(res.status).toBe(429);
  expect(res.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
}

describe.each([false, true])("a page's 429 carries Retry-After (JavaScript %s)", (js) => {
  it("/login past the failed log-ins of an address", async () => {
    const user = await createUser();
    for (let i = 0; i < getEnv().LOGIN_MAX_FAILURES; i++) {
      expect((await post("/login", { email: user.email, password: `wrong ${i}` }, { ip: uniqueIp(), js })).status).toBe(401);
    }
    expectRetryAfter(await post("/login", { email: user.email, password: TEST_PASSWORD }, { ip: uniqueIp(), js }));
  });

  it("/signup past the sign-ups of a client address", async () => {
    const ip = uniqueIp();
    const points = Math.round(RATE_LIMITS.signupPerIp.points * getEnv().INBOUND_LIMITS_SCALE);
    for (let i = 0; i < points; i++) {
      expect((await post("/signup", { email: uniqueEmail("many"), password: TEST_PASSWORD }, { ip, js })).status).toBe(js ? 202 : 302);
    }
    expectRetryAfter(await post("/signup", { email: uniqueEmail("many"), password: TEST_PASSWORD }, { ip, js }));
  });

  it("/forgot-password past the reset links of an address", async () => {
    const email = uniqueEmail("reset");
    for (let i = 0; i < RATE_LIMITS.passwordResetPerEmail.points; i++) {
      expect((await post("/forgot-password", { email }, { ip: uniqueIp(), js })).status).toBe(200);
    }
    expectRetryAfter(await post("/forgot-password", { email }, { ip: uniqueIp(), js }));
  });

  it("/verify-email past the resends of a user, keeping the token page's own headers", async () => {
    const user = await createSignedInUser();
    for (let i = 0; i < RATE_LIMITS.emailVerificationResend.points; i++) {
      // Without JavaScript the page renders again after the action, without a link: its loader answers 410.
      expect((await post("/verify-email", {}, { ip: uniqueIp(), cookie: user.cookie, js })).status).toBe(js ? 200 : 410);
    }
    const refused = await post("/verify-email", {}, { ip: uniqueIp(), cookie: user.cookie, js });
    expectRetryAfter(refused);
    expect(refused.headers.get("referrer-policy")).toBe("strict-origin");
  });

  it("/dashboard/account past the wrong confirmations and past the e-mail changes", async () => {
    const user = await createSignedInUser();
    for (let i = 0; i < getEnv().LOGIN_MAX_FAILURES; i++) {
      const wrong = { intent: "change-password", currentPassword: `wrong ${i}`, newPassword: "a new password 1" };
      expect((await post("/dashboard/account", wrong, { ip: uniqueIp(), cookie: user.cookie, js })).status).toBe(403);
    }
    const form = { intent: "change-password", currentPassword: TEST_PASSWORD, newPassword: "a new password 1" };
    expectRetryAfter(await post("/dashboard/account", form, { ip: uniqueIp(), cookie: user.cookie, js }));

    const mover = await createSignedInUser();
    const change = () => ({ intent: "change-email", password: TEST_PASSWORD, newEmail: uniqueEmail("moved") });
    for (let i = 0; i < RATE_LIMITS.emailChangePerUser.points; i++) {
      expect((await post("/dashboard/account", change(), { ip: uniqueIp(), cookie: mover.cookie, js })).status).toBe(200);
    }
    expectRetryAfter(await post("/dashboard/account", change(), { ip: uniqueIp(), cookie: mover.cookie, js }));
  });
});
