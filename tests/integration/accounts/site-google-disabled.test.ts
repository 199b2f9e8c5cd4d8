// Without Firebase settings Google sign-in does not exist: the endpoint answers 404 and the browser
// gets no Firebase config, so the button is not rendered.
import { describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  for (const name of [
    "FIREBASE_API_KEY",
    "FIREBASE_AUTH_DOMAIN",
    "FIREBASE_PROJECT_ID",
    "FIREBASE_APP_ID",
    "FIREBASE_JWKS_URL",
  ]) {
    delete process.env[name];
  }
});

import { db } from "~/db.server";
import { loader as rootLoader } from "~/root";
import { action as googleAction } from "~/routes/auth.google";
import { call, uniqueEmail } from "../../helpers/routes";

describe("POST /auth/google without FIREBASE_PROJECT_ID", () => {
  it.each(["signin", "signup"])("answers 404 in %s mode, creating nothing", async (mode) => {
    const users = await db.user.count();
    const res = await call(googleAction, "/auth/google", {
      json: { idToken: `header.${btoa(JSON.stringify({ email: uniqueEmail() }))}.signature`, mode },
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "Google sign-in is not enabled on this site." });
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(await db.user.count()).toBe(users);
  });

  it("gives the browser no Firebase config", async () => {
    expect((await (await call(rootLoader, "/login")).json()).env.firebase).toBeNull();
  });
});
