// What `npm start` fills in without APP_URL (docs/decisions/042): a local demo on localhost that other machines
// cannot reach unless HOST says so.
import { describe, expect, it } from "vitest";
import { isLocalDemo } from "~/domain/accounts/local-demo";
import { applyLocalDemoDefaults } from "../../../scripts/lib/local-demo-defaults.mjs";

describe("npm start without APP_URL", () => {
  it("serves a local demo on http://localhost:PORT, listening on loopback only", () => {
    const env: Record<string, string | undefined> = { NODE_ENV: "production", PORT: "4000" };
    const lines = applyLocalDemoDefaults(env);
    expect(env).toMatchObject({ APP_URL: "http://localhost:4000", HOST: "127.0.0.1" });
    expect(isLocalDemo({ NODE_ENV: "production", APP_URL: env.APP_URL })).toBe(true);
    expect(lines.join("\n")).toContain("local test checkout");
    expect(lines.join("\n")).toContain("set HOST=0.0.0.0 to reach it from other machines");
  });

  it("keeps a HOST set by hand, and says what it exposes", () => {
    const env: Record<string, string | undefined> = { PORT: "3000", HOST: "0.0.0.0" };
    const lines = applyLocalDemoDefaults(env);
    expect(env.HOST).toBe("0.0.0.0");
    expect(lines.at(-1)).toMatch(/^HOST=0\.0\.0\.0: other machines .*free plans, the demo login/);
  });

  it("changes nothing when APP_URL is set", () => {
    const env: Record<string, string | undefined> = { PORT: "3000", APP_URL: "https://shop.example.com" };
    expect(applyLocalDemoDefaults(env)).toEqual([]);
    expect(env).toEqual({ PORT: "3000", APP_URL: "https://shop.example.com" });
  });
});
