// bindDeps: how a service folder's composer (app/services/competitors.server.ts, product-pages.server.ts) hands
// its resolved dependencies to each module's functions.
import { describe, expect, it } from "vitest";
import { bindDeps } from "~/services/bind";

describe("bindDeps", () => {
  it("passes the same dependencies first and the caller's arguments after, defaults included, and returns what the function returns", async () => {
    const deps = { prefix: "store", seen: [] as unknown[] };
    const bound = bindDeps(deps, {
      name: (d: { prefix: string }, id: number, suffix = "!") => `${d.prefix}-${id}${suffix}`,
      record: async (d: { seen: unknown[] }, ...items: string[]) => {
        d.seen.push(...items);
        return d.seen.length;
      },
    });
    expect(bound.name(7)).toBe("store-7!");
    expect(bound.name(8, "?")).toBe("store-8?");
    expect(await bound.record("a", "b")).toBe(2);
    expect(deps.seen).toEqual(["a", "b"]);
    expect(Object.keys(bound)).toEqual(["name", "record"]);
  });

  it("lets a thrown error through unchanged", () => {
    const failure = new Error("refused");
    const bound = bindDeps({}, {
      refuse: () => {
        throw failure;
      },
    });
    expect(() => bound.refuse()).toThrow(failure);
  });
});
