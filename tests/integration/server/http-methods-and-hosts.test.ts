// What the production server (node server/index.mjs) answers a method it does not serve, and a form post whose Host
// is spelled otherwise than the address in its Origin (decision 080). Both used to be 500s: undici's Request refuses
// TRACE (and CONNECT, TRACK), and Remix's own cross-site check compares the Origin's host with the Host header as
// strings, after our guard (app/pages/http/origin-guard.server.ts) had accepted the Origin as APP_URL's.
import { randomBytes } from "node:crypto";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CROSS_SITE_MESSAGE } from "~/pages/http/origin-guard.server";
import { GENERIC_LOGIN_ERROR } from "~/services/accounts/auth.server";
import { ensureProductionBuild, rawRequest, startServer, type RunningServer } from "../../helpers/production-server";

let server: RunningServer;
let origin: string;

beforeAll(async () => {
  ensureProductionBuild();
  // APP_URL on localhost, as `npm start` sets it; the requests below reach it as 127.0.0.1.
  server = await startServer((port) => ({ JOBS_WORKER: "off", APP_URL: `http://localhost:${port}` }));
  origin = `http://localhost:${server.port}`;
}, 300_000);

afterAll(async () => {
  await server?.stop();
});

/** Bytes written to a socket of their own; the answer as text, read until the server closes the connection. */
function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(text));
    let answer = "";
    socket.setEncoding("latin1");
    socket.on("data", (d: string) => (answer += d));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no answer to ${JSON.stringify(text.split("\r\n")[0])}`)));
  });
}

const SERVED = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";
const PATHS = [
  "/",
  "/login",
  "/pay?plan=starter",
  "/dashboard",
  "/api/products",
  "/api/v1/products",
  "/mcp",
  "/healthz",
  "/favicon.ico",
  "/assets/none.js",
  "/webhooks/paddle",
  "/no/such/page",
];

describe("a method the server does not serve", () => {
  it.each(["TRACE", "PROPFIND", "PROPPATCH", "MKCOL", "LOCK", "SEARCH", "QUERY", "PURGE", "M-SEARCH"])(
    "%s on any path is 405 with an Allow header and a sentence naming it, never a 500",
    async (method) => {
      for (const path of PATHS) {
        const res = await rawRequest(server.port, { path, method, headers: { host: `localhost:${server.port}` } });
        expect({ path, status: res.status }).toEqual({ path, status: 405 });
        expect(res.headers.allow).toBe(SERVED);
        expect(JSON.parse(res.body.toString())).toEqual({
          error: `This server does not answer ${method} requests. Use one of ${SERVED}.`,
        });
      }
    },
  );

  it("CONNECT (a proxy tunnel) is 405 with the sentence, instead of a connection closed without an answer", async () => {
    const answer = await rawExchange(server.port, `CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
    expect(answer).toContain(`Allow: ${SERVED}\r\n`);
    expect(answer).toContain(`This server does not answer CONNECT requests. Use one of ${SERVED}.`);
  });

  it.each(["TRACK", "FROBNICATE", "DEBUG"])(
    "%s, a method Node does not know, is 501 with the sentence",
    async (method) => {
      const answer = await rawExchange(server.port, `${method} / HTTP/1.1\r\nHost: localhost\r\n\r\n`);
      expect(answer).toMatch(/^HTTP\/1\.1 501 Not Implemented\r\n/);
      expect(answer).toContain(`Allow: ${SERVED}\r\n`);
      expect(answer).toContain(`This server does not answer this request's method. Use one of ${SERVED}.`);
    },
  );

  it("the methods it serves are answered as before, and the server still serves after the refusals", async () => {
    expect((await rawRequest(server.port, { path: "/healthz" })).status).toBe(200);
    expect((await rawRequest(server.port, { path: "/healthz", method: "HEAD" })).status).toBe(200);
    const options = await rawRequest(server.port, {
      path: "/api/v1/products",
      method: "OPTIONS",
      headers: { origin: "https://elsewhere.example" },
    });
    expect(options.status).toBeLessThan(500);
    // Malformed requests Node refuses itself keep Node's answers.
    expect(await rawExchange(server.port, "GET / HTTP/1.1\r\nHost: a\r\nBad Header\r\n\r\n")).toMatch(
      /^HTTP\/1\.1 400 Bad Request\r\n/,
    );
  });
});

