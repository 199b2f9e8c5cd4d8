// The SSRF-safe fetcher against real sockets on 127.0.0.1: private addresses are refused after DNS and on every
// redirect hop (and no request reaches them), the allow-list opens exactly one host:port, and the politeness and
// robustness limits hold (User-Agent, no cookies, timeouts, redirect limit, a size cap on decompressed bytes).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { createImageFetcher, ImageFetchError } from "~/integrations/image-fetch.server";
import {
  blockedAddressReason,
  createSafeFetcher,
  parseAllowHosts,
  SafeFetchError,
  type HostLookup,
  type SafeFetcher,
} from "~/integrations/safe-fetch.server";
import { createShopifyStorefront } from "~/integrations/shopify-storefront.server";

interface TestServer {
  port: number;
  requests: IncomingMessage[];
  close(): Promise<void>;
}

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<TestServer> {
  const requests: IncomingMessage[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const toLoopback: HostLookup = async () => [{ address: "127.0.0.1", family: 4 }];

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function withServer(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const s = await serve(handler);
  cleanups.push(() => s.close());
  return s;
}

function fetcher(options: Partial<Parameters<typeof createSafeFetcher>[0]> = {}): SafeFetcher {
  const f = createSafeFetcher({ contactUrl: "https://winningproducts.test/bot", ...options });
  cleanups.push(() => f.close());
  return f;
}

async function failure(promise: Promise<unknown>): Promise<SafeFetchError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(SafeFetchError);
    return error as SafeFetchError;
  }
  throw new Error("expected the fetch to fail");
}

