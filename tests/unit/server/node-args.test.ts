// How `npm start` and the benchmark start the server process (server/node-args.mjs).
import { describe, expect, it } from "vitest";
import { serverEnv, serverNodeArgs } from "../../../server/node-args.mjs";

describe("serverNodeArgs", () => {
  it("caps the V8 heap at 256 MB with 16 MB semi-spaces by default, and runs server/workers.mjs", () => {
    expect(serverNodeArgs({})).toEqual(["--max-old-space-size=256", "--max-semi-space-size=16", "server/workers.mjs"]);
  });

  it("takes SERVER_SEMI_SPACE_MB from 1 to 64", () => {
    expect(serverNodeArgs({ SERVER_SEMI_SPACE_MB: "1" })[1]).toBe("--max-semi-space-size=1");
    for (const bad of ["0", "65", "abc", "2.5"]) {
      expect(() => serverNodeArgs({ SERVER_SEMI_SPACE_MB: bad })).toThrow(/SERVER_SEMI_SPACE_MB must be a whole number/);
    }
  });

  it("takes SERVER_HEAP_MB and refuses a value that is not a whole number of at least 128", () => {
    expect(serverNodeArgs({ SERVER_HEAP_MB: "512" })[0]).toBe("--max-old-space-size=512");
    for (const bad of ["64", "abc", "200.5", "-1"]) {
      expect(() => serverNodeArgs({ SERVER_HEAP_MB: bad })).toThrow(/SERVER_HEAP_MB must be a whole number/);
    }
  });
});

describe("serverEnv", () => {
  it("fixes malloc's mmap threshold unless the operator set one, and keeps the rest", () => {
    expect(serverEnv({ PORT: "3000" })).toEqual({ PORT: "3000", MALLOC_MMAP_THRESHOLD_: "131072" });
    expect(serverEnv({ MALLOC_MMAP_THRESHOLD_: "65536" }).MALLOC_MMAP_THRESHOLD_).toBe("65536");
  });
});