/** A login form post (a wrong password) sent from `from`, to the server reached under `host`. */
function loginPost(host: string, from: string, extra: Record<string, string> = {}, path = "/login") {
  return rawRequest(server.port, {
    path,
    method: "POST",
    headers: { host, origin: from, "content-type": "application/x-www-form-urlencoded", ...extra },
    // A new address each time: failed logins for one address are limited (429).
    body: `email=nobody-${randomBytes(4).toString("hex")}%40example.test&password=not-the-password`,
  });
}

describe("a form post whose Origin is APP_URL's but whose Host is spelled otherwise", () => {
  const hosts = () => [
    `LOCALHOST:${server.port}`,
    `127.0.0.1:${server.port}`,
    `localhost.:${server.port}`,
    `Localhost:${server.port}`,
  ];

  it("is judged by its Origin: the login form answers it as it answers the exact spelling", async () => {
    const exact = await loginPost(`localhost:${server.port}`, origin);
    expect(exact.status).toBe(401);
    const sentence = GENERIC_LOGIN_ERROR.replace(/'/g, "&#x27;");
    expect(exact.body.toString()).toContain(sentence);
    for (const host of hosts()) {
      const res = await loginPost(host, origin);
      expect({ host, status: res.status }).toEqual({ host, status: exact.status });
      expect(res.body.toString()).toContain(sentence);
    }
  });

  it("behind a proxy that rewrites Host (or forwards it in another spelling) too", async () => {
    for (const forwarded of [`LOCALHOST:${server.port}`, `localhost.:${server.port}`]) {
      const res = await loginPost(`127.0.0.1:${server.port}`, origin, { "x-forwarded-host": forwarded });
      expect({ forwarded, status: res.status }).toEqual({ forwarded, status: 401 });
    }
  });

  it("the single-fetch form of the post (/login.data), /pay and the signed-in pages' forms: never a 500 or a 403", async () => {
    const paths = [
      "/login.data",
      "/signup",
      "/forgot-password",
      "/pay?plan=starter&billing=monthly",
      "/dashboard/account",
      "/dashboard/saved",
      "/dashboard/feedback",
      "/logout",
    ];
    for (const path of paths) {
      for (const host of hosts()) {
        const res = await loginPost(host, origin, {}, path);
        expect({ path, host, ok: res.status < 500 && res.status !== 403 }).toEqual({ path, host, ok: true });
      }
    }
  });

  it("an Origin that is not ours gets the one cross-site 403 sentence, whatever the Host says", async () => {
    for (const [host, from] of [
      [`localhost:${server.port}`, "https://evil.example"],
      [`LOCALHOST:${server.port}`, `http://localhost:${server.port + 1}`],
      [`127.0.0.1:${server.port}`, "https://localhost.evil.example"],
      [`evil.example`, "https://evil.example.:443"],
      [`localhost:${server.port}`, "null"],
      [`localhost:${server.port}`, "not a url"],
    ]) {
      for (const path of ["/login", "/login.data", "/dashboard/account"]) {
        const res = await loginPost(host, from, {}, path);
        expect({ host, from, path, status: res.status }).toEqual({ host, from, path, status: 403 });
        expect(JSON.parse(res.body.toString())).toEqual({ error: CROSS_SITE_MESSAGE });
      }
    }
  });

  it("a Host that cannot name a server is 400 with a sentence, not a 500", async () => {
    for (const host of ["exa mple.com", "a/b", "[::1", "localhost:99999"]) {
      for (const method of ["GET", "POST"]) {
        const res = await rawRequest(server.port, {
          path: "/login",
          method,
          headers: { host, ...(method === "POST" ? { origin } : {}) },
        });
        expect({ host, method, status: res.status }).toEqual({ host, method, status: 400 });
        expect(JSON.parse(res.body.toString())).toEqual({
          error: "The Host header does not name a server this request could be for.",
        });
      }
    }
  });
});
