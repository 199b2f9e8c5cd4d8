// The AI text settings in app/env.server.ts: base URL and model go together, the key is optional,
// the timeout defaults to 20 s, and a malformed value stops the start-up with a line naming it.
import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "~/env.server";

function problems(source: Record<string, string>): string[] {
  try {
    parseEnv({ NODE_ENV: "test", ...source });
    return [];
  } catch (error) {
    if (error instanceof EnvError) return error.problems;
    throw error;
  }
}

describe("AI text settings", () => {
  it("none set: the built-in writer, with the default timeout", () => {
    const env = parseEnv({ NODE_ENV: "test" });
    expect(env.AI_BASE_URL).toBeUndefined();
    expect(env.AI_MODEL).toBeUndefined();
    expect(env.AI_TIMEOUT_MS).toBe(20_000);
  });

  it("base URL and model together, with or without a key", () => {
    expect(problems({ AI_BASE_URL: "https://api.example.com/v1", AI_MODEL: "m" })).toEqual([]);
    const env = parseEnv({
      NODE_ENV: "test",
      AI_BASE_URL: "https://api.example.com/v1",
      AI_MODEL: "m",
      AI_API_KEY: "sk-1",
      AI_TIMEOUT_MS: "5000",
    });
    expect(env).toMatchObject({
      AI_BASE_URL: "https://api.example.com/v1",
      AI_MODEL: "m",
      AI_API_KEY: "sk-1",
      AI_TIMEOUT_MS: 5000,
    });
  });

  it("one without the other, or a key alone, is refused with one clear line", () => {
    const rule = "AI text needs AI_BASE_URL and AI_MODEL together (AI_API_KEY is optional and only used with them)";
    expect(problems({ AI_BASE_URL: "https://api.example.com/v1" })).toEqual([`AI_MODEL ${rule}`]);
    expect(problems({ AI_MODEL: "m" })).toEqual([`AI_BASE_URL ${rule}`]);
    expect(problems({ AI_API_KEY: "sk-1" })).toEqual([`AI_BASE_URL ${rule}`]);
  });

  it("malformed values name the variable", () => {
    expect(problems({ AI_BASE_URL: "not a url", AI_MODEL: "m" })[0]).toMatch(/^AI_BASE_URL must be an absolute URL/);
    expect(problems({ AI_TIMEOUT_MS: "abc" })[0]).toMatch(/^AI_TIMEOUT_MS /);
    expect(problems({ AI_TIMEOUT_MS: "10" })[0]).toMatch(/^AI_TIMEOUT_MS /);
  });
});
