// The polite crawler's pure rules (app/domain/crawl/politeness.ts, decision 088): which catalogue answers are a
// wall for bots, what a kept crawl memory reads back as (anything unreadable forgotten, never a wrong merge), and
// the sentences a store page shows.
import { describe, expect, it } from "vitest";
import { blockedSentence, classifyCatalogueAnswer, parseCrawlMemory, robotsSentence, slowDownSentence, trimCrawlMemory, whenSentence, CRAWL_RULES } from "~/domain/crawl/politeness";

const answer = (status: number, contentType: string, bodyHead: string) => classifyCatalogueAnswer({ status, contentType, bodyHead });

describe("a catalogue answer", () => {
  it("is the catalogue when it is JSON, whatever it says", () => {
    expect(answer(200, "application/json", '{"products":[]}')).toEqual({ kind: "json" });
    // A JSON type with a broken body is a broken page (the reader's "bad response"), not a wall.
    expect(answer(200, "application/json", "<html>oops")).toEqual({ kind: "json" });
  });

  it("is a wall for bots when it is a web page, a captcha, a 403 or a 401", () => {
    expect(answer(200, "text/html; charset=utf-8", "<!doctype html><h1>Shop</h1>")).toEqual({ kind: "blocked", how: "html" });
    expect(answer(200, "", "<html><body>hello")).toEqual({ kind: "blocked", how: "html" });
    expect(answer(200, "text/html", '<script src="/cdn-cgi/challenge-platform/x"></script>')).toEqual({ kind: "blocked", how: "captcha" });
    expect(answer(202, "text/plain", "")).toEqual({ kind: "blocked", how: "html" });
    expect(answer(403, "text/html", "<h1>Forbidden</h1>")).toEqual({ kind: "blocked", how: "forbidden" });
    expect(answer(403, "text/html", "Please complete the captcha")).toEqual({ kind: "blocked", how: "captcha" });
    expect(answer(401, "text/plain", "Unauthorized")).toEqual({ kind: "blocked", how: "unauthorized" });
    expect(answer(503, "text/html", "<div id=px-captcha>")).toEqual({ kind: "blocked", how: "captcha" });
  });

  it("is something else for a 404, a plain 429 or a 5xx (the reader's own handling)", () => {
    for (const status of [404, 429, 500, 503]) expect(answer(status, "text/html", "<h1>oops</h1>")).toEqual({ kind: "other" });
  });
});

describe("the kept memory", () => {
  it("reads back what was written and forgets what it cannot read", () => {
    const robots = JSON.stringify({
      "a.test": { kind: "missing", fetchedAt: "2026-12-07T10:00:00.000Z", status: 404 },
      "b.test": { kind: "parsed", fetchedAt: "2026-12-07T10:00:00.000Z", policy: { rules: "not a list" } },
      "c.test": { kind: "guess", fetchedAt: "x" },
    });
    const validators = JSON.stringify({ "a.test/products.json?limit=250&page=1": { etag: '"x"', lastModified: 5 }, "a.test/x": {} });
    const memory = parseCrawlMemory(robots, validators, new Date(5_000));
    expect(Object.keys(memory.robots)).toEqual(["a.test"]);
    expect(memory.validators).toEqual({ "a.test/products.json?limit=250&page=1": { etag: '"x"', lastModified: null } });
    expect(memory.notBeforeMs).toBe(5_000);
    expect(parseCrawlMemory("{not json", "[1,2]", null)).toEqual({ robots: {}, validators: {}, notBeforeMs: null });
  });

  it("keeps a few hosts (the newest) and a bounded number of validators", () => {
    const robots = Object.fromEntries(
      Array.from({ length: 10 }, (_, i) => [`h${i}.test`, { kind: "missing" as const, fetchedAt: new Date(Date.UTC(2026, 11, 1 + i)).toISOString(), status: 404 }]),
    );
    const validators = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`h.test/p${i}`, { etag: `"${i}"`, lastModified: null }]));
    const kept = trimCrawlMemory({ robots, validators, notBeforeMs: 1 });
    expect(Object.keys(kept.robots)).toEqual(["h9.test", "h8.test", "h7.test", "h6.test"].slice(0, CRAWL_RULES.maxHostsKept));
    expect(Object.keys(kept.validators)).toHaveLength(CRAWL_RULES.maxValidatorsKept);
  });
});

describe("sentences", () => {
  const at = new Date("2026-12-07T14:05:00Z");
  it("say what happened, that the products stay, and when we try again", () => {
    expect(whenSentence(at)).toBe("on 7 Dec 2026 at 14:05 UTC");
    expect(blockedSentence("rival.com", "captcha", at)).toBe(
      'rival.com answered with a captcha or a "are you a robot?" check instead of its catalogue, so we could not read it. Its products stay as they were at the last read, and none is counted as removed. We will try again on 7 Dec 2026 at 14:05 UTC.',
    );
    expect(blockedSentence("rival.com", "forbidden", null)).toMatch(/We will not try again until you press Check now\.$/);
    expect(robotsSentence("rival.com", { kind: "disallowed", path: "/products.json", rule: "/products" }, at)).toBe(
      'rival.com\'s robots.txt asks crawlers like ours not to read /products.json (its rule "Disallow: /products"), so we do not read its catalogue. Its products stay as they were at the last read, and none is counted as removed. We will look at its robots.txt again on 7 Dec 2026 at 14:05 UTC.',
    );
    expect(robotsSentence("rival.com", { kind: "unreachable", status: null }, at)).toMatch(/could not be read \(the site did not answer\)/);
    expect(slowDownSentence("rival.com", at)).toMatch(/asked us to slow down .* we will try again on 7 Dec 2026 at 14:05 UTC\.$/);
  });
});
