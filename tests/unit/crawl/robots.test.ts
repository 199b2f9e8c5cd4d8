// robots.txt as RFC 9309 reads it (app/domain/crawl/robots.ts, decision 088): groups by user-agent, the longest
// matching rule with `*` and `$`, allow winning a tie, the 500 KiB limit, and what a fetch's status means. The
// properties compare the matcher with a plain regular-expression reading of the same pattern on small inputs, and
// check that what other crawlers are told never changes what we are told.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  normalisePath,
  parseRobots,
  patternMatches,
  policyFor,
  recordAllows,
  ROBOTS_RULES,
  robotsFresh,
  robotsPolicy,
  robotsRecordOf,
  robotsVerdict,
} from "~/domain/crawl/robots";

const TOKEN = "WinningProductsStoreTracker";
const allowed = (text: string, path: string, token = TOKEN) => robotsVerdict(robotsPolicy(text, token), path).allowed;

// A store's robots.txt in the shape Shopify's default one has (written here, not copied).
const SHOP_LIKE = `# we use Shopify as our ecommerce platform
User-agent: *
Disallow: /admin
Disallow: /cart
Disallow: /checkout
Disallow: /collections/*sort_by*
Disallow: /*/collections/*sort_by*
Disallow: /search
Disallow: /recommendations/products

User-agent: Nutch
Disallow: /

User-agent: MJ12bot
Crawl-delay: 10

Sitemap: https://shop.example/sitemap.xml
`;

describe("which group applies", () => {
  it("uses * when no group names us, and reads the catalogue of a Shopify-like store", () => {
    expect(allowed(SHOP_LIKE, "/products.json?limit=250&page=1")).toBe(true);
    expect(allowed(SHOP_LIKE, "/products/a-lamp.js")).toBe(true);
    expect(allowed(SHOP_LIKE, "/meta.json")).toBe(true);
    expect(allowed(SHOP_LIKE, "/cart")).toBe(false);
    expect(allowed(SHOP_LIKE, "/collections/all?sort_by=price")).toBe(false);
    expect(robotsPolicy(SHOP_LIKE, TOKEN)).toMatchObject({ group: "*", crawlDelayMs: null });
    // Another crawler named in the file gets its own group.
    expect(allowed(SHOP_LIKE, "/products.json", "Nutch")).toBe(false);
    expect(robotsPolicy(SHOP_LIKE, "mj12bot").crawlDelayMs).toBe(10_000);
  });

  it("uses the groups naming our token (case-insensitive, merged) instead of *", () => {
    const text = `User-agent: *\nDisallow: /\n\nuser-agent: winningproductsstoretracker\nallow: /products.json\ndisallow: /products\n\nUSER-AGENT: WinningProductsStoreTracker/1.0\nDisallow: /meta.json\n`;
    expect(robotsPolicy(text, TOKEN).group).toBe("token");
    expect(allowed(text, "/products.json?limit=250&page=1")).toBe(true);
    expect(allowed(text, "/products/x.js")).toBe(false);
    expect(allowed(text, "/meta.json")).toBe(false);
    expect(allowed(text, "/about")).toBe(true);
    expect(allowed(text, "/about", "OtherBot")).toBe(false);
  });

  it("groups several user-agent lines together, and a user-agent after a rule starts a new group", () => {
    const text = `User-agent: a\nUser-agent: ${TOKEN}\nDisallow: /x\nUser-agent: b\nDisallow: /y\n`;
    const groups = parseRobots(text);
    expect(groups).toHaveLength(2);
    expect(allowed(text, "/x")).toBe(false);
    expect(allowed(text, "/y")).toBe(true);
    expect(allowed(text, "/y", "b")).toBe(false);
  });

  it("ignores rules before any user-agent, comments, unknown keys, an empty disallow and a byte-order mark", () => {
    const text = `\uFEFFDisallow: /\nUser-agent: * # everyone\nDisallow:\nNoindex: /x\nDisallow: /private # not you\n`;
    expect(allowed(text, "/")).toBe(true);
    expect(allowed(text, "/private/a")).toBe(false);
    expect(allowed(text, "/x")).toBe(true);
  });

  it("allows everything when no group applies, and always allows /robots.txt", () => {
    expect(robotsPolicy("User-agent: other\nDisallow: /", TOKEN)).toEqual({ group: "none", rules: [], crawlDelayMs: null });
    expect(allowed("User-agent: *\nDisallow: /", "/robots.txt")).toBe(true);
    expect(allowed("", "/products.json")).toBe(true);
  });
});