describe("blockedAddressReason", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "cloud metadata"],
    ["169.254.1.1", "link-local"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["100.100.100.200", "cloud metadata"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["240.0.0.1", "reserved"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "link-local"],
    ["fc00::1", "unique-local"],
    ["fd00:ec2::254", "cloud metadata"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:169.254.169.254", "cloud metadata"],
    ["::ffff:10.0.0.1", "private"],
    ["::127.0.0.1", "IPv4-compatible"],
    ["[::1]", "loopback"],
    ["fe80::1%eth0", "network interfaces"],
    ["64:ff9b::7f00:1", "NAT64 form of a loopback"],
    ["2002:7f00:1::1", "6to4"],
    ["not-an-ip", "not an IP address"],
  ])("refuses %s (%s)", (address, reason) => {
    expect(blockedAddressReason(address)).toContain(reason);
  });

  it.each(["8.8.8.8", "1.1.1.1", "23.227.38.65", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("lets public %s through", (address) => {
    expect(blockedAddressReason(address)).toBeNull();
  });

  it("refuses every private IPv4 address in its IPv4-mapped IPv6 form too", () => {
    const privateV4 = fc.oneof(
      fc.tuple(fc.constant(10), fc.nat(255), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(172), fc.integer({ min: 16, max: 31 }), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(192), fc.constant(168), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(127), fc.nat(255), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(169), fc.constant(254), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(100), fc.integer({ min: 64, max: 127 }), fc.nat(255), fc.nat(255)),
    );
    fc.assert(
      fc.property(privateV4, (octets) => {
        const v4 = octets.join(".");
        expect(blockedAddressReason(v4)).not.toBeNull();
        expect(blockedAddressReason(`::ffff:${v4}`)).not.toBeNull();
      }),
    );
  });
});

/**
 * Address forms a DNS answer (or a redirect's IP literal) can take that are not plain public unicast, each
 * with a word its refusal must contain. The IPv4-compatible form (::a.b.c.d, deprecated by RFC 4291) is refused
 * whatever it embeds, public or not: it names no real destination today.
 */
const NASTY_ADDRESSES: [string, RegExp][] = [
  ["::7f00:1", /IPv4-compatible/],
  ["::127.0.0.1", /IPv4-compatible/],
  ["::808:808", /IPv4-compatible/],
  ["::8.8.8.8", /IPv4-compatible/],
  ["::a9fe:a9fe", /IPv4-compatible/],
  ["0:0:0:0:0:0:127.0.0.1", /IPv4-compatible/],
  ["::ffff:7f00:1", /loopback/],
  ["::ffff:0:7f00:1", /IPv4-translated/],
  ["64:ff9b::7f00:1", /NAT64.*loopback/],
  ["64:ff9b::a00:1", /NAT64.*private/],
  ["64:ff9b::a9fe:a9fe", /NAT64.*cloud metadata/],
  ["64:ff9b:1::a9fe:a9fe", /NAT64/],
  ["2002:7f00:1::1", /6to4/],
  ["2002:808:808::1", /6to4/],
  ["2001:0:4136:e378:8000:63bf:3fff:fdd2", /Teredo/],
  ["::", /unspecified/],
  ["::1", /loopback/],
  ["0:0:0:0:0:0:0:1", /loopback/],
  ["fe80::1", /link-local/],
  ["fe80::1%eth0", /network interface/],
  ["fe80::1%25eth0", /network interface/],
  ["fec0::1", /site-local/],
  ["fc00::1", /unique-local/],
  ["fd12:3456::1", /unique-local/],
  ["ff02::1", /multicast/],
  ["100::1", /reserved|discard/],
  ["2001:db8::1", /reserved|documentation/],
  ["::1:0:0:0", /reserved/],
  ["4000::1", /reserved/],
  ["0.0.0.0", /unspecified/],
  ["127.1", /not an IP address/],
  ["0x7f.0.0.1", /not an IP address/],
  ["017700000001", /not an IP address/],
  ["1.2.3.4.5", /not an IP address/],
  ["::ffff:1.2.3.256", /not an IP address/],
  ["fe80::1%", /not an IP address|network interface/],
  ["", /not an IP address/],
  ["[]", /not an IP address/],
];

describe("every address form is classified without throwing", () => {
  it.each(NASTY_ADDRESSES)("refuses %s with a reason", (address, reason) => {
    expect(blockedAddressReason(address)).toMatch(reason);
  });

  it("lets a public address through in its NAT64 form", () => {
    expect(blockedAddressReason("64:ff9b::808:808")).toBeNull();
    expect(blockedAddressReason("64:ff9b::8.8.8.8")).toBeNull();
  });

  it("never throws, whatever 16 bytes an IPv6 answer holds or whatever text it is", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 }), (parts) => {
        const reason = blockedAddressReason(parts.map((p) => p.toString(16)).join(":"));
        expect(reason === null || typeof reason === "string").toBe(true);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."0123456789abcdef:.%[]fx"), maxLength: 45 }), (text) => {
        const reason = blockedAddressReason(text);
        expect(reason === null || typeof reason === "string").toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("refuses every IPv6 address outside the global unicast block 2000::/3, but for the IPv4-mapped public ones", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 }), (parts) => {
        fc.pre((parts[0] & 0xe000) !== 0x2000 && !(parts[0] === 0x64 && parts[1] === 0xff9b));
        fc.pre(!parts.slice(0, 5).every((p) => p === 0) || parts[5] !== 0xffff);
        expect(blockedAddressReason(parts.map((p) => p.toString(16)).join(":"))).not.toBeNull();
      }),
      { numRuns: 2000 },
    );
  });
});

describe("parseAllowHosts", () => {
  it("reads a comma list of host:port entries", () => {
    expect(parseAllowHosts(" 127.0.0.1:4010, [::1]:4011 ,Store.Test:8080,")).toEqual(["127.0.0.1:4010", "::1:4011", "store.test:8080"]);
    expect(parseAllowHosts("")).toEqual([]);
    expect(parseAllowHosts(undefined)).toEqual([]);
  });
  it("refuses an entry without a port", () => {
    expect(() => parseAllowHosts("127.0.0.1")).toThrow(/host:port/);
    expect(() => parseAllowHosts("127.0.0.1:99999")).toThrow(/host:port/);
  });
});

