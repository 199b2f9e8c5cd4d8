// What a seller types to follow a store becomes one bare lowercase host, or a sentence saying why not.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normaliseStoreDomain, STORE_URL_ERRORS, StoreDomainSchema } from "~/domain/crawl/store-url";

const ok = (domain: string) => ({ ok: true, domain });
const refused = (error: string) => ({ ok: false, error });

describe("normaliseStoreDomain: accepted forms", () => {
  it.each([
    ["https://store.com/products/x", "store.com"],
    ["store.com", "store.com"],
    ["www.store.com/collections/y?z", "www.store.com"],
    ["Store.COM.", "store.com"],
    ["xyz.myshopify.com", "xyz.myshopify.com"],
    ["http://store.com", "store.com"],
    ["HTTPS://Store.Com/", "store.com"],
    ["  store.com  ", "store.com"],
    ["\tstore.com\n", "store.com"],
    ["//store.com/path", "store.com"],
    ["store.com#reviews", "store.com"],
    ["store.com?utm_source=x", "store.com"],
    ["https://shop.store.co.uk/a/b/c?d=e#f", "shop.store.co.uk"],
    ["Bücher.de", "xn--bcher-kva.de"],
    ["https://münchen-shop.de/products/bier", "xn--mnchen-shop-thb.de"],
    ["xn--bcher-kva.de", "xn--bcher-kva.de"],
    ["my-store-2.com", "my-store-2.com"],
    ["store.test:8080", "store.test:8080"],
    ["http://store.test:4010/products.json", "store.test:4010"],
    ["https://store.com:443/x", "store.com"],
    ["http://store.com:80/x", "store.com"],
    ["STORE.COM:8443", "store.com:8443"],
  ])("%j → %s", (input, domain) => {
    expect(normaliseStoreDomain(input)).toEqual(ok(domain));
  });
});

describe("normaliseStoreDomain: refused, each with its sentence", () => {
  it.each([
    ["", STORE_URL_ERRORS.empty],
    ["   ", STORE_URL_ERRORS.empty],
    ["not a url", STORE_URL_ERRORS.notUrl],
    ["store .com", STORE_URL_ERRORS.notUrl],
    ["https://", STORE_URL_ERRORS.notUrl],
    ["http:store.com", STORE_URL_ERRORS.notUrl],
    ["store..com", STORE_URL_ERRORS.notUrl],
    ["-store.com", STORE_URL_ERRORS.notUrl],
    ["store-.com", STORE_URL_ERRORS.notUrl],
    ["sto_re.com", STORE_URL_ERRORS.notUrl],
    ["store.com:99999", STORE_URL_ERRORS.notUrl],
    ["store.123", STORE_URL_ERRORS.notUrl],
    ["<script>.com", STORE_URL_ERRORS.notUrl],
    ["store", STORE_URL_ERRORS.singleLabel],
    ["https://intranet/", STORE_URL_ERRORS.singleLabel],
    ["/products/x", STORE_URL_ERRORS.pathOnly],
    ["/", STORE_URL_ERRORS.pathOnly],
    ["?page=2", STORE_URL_ERRORS.pathOnly],
    ["user@store.com", STORE_URL_ERRORS.userinfo],
    ["user:pass@store.com", STORE_URL_ERRORS.userinfo],
    ["https://user:pass@store.com/", STORE_URL_ERRORS.userinfo],
    ["https://evil.com@store.com", STORE_URL_ERRORS.userinfo],
    ["ftp://store.com", STORE_URL_ERRORS.scheme],
    ["file:///etc/passwd", STORE_URL_ERRORS.scheme],
    ["javascript:alert(1)", STORE_URL_ERRORS.scheme],
    ["mailto:owner@store.com", STORE_URL_ERRORS.userinfo],
    ["gopher://store.com:70/", STORE_URL_ERRORS.scheme],
    ["data:text/html,hi", STORE_URL_ERRORS.scheme],
    ["127.0.0.1", STORE_URL_ERRORS.ipAddress],
    ["http://127.0.0.1:3000/", STORE_URL_ERRORS.ipAddress],
    ["169.254.169.254", STORE_URL_ERRORS.ipAddress],
    ["http://2130706433/", STORE_URL_ERRORS.ipAddress],
    ["0x7f.1", STORE_URL_ERRORS.ipAddress],
    ["[::1]", STORE_URL_ERRORS.ipAddress],
    ["http://[::ffff:127.0.0.1]/", STORE_URL_ERRORS.ipAddress],
    ["localhost", STORE_URL_ERRORS.localhost],
    ["localhost:3000", STORE_URL_ERRORS.localhost],
    ["http://LOCALHOST./", STORE_URL_ERRORS.localhost],
    ["shop.localhost", STORE_URL_ERRORS.localhost],
    [`${"a".repeat(2001)}.com`, STORE_URL_ERRORS.tooLong],
    [`${"abcdefghij.".repeat(25)}com`, STORE_URL_ERRORS.tooLong],
    [`${"a".repeat(64)}.com`, STORE_URL_ERRORS.notUrl],
  ])("%j", (input, error) => {
    expect(normaliseStoreDomain(input)).toEqual(refused(error));
  });

  it("every refusal is a full sentence", () => {
    for (const sentence of Object.values(STORE_URL_ERRORS)) expect(sentence).toMatch(/^[A-Z].*\.$/);
  });
});

describe("normaliseStoreDomain: properties", () => {
  const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?$/);
  const tld = fc.stringMatching(/^[a-z]{2,6}$/);
  const host = fc.tuple(fc.array(label, { minLength: 1, maxLength: 3 }), tld).map(([labels, t]) => [...labels, t].join("."));
  const decorated = fc.tuple(
    host,
    fc.constantFrom("", "http://", "https://", "HTTPS://", "//"),
    fc.constantFrom("", "/", "/products/x", "/collections/y?z=1", "#top"),
    fc.constantFrom("", ".", ""),
    fc.constantFrom("", " ", "\t"),
    fc.boolean(),
  );

  it("any way of writing one store's address gives the same bare host", () => {
    fc.assert(
      fc.property(decorated, ([h, scheme, path, dot, pad, upper]) => {
        fc.pre(!h.endsWith(".localhost") && !/^[\d.]+$/.test(h));
        const typed = `${pad}${scheme}${upper ? h.toUpperCase() : h}${dot}${path}${pad}`;
        expect(normaliseStoreDomain(typed)).toEqual(ok(h));
      }),
    );
  });

  it("is idempotent and never throws, whatever is typed", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (typed) => {
        const first = normaliseStoreDomain(typed);
        if (first.ok) {
          expect(first.domain).toBe(first.domain.toLowerCase());
          expect(first.domain).not.toMatch(/[/?#@\s]/);
          expect(normaliseStoreDomain(first.domain)).toEqual(first);
        } else {
          expect(first.error.length).toBeGreaterThan(10);
        }
      }),
    );
  });
});

describe("StoreDomainSchema", () => {
  it("parses to the bare host, or fails with the sentence", () => {
    expect(StoreDomainSchema.parse("https://Store.com/x")).toBe("store.com");
    const bad = StoreDomainSchema.safeParse("localhost");
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0].message).toBe(STORE_URL_ERRORS.localhost);
  });
});