describe("which rule decides", () => {
  it("takes the longest match; allow wins a tie", () => {
    const text = `User-agent: *\nDisallow: /products\nAllow: /products.json\nDisallow: /p$\nAllow: /p\n`;
    expect(allowed(text, "/products.json?page=2")).toBe(true);
    expect(allowed(text, "/products/a.js")).toBe(false);
    // "/p$" is the longer pattern (3 octets against 2): the more specific rule decides, as Google's parser does.
    expect(allowed(text, "/p")).toBe(false);
    expect(allowed(text, "/pa")).toBe(true);
    const tie = `User-agent: *\nDisallow: /a\nAllow: /a\n`;
    expect(allowed(tie, "/a")).toBe(true);
  });

  it("reads * as any run of characters and a final $ as the end", () => {
    const text = `User-agent: *\nDisallow: /*.json$\nDisallow: /*?*page=\nAllow: /meta.json$\n`;
    expect(allowed(text, "/products.json")).toBe(false);
    expect(allowed(text, "/products.json.bak")).toBe(true);
    expect(allowed(text, "/meta.json")).toBe(true);
    expect(allowed(text, "/products?limit=1&page=2")).toBe(false);
    expect(patternMatches("/a*b*c$", "/axxbyyc")).toBe(true);
    expect(patternMatches("/a*b*c$", "/axxbyycd")).toBe(false);
    expect(patternMatches("*", "")).toBe(true);
  });

  it("compares paths with percent-encoding normalised", () => {
    expect(normalisePath("/café")).toBe("/caf%C3%A9");
    expect(normalisePath("/caf%c3%a9")).toBe("/caf%C3%A9");
    expect(normalisePath("/%7Efoo")).toBe("/~foo");
    expect(allowed("User-agent: *\nDisallow: /café", "/caf%c3%a9/x")).toBe(false);
  });

  it("keeps to a bounded cost on a pattern full of wildcards against a long path", () => {
    const pattern = `/${"*a".repeat(200)}b$`;
    const path = `/${"a".repeat(4000)}`;
    const started = performance.now();
    expect(patternMatches(pattern, path)).toBe(false);
    // Structural, not timed: the walk is pattern x path at worst; a regular expression here would not return.
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe("size and fetch outcomes", () => {
  it("drops the half line cut at the limit, so a truncated file never turns part of a rule into another", () => {
    const text = `User-agent: *\nAllow: /products.json\nDisallow: /products`;
    // Cut inside the last line: "Disallow: /products" is gone, not read as "Disallow: /pro".
    const cut = text.slice(0, text.length - 5);
    expect(robotsVerdict(robotsPolicy(cut, TOKEN, { truncated: true }), "/products/x.js").allowed).toBe(true);
    expect(robotsVerdict(robotsPolicy(cut, TOKEN), "/products/x.js").allowed).toBe(false);
  });

  it("means allowed for 4xx, nothing for 5xx or no answer, and the rules for 2xx", () => {
    const at = "2026-12-07T10:00:00.000Z";
    expect(robotsRecordOf({ status: 404, text: "", truncated: false }, TOKEN, at)).toMatchObject({ kind: "missing" });
    expect(robotsRecordOf({ status: 503, text: "", truncated: false }, TOKEN, at)).toMatchObject({ kind: "unreachable", status: 503 });
    expect(robotsRecordOf({ status: null }, TOKEN, at)).toMatchObject({ kind: "unreachable", status: null });
    const parsed = robotsRecordOf({ status: 200, text: "User-agent: *\nDisallow: /products.json", truncated: false }, TOKEN, at);
    expect(recordAllows(parsed, "/products.json?page=1").allowed).toBe(false);
    const down = robotsRecordOf({ status: 500, text: "", truncated: false }, TOKEN, at);
    expect(recordAllows(down, "/products.json").allowed).toBe(false);
    expect(recordAllows(down, "/robots.txt").allowed).toBe(true);
    expect(recordAllows(robotsRecordOf({ status: 410, text: "", truncated: false }, TOKEN, at), "/products.json").allowed).toBe(true);
  });

  it("is kept a day", () => {
    const record = robotsRecordOf({ status: 404, text: "", truncated: false }, TOKEN, "2026-12-07T10:00:00.000Z");
    const t = Date.parse("2026-12-07T10:00:00.000Z");
    expect(robotsFresh(record, t + ROBOTS_RULES.cacheMs - 1)).toBe(true);
    expect(robotsFresh(record, t + ROBOTS_RULES.cacheMs)).toBe(false);
    expect(robotsFresh(record, t - 1)).toBe(false);
  });
});

// Properties ------------------------------------------------------------------------------------------------

const pathChar = fc.constantFrom("a", "b", "/", ".", "?", "=", "j");
const pathArb = fc.array(pathChar, { maxLength: 12 }).map((cs) => `/${cs.join("")}`);
const patternArb = fc
  .tuple(fc.array(fc.constantFrom("a", "b", "/", ".", "*", "?", "="), { maxLength: 8 }), fc.boolean())
  .map(([cs, anchored]) => `/${cs.join("")}${anchored ? "$" : ""}`);

/** The same pattern as a regular expression: fine on tiny inputs, the reference the walk must agree with. */
function reference(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith("$");
  const body = (anchored ? pattern.slice(0, -1) : pattern).split("*").map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*");
  return new RegExp(`^${body}${anchored ? "$" : ""}`, "s").test(path);
}

describe("properties", () => {
  it("the wildcard walk agrees with a regular expression", () => {
    fc.assert(fc.property(patternArb, pathArb, (pattern, path) => patternMatches(pattern, path) === reference(pattern, path)), { numRuns: 3000 });
  });

  it("the verdict is the longest matching rule's (allow on a tie), whatever the order of the lines", () => {
    const rule = fc.record({ allow: fc.boolean(), pattern: patternArb });
    fc.assert(
      fc.property(fc.array(rule, { maxLength: 8 }), pathArb, fc.integer({ min: 0, max: 1000 }), (rules, path, seed) => {
        const text = (rs: typeof rules) => `User-agent: *\n${rs.map((r) => `${r.allow ? "Allow" : "Disallow"}: ${r.pattern}`).join("\n")}\n`;
        const shuffled = [...rules].sort((a, b) => ((a.pattern.length * 31 + seed) % 7) - ((b.pattern.length * 17 + seed) % 7));
        const verdict = allowed(text(rules), path);
        expect(allowed(text(shuffled), path)).toBe(verdict);
        const matching = rules.filter((r) => reference(r.pattern, path));
        const longest = Math.max(-1, ...matching.map((r) => r.pattern.length));
        const expected = matching.length === 0 || matching.some((r) => r.pattern.length === longest && r.allow);
        return verdict === expected;
      }),
      { numRuns: 1000 },
    );
  });

  it("groups for other crawlers never change what we are told", () => {
    const line = fc.tuple(fc.boolean(), patternArb).map(([allow, p]) => `${allow ? "Allow" : "Disallow"}: ${p}`);
    fc.assert(
      // At least one rule each: user-agent lines with no rule between them are one group (RFC 9309 2.1).
      fc.property(fc.array(line, { minLength: 1, maxLength: 5 }), fc.array(line, { minLength: 1, maxLength: 5 }), pathArb, (ours, theirs, path) => {
        const base = `User-agent: *\n${ours.join("\n")}\n`;
        const withOthers = `User-agent: SomeOtherBot\n${theirs.join("\n")}\n\n${base}User-agent: another\nDisallow: /\n`;
        return allowed(base, path) === allowed(withOthers, path);
      }),
      { numRuns: 500 },
    );
  });

  it("a file cut at any point says exactly what its whole lines say", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), patternArb), { maxLength: 6 }), fc.nat(), pathArb, (rules, cutAt, path) => {
        const text = `User-agent: *\n${rules.map(([a, p]) => `${a ? "Allow" : "Disallow"}: ${p}`).join("\n")}\n`;
        const cut = text.slice(0, cutAt % (text.length + 1));
        const wholeLines = cut.slice(0, Math.max(0, cut.lastIndexOf("\n")));
        return allowed(wholeLines, path) === robotsVerdict(robotsPolicy(cut, TOKEN, { truncated: true }), path).allowed;
      }),
      { numRuns: 1000 },
    );
  });

  it("never throws on arbitrary text", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.string({ maxLength: 40 }), (text, path) => {
        const policy = policyFor(parseRobots(text), TOKEN);
        return typeof robotsVerdict(policy, `/${path}`).allowed === "boolean";
      }),
      { numRuns: 1000 },
    );
  });
});