describe("the SSRF guard on real connections", () => {
  it("refuses 127.0.0.1 unless its host:port is allow-listed, and then reaches it", async () => {
    const s = await withServer((_req, res) => res.end("hello"));
    const refused = await failure(fetcher().fetch(`http://127.0.0.1:${s.port}/`));
    expect(refused.kind).toBe("refused");
    expect(refused.message).toMatch(/loopback/);
    expect(s.requests).toHaveLength(0);

    const res = await fetcher({ allowHosts: [`127.0.0.1:${s.port}`] }).fetch(`http://127.0.0.1:${s.port}/`);
    expect(res.status).toBe(200);
    expect(res.text()).toBe("hello");
  });

  it("refuses a host name whose DNS answer is private, before connecting", async () => {
    const s = await withServer((_req, res) => res.end("secret"));
    for (const answer of ["127.0.0.1", "::ffff:127.0.0.1", "10.0.0.5", "169.254.169.254", "fd00:ec2::254"]) {
      const lookup: HostLookup = async () => [{ address: answer, family: answer.includes(":") ? 6 : 4 }];
      const err = await failure(fetcher({ lookup }).fetch(`http://store.test:${s.port}/`));
      expect(err.kind, answer).toBe("refused");
    }
    expect(s.requests).toHaveLength(0);
  });

  it("refuses a DNS answer in any of the nasty forms with a sentence, and nothing escapes the lookup", async () => {
    const s = await withServer((_req, res) => res.end("secret"));
    for (const [answer, reason] of NASTY_ADDRESSES) {
      const lookup: HostLookup = async () => [{ address: answer, family: answer.includes(":") ? 6 : 4 }];
      const err = await failure(fetcher({ lookup, timeoutMs: 2_000 }).fetch(`http://store.test:${s.port}/`));
      expect(err.kind, answer).toBe("refused");
      expect(err.message, answer).toMatch(/^Refused to connect to store\.test\b.*: (it is|its DNS answer) .*\.$/);
      expect(err.message, answer).toMatch(reason);
    }
    expect(s.requests).toHaveLength(0);
  });

  it("turns a resolver that throws, or answers garbage, into a failed fetch rather than a crash", async () => {
    const throwing: HostLookup = () => {
      throw new Error("resolver bug");
    };
    const garbage = (async () => [{ address: 42, family: 4 }]) as unknown as HostLookup;
    expect((await failure(fetcher({ lookup: throwing, timeoutMs: 2_000 }).fetch("http://store.test:81/"))).kind).toBe("unreachable");
    const refused = await failure(fetcher({ lookup: garbage, timeoutMs: 2_000 }).fetch("http://store.test:81/"));
    expect(refused.kind).toBe("refused");
    expect(refused.message).toBe("Refused to connect to store.test: its DNS answer (42) is not an IP address.");
  });

  it("refuses a redirect to an IPv4-compatible literal (http://[::127.0.0.1]/) as a refused fetch, and its callers say so", async () => {
    const inside = await withServer((_req, res) => res.end("internal"));
    const s = await withServer((req, res) => {
      res.writeHead(302, { location: `http://[::127.0.0.1]:${inside.port}${req.url}` });
      res.end();
    });
    const f = fetcher({ lookup: toLoopback, allowHosts: [`127.0.0.1:${s.port}`], timeoutMs: 2_000 });
    const err = await failure(f.fetch(`http://store.test:${s.port}/logo.png`));
    expect(err.kind).toBe("refused");
    expect(err.url).toBe(`http://[::7f00:1]:${inside.port}/logo.png`);
    expect(err.message).toMatch(/IPv4-compatible/);

    const image = createImageFetcher({ fetcher: f });
    const imageError = await image.fetch(`http://store.test:${s.port}/picture.png`).catch((e: unknown) => e);
    expect(imageError).toBeInstanceOf(ImageFetchError);
    expect((imageError as Error).message).toMatch(/^Refused to connect to/);

    const storefront = createShopifyStorefront({ fetcher: f, protocol: "http:" });
    const probe = await storefront.probe(`store.test:${s.port}`);
    expect(probe).toMatchObject({ ok: false, reason: "refused" });
    expect(inside.requests).toHaveLength(0);
  });

  it("refuses a DNS answer that mixes a public and a private address (rebinding)", async () => {
    const lookup: HostLookup = async () => [
      { address: "23.227.38.65", family: 4 },
      { address: "127.0.0.1", family: 4 },
    ];
    expect((await failure(fetcher({ lookup }).fetch("http://store.test:81/"))).kind).toBe("refused");
  });

  it("lets an allow-listed address through for a test host name, and only on that port", async () => {
    const s = await withServer((req, res) => res.end(`host=${req.headers.host}`));
    const f = fetcher({ lookup: toLoopback, allowHosts: [`127.0.0.1:${s.port}`] });
    const res = await f.fetch(`http://store.test:${s.port}/x`);
    expect(res.text()).toBe(`host=store.test:${s.port}`);
    expect((await failure(f.fetch(`http://store.test:${s.port + 1}/x`))).kind).toBe("refused");
  });

  it("checks every redirect hop: to another loopback port, to cloud metadata, to a name resolving to it", async () => {
    const other = await withServer((_req, res) => res.end("internal"));
    const lookup: HostLookup = async (name) =>
      name === "metadata.test" ? [{ address: "169.254.169.254", family: 4 }] : [{ address: "127.0.0.1", family: 4 }];
    const targets = [
      `http://127.0.0.1:${other.port}/admin`,
      "http://169.254.169.254/latest/meta-data/iam/security-credentials/",
      "http://[fd00:ec2::254]/latest/meta-data/",
      "http://[::ffff:127.0.0.1]:80/",
      "http://metadata.test/computeMetadata/v1/",
    ];
    const s = await withServer((req, res) => {
      const i = Number(new URL(req.url ?? "/", "http://x").searchParams.get("i"));
      res.writeHead(302, { location: targets[i] });
      res.end();
    });
    const f = fetcher({ lookup, allowHosts: [`127.0.0.1:${s.port}`] });
    for (let i = 0; i < targets.length; i++) {
      const err = await failure(f.fetch(`http://store.test:${s.port}/go?i=${i}`));
      expect(err.kind, targets[i]).toBe("refused");
      expect(err.url).toBe(new URL(targets[i]).toString());
    }
    expect(other.requests).toHaveLength(0);
  });

  it("refuses non-http schemes, in the first URL or a redirect", async () => {
    const s = await withServer((_req, res) => {
      res.writeHead(301, { location: "file:///etc/passwd" });
      res.end();
    });
    const f = fetcher({ allowHosts: [`127.0.0.1:${s.port}`] });
    expect((await failure(f.fetch(`http://127.0.0.1:${s.port}/`))).kind).toBe("refused");
    expect((await failure(f.fetch("ftp://store.test/x"))).kind).toBe("refused");
    expect((await failure(f.fetch("gopher://store.test/x"))).kind).toBe("refused");
    expect((await failure(f.fetch("not a url"))).kind).toBe("invalid-url");
  });

  it("says unreachable when the name does not resolve or nothing listens", async () => {
    const none: HostLookup = async () => [];
    expect((await failure(fetcher({ lookup: none }).fetch("http://nowhere.test/"))).kind).toBe("unreachable");
    const s = await withServer((_req, res) => res.end());
    const port = s.port;
    await s.close();
    cleanups.pop();
    expect((await failure(fetcher({ allowHosts: [`127.0.0.1:${port}`] }).fetch(`http://127.0.0.1:${port}/`))).kind).toBe("unreachable");
  });
});

