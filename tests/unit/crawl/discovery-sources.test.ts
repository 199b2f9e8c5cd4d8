// The discovery sources' answers read as candidates (decision 101): Common Crawl's CDX JSON lines and crt.sh's JSON
// array, in their documented shapes (written here by hand), with every unusable piece a skip with its reason.
import { describe, expect, it } from "vitest";
import { myshopifyHost, newestCdxApi, readCdxLines, readCrtShJson } from "~/domain/crawl/discovery";

const cdx = (url: string, status = "200") =>
  JSON.stringify({ urlkey: "com,myshopify,x)/", timestamp: "20261120093011", url, mime: "application/json", status, digest: "ABCDEFGHIJKLMNOP", length: "1234", offset: "5678", filename: "crawl-data/CC-MAIN-2026-47/segments/1/warc/x.warc.gz" });

describe("myshopifyHost", () => {
  it.each([
    ["Blue-Lamp.myshopify.com", { ok: true, host: "blue-lamp.myshopify.com" }],
    ["blue-lamp.myshopify.com.", { ok: true, host: "blue-lamp.myshopify.com" }],
  ])("accepts %s", (name, expected) => expect(myshopifyHost(name)).toEqual(expected));
  it.each(["*.myshopify.com", "*.blue.myshopify.com", "a.b.myshopify.com", "myshopify.com", "cdn.myshopify.com", "checkout.myshopify.com", "example.com", "-x.myshopify.com"])(
    "refuses %s with a reason",
    (name) => {
      const r = myshopifyHost(name);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toMatch(/\w{4,}/);
    },
  );
});

describe("readCdxLines", () => {
  it("takes *.myshopify.com pages and stores' /products.json, each host once, up to the limit", () => {
    const text = [
      cdx("https://blue-lamp.myshopify.com/products/lamp"),
      cdx("https://blue-lamp.myshopify.com/collections/all"),
      cdx("https://www.green-mug.com/products.json?limit=250"),
      cdx("https://red-sock.myshopify.com/", "301"),
      cdx("https://example.org/about"),
      "not json at all",
      JSON.stringify({ urlkey: "x", timestamp: "1" }),
      "",
      cdx("https://third.myshopify.com/"),
      cdx("https://fourth.myshopify.com/"),
    ].join("\n");
    const r = readCdxLines(text, 3);
    expect(r.hosts).toEqual(["blue-lamp.myshopify.com", "www.green-mug.com", "third.myshopify.com"]);
    expect(r.skipped.map((s) => s.reason)).toEqual([
      "a capture that answered 301, not 200",
      "neither a *.myshopify.com page nor a store's /products.json",
      "a line that is not JSON",
      "a line without a url",
    ]);
  });

  it("reads the newest collection's CDX endpoint from collinfo.json", () => {
    const info = [
      { id: "CC-MAIN-2026-49", name: "November 2026 Index", timegate: "https://index.commoncrawl.org/CC-MAIN-2026-49/", "cdx-api": "https://index.commoncrawl.org/CC-MAIN-2026-49-index" },
      { id: "CC-MAIN-2026-44", name: "October 2026 Index", timegate: "https://index.commoncrawl.org/CC-MAIN-2026-44/", "cdx-api": "https://index.commoncrawl.org/CC-MAIN-2026-44-index" },
    ];
    expect(newestCdxApi(info)).toBe("https://index.commoncrawl.org/CC-MAIN-2026-49-index");
    expect(newestCdxApi({ nope: 1 })).toBeNull();
    expect(newestCdxApi([{ id: "x" }])).toBeNull();
  });
});

describe("readCrtShJson", () => {
  const cert = (id: number, common_name: string, name_value: string) => ({
    issuer_ca_id: 295815,
    issuer_name: "C=US, O=Example CA, CN=Example R1",
    common_name,
    name_value,
    id,
    entry_timestamp: "2026-11-30T10:11:12.345",
    not_before: "2026-11-30T09:11:12",
    not_after: "2027-02-28T09:11:11",
    serial_number: "0a1b2c3d4e5f",
  });

  it("takes every store name in common_name and name_value, skips wildcards, duplicates once", () => {
    const r = readCrtShJson(
      [cert(1, "blue-lamp.myshopify.com", "blue-lamp.myshopify.com\nwww.blue-lamp.com"), cert(2, "*.myshopify.com", "*.myshopify.com\nmyshopify.com"), cert(3, "green-mug.myshopify.com", "green-mug.myshopify.com"), "junk", cert(4, "", "")],
      10,
    );
    expect(r.hosts).toEqual(["blue-lamp.myshopify.com", "green-mug.myshopify.com"]);
    expect(r.skipped).toEqual(
      expect.arrayContaining([
        { what: "www.blue-lamp.com", reason: "not a store's *.myshopify.com address" },
        { what: "*.myshopify.com", reason: "a wildcard name, not one store" },
        { what: "junk", reason: "an entry that is not a certificate" },
        { what: "4", reason: "a certificate without names" },
      ]),
    );
  });

  it("an answer that is not an array is one skip", () => {
    expect(readCrtShJson({ error: "busy" }, 10)).toEqual({ hosts: [], skipped: [{ what: "answer", reason: "not a JSON array of certificates" }] });
  });
});
