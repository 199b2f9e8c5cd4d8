// absoluteUrl (app/api/v1/absolute-url.server.ts) must write exactly what the WHATWG URL parser writes for
// every path and base, its shortcuts included: listed cases, then random strings over the characters that matter.
import { describe, expect, it } from "vitest";
import { absoluteUrl } from "~/api/v1/absolute-url.server";

const BASES = [
  "http://127.0.0.1:3393/api/v1/products?q=dog",
  "https://winning.example.com/api/v1/products",
  "https://WINNING.example.com:443/mcp",
  "http://localhost:80/api/v1/saved",
  "http://[::1]:3000/api/v1/products",
];

const PATHS = [
  "/dashboard/products/abc-123",
  "/dashboard/products/a%20b",
  "/dashboard/products/%E2%9C%93",
  "/images/p/1.webp",
  "/a/./b",
  "/a/../b",
  "/a/%2e%2E/b",
  "/a/.%2e",
  "/a/.hidden/b",
  "/a/..b/c",
  "/a b",
  "/a\"b<c>",
  "/a?x=1#y",
  "//cdn.example.com/x.jpg",
  "/\\evil",
  "https://cdn.shopify.com/s/files/1/x.jpg?v=1",
  "HTTPS://CDN.Example.COM/A.jpg",
  "http://example.com",
  "data:image/png;base64,AAAA",
  "relative/path",
  "",
  "/",
  "/é",
  "/%zz",
  "/a:b@c!$&'()*+,;=",
  "/~user/_x-y.z",
];

describe("absoluteUrl", () => {
  it("writes what new URL(path, base) writes for the listed paths", () => {
    for (const base of BASES) {
      for (const path of PATHS) expect([base, path, absoluteUrl(base, path)]).toEqual([base, path, new URL(path, base).toString()]);
    }
  });

  it("writes what new URL(path, base) writes for 20,000 random paths", () => {
    const alphabet = ["/", "/", ".", ".", "%2e", "%2E", "%", "a", "Z", "0", "-", "_", "~", " ", "?", "#", "\\", ":", "@", "é", "'", '"', "%41", "//"];
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let i = 0; i < 20_000; i++) {
      let path = random() < 0.8 ? "/" : random() < 0.5 ? "https://h.example/" : "";
      const length = Math.floor(random() * 8);
      for (let j = 0; j < length; j++) path += alphabet[Math.floor(random() * alphabet.length)];
      const base = BASES[i % BASES.length];
      const written = (f: () => string) => {
        try {
          return f();
        } catch {
          return "(not a URL)";
        }
      };
      expect([base, path, written(() => absoluteUrl(base, path))]).toEqual([base, path, written(() => new URL(path, base).toString())]);
    }
  });

  it("answers a changed base with its own origin", () => {
    expect(absoluteUrl("http://a.example/x", "/p")).toBe("http://a.example/p");
    expect(absoluteUrl("http://b.example:8080/x", "/p")).toBe("http://b.example:8080/p");
    expect(absoluteUrl("http://a.example/x", "/p")).toBe("http://a.example/p");
  });
});