describe("limits and politeness", () => {
  it("follows redirects up to the limit, then stops", async () => {
    const s = await withServer((req, res) => {
      const n = Number(new URL(req.url ?? "/", "http://x").searchParams.get("n"));
      res.writeHead(302, { location: `/hop?n=${n + 1}` });
      res.end();
    });
    const f = fetcher({ allowHosts: [`127.0.0.1:${s.port}`], maxRedirects: 3 });
    const err = await failure(f.fetch(`http://127.0.0.1:${s.port}/hop?n=0`));
    expect(err.kind).toBe("too-many-redirects");
    expect(s.requests).toHaveLength(4);
  });

  it("reports the final URL and every hop of a followed redirect", async () => {
    const s = await withServer((req, res) => {
      if (req.url === "/a") {
        res.writeHead(301, { location: "/b" });
        return res.end();
      }
      res.end("at b");
    });
    const res = await fetcher({ allowHosts: [`127.0.0.1:${s.port}`] }).fetch(`http://127.0.0.1:${s.port}/a`);
    expect(res.url).toBe(`http://127.0.0.1:${s.port}/b`);
    expect(res.hops).toEqual([`http://127.0.0.1:${s.port}/a`, `http://127.0.0.1:${s.port}/b`]);
    expect(res.text()).toBe("at b");
  });

  it("times out an answer slower than the total timeout", async () => {
    const s = await withServer((_req, res) => {
      const t = setTimeout(() => res.end("late"), 5_000);
      res.on("close", () => clearTimeout(t));
    });
    const err = await failure(fetcher({ allowHosts: [`127.0.0.1:${s.port}`], timeoutMs: 200 }).fetch(`http://127.0.0.1:${s.port}/`));
    expect(err.kind).toBe("timeout");
  });

  it("times out a body that trickles past the total timeout", async () => {
    const s = await withServer((_req, res) => {
      res.writeHead(200);
      res.write("{");
      const t = setTimeout(() => res.end("}"), 5_000);
      res.on("close", () => clearTimeout(t));
    });
    const err = await failure(fetcher({ allowHosts: [`127.0.0.1:${s.port}`], timeoutMs: 200 }).fetch(`http://127.0.0.1:${s.port}/`));
    expect(err.kind).toBe("timeout");
  });

  it("stops reading an endless body at the cap and hangs up, so memory stays bounded", async () => {
    let written = 0;
    let clientGone = false;
    const s = await withServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      res.on("close", () => (clientGone = true));
      const pump = () => {
        while (!clientGone) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
      };
      pump();
    });
    const cap = 1024 * 1024;
    const err = await failure(fetcher({ allowHosts: [`127.0.0.1:${s.port}`], maxBytes: cap }).fetch(`http://127.0.0.1:${s.port}/`));
    expect(err.kind).toBe("too-large");
    await new Promise((r) => setTimeout(r, 50));
    expect(clientGone).toBe(true);
    // The server could only push what socket buffers held beyond the cap before we hung up.
    expect(written).toBeLessThan(cap + 16 * 1024 * 1024);
  });

  it("refuses a declared Content-Length over the cap without reading it", async () => {
    const s = await withServer((_req, res) => {
      res.writeHead(200, { "content-length": String(50 * 1024 * 1024) });
      res.write("x");
    });
    const err = await failure(fetcher({ allowHosts: [`127.0.0.1:${s.port}`], maxBytes: 1024 }).fetch(`http://127.0.0.1:${s.port}/`));
    expect(err.kind).toBe("too-large");
  });

  it("decodes gzip, and counts the decompressed bytes against the cap (a gzip bomb stops)", async () => {
    const json = JSON.stringify({ products: [{ id: 1, title: "Zipped" }] });
    const bomb = gzipSync(Buffer.alloc(40 * 1024 * 1024, 0x20));
    const s = await withServer((req, res) => {
      const body = req.url === "/bomb" ? bomb : gzipSync(json);
      res.writeHead(200, { "content-encoding": "gzip", "content-length": body.length });
      res.end(body);
    });
    const f = fetcher({ allowHosts: [`127.0.0.1:${s.port}`], maxBytes: 1024 * 1024 });
    const res = await f.fetch(`http://127.0.0.1:${s.port}/ok`);
    expect(res.text()).toBe(json);
    expect(s.requests[0].headers["accept-encoding"]).toMatch(/gzip/);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect((await failure(f.fetch(`http://127.0.0.1:${s.port}/bomb`))).kind).toBe("too-large");
  });

  it("names itself with a contact URL and never sends cookies or credentials", async () => {
    const s = await withServer((_req, res) => {
      res.writeHead(200, { "set-cookie": "session=abc; Path=/" });
      res.end("ok");
    });
    const f = fetcher({ allowHosts: [`127.0.0.1:${s.port}`], contactUrl: "https://example.test/about-our-bot" });
    await f.fetch(`http://127.0.0.1:${s.port}/1`, { headers: { cookie: "mine=1", authorization: "Bearer x", accept: "application/json" } });
    await f.fetch(`http://127.0.0.1:${s.port}/2`);
    for (const req of s.requests) {
      expect(req.headers["user-agent"]).toBe("WinningProductsStoreTracker/1.0 (+https://example.test/about-our-bot)");
      expect(req.headers.cookie).toBeUndefined();
      expect(req.headers.authorization).toBeUndefined();
    }
    expect(s.requests[0].headers.accept).toBe("application/json");
    expect((await failure(f.fetch(`http://user:pass@127.0.0.1:${s.port}/`))).kind).toBe("refused");
  });
});
