// The production server (server/index.mjs) against the production build, over real sockets: request
// bodies over the cap are refused with 413 without being read (whatever the path or method, with a
// Content-Length or chunked), memory stays flat under 50 MB bodies, and a body a handler ignored does
// not block the next request on a kept-alive connection (server/body-limit.mjs, docs/decisions/017).
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureProductionBuild, startServer, type RunningServer } from "../../helpers/production-server";

const MB = 1024 * 1024;

/** Resident memory of a process in MB (what the kernel, and an out-of-memory killer, counts). */
function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kb) / 1024;
}

type RawAnswer = {
  status: number;
  headers: Record<string, string>;
  body: string;
  sentBeforeAnswer: number;
  sent: number;
};

/** Whether `text` holds one whole HTTP response (framed by Content-Length or chunked). */
function parseAnswer(text: string): { status: number; headers: Record<string, string>; body: string } | undefined {
  const end = text.indexOf("\r\n\r\n");
  if (end < 0) return undefined;
  const [statusLine, ...lines] = text.slice(0, end).split("\r\n");
  const headers = Object.fromEntries(
    lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
  );
  const rest = text.slice(end + 4);
  let body: string | undefined;
  if (headers["content-length"] !== undefined) {
    if (rest.length >= Number(headers["content-length"])) body = rest.slice(0, Number(headers["content-length"]));
  } else if (headers["transfer-encoding"] === "chunked" && rest.endsWith("0\r\n\r\n")) {
    body = "";
    for (let at = 0; ;) {
      const size = Number.parseInt(rest.slice(at, rest.indexOf("\r\n", at)), 16);
      if (!size) break;
      at = rest.indexOf("\r\n", at) + 2;
      body += rest.slice(at, at + size);
      at += size + 2;
    }
  }
  return body === undefined ? undefined : { status: Number(statusLine.split(" ")[1]), headers, body };
}

/**
 * A request over a plain socket whose body (`size` bytes) is streamed in 64 KB pieces, with a
 * Content-Length or chunked. The client stops sending once an answer starts to arrive, as a client that
 * reads answers early does, and resolves with the answer once it is whole or the connection closed.
 * With `continueAfterAnswer` it then sends the rest of the body, until all is sent or the server closes
 * the connection (`sent` tells how far it got). The body is declared as a form for /signup, JSON elsewhere.
 */
function streamBody(
  port: number,
  method: string,
  target: string,
  size: number,
  framing: "length" | "chunked",
  {
    continueAfterAnswer = false,
    contentType = target === "/signup" ? "application/x-www-form-urlencoded" : "application/json",
  } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const received: Buffer[] = [];
    const piece = Buffer.alloc(64 * 1024, "a");
    let sent = 0;
    let sentBeforeAnswer = -1;
    let resumed = false;
    let done = false;
    const answerSoFar = () => parseAnswer(Buffer.concat(received).toString("latin1"));
    const finish = () => {
      if (done) return;
      done = true;
      socket.destroy();
      const answer = answerSoFar();
      if (!answer)
        return reject(
          new Error(
            `no whole HTTP answer (sent ${sent} bytes): ${JSON.stringify(Buffer.concat(received).toString("latin1").slice(0, 300))}`,
          ),
        );
      resolve({ ...answer, sentBeforeAnswer, sent });
    };
    const pump = () => {
      while (sent < size && (resumed || sentBeforeAnswer < 0) && !socket.destroyed) {
        const n = Math.min(piece.length, size - sent);
        const data =
          framing === "length"
            ? piece.subarray(0, n)
            : Buffer.concat([Buffer.from(`${n.toString(16)}\r\n`), piece.subarray(0, n), Buffer.from("\r\n")]);
        sent += n;
        if (!socket.write(data)) return void socket.once("drain", pump);
      }
      if (sent < size || socket.destroyed) return;
      if (framing === "chunked") socket.write("0\r\n\r\n");
      if (answerSoFar()) finish();
    };
    socket.on("data", (data) => {
      if (sentBeforeAnswer < 0) sentBeforeAnswer = sent;
      received.push(data);
      if (!answerSoFar() || resumed) return;
      if (!continueAfterAnswer || sent >= size) return finish();
      resumed = true;
      pump();
    });
    socket.on("error", () => {}); // EPIPE / ECONNRESET once the server has answered and closed: expected
    socket.on("close", finish);
    socket.once("connect", () => {
      const framingHeader = framing === "length" ? `Content-Length: ${size}` : "Transfer-Encoding: chunked";
      socket.write(
        `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${contentType}\r\n${framingHeader}\r\n\r\n`,
      );
      pump();
    });
  });
}

type Answer = { status: number; body: string; socket: net.Socket; reusedSocket: boolean };

/** One request through a keep-alive agent; the socket it went over is part of the answer. */
function send(
  agent: http.Agent,
  port: number,
  method: string,
  target: string,
  body?: Buffer,
  framing: "length" | "chunked" = "length",
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { "Content-Type": "application/json" };
    if (body) {
      // Explicit for chunked: Node sends a GET's body unframed unless told.
      if (framing === "length") headers["Content-Length"] = body.length;
      else headers["Transfer-Encoding"] = "chunked";
    }
    const req = http.request({ agent, host: "127.0.0.1", port, method, path: target, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (text += d));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          body: text,
          socket: req.socket as net.Socket,
          reusedSocket: req.reusedSocket,
        }),
      );
    });
    req.on("error", reject);
    if (body && framing === "chunked") {
      for (let at = 0; at < body.length; at += 64 * 1024) req.write(body.subarray(at, at + 64 * 1024));
    }
    req.end(body && framing === "length" ? body : undefined);
  });
}

const TOO_LARGE = { error: "The request body is larger than 1 MB." };

let server: RunningServer;
/** The same server with MAX_BODY_BYTES=4096. */
let small: RunningServer;

beforeAll(async () => {
  ensureProductionBuild();
  [server, small] = await Promise.all([startServer(), startServer({ MAX_BODY_BYTES: "4096" })]);
}, 180_000);

afterAll(async () => {
  await Promise.all([server?.stop(), small?.stop()]);
});

describe("bodies over the 1 MB cap", () => {
  it.each([
    ["with a Content-Length is refused with 413 before it is sent", "length", "/signup"],
    ["sent chunked is cut at the cap while it streams and answered 413", "chunked", "/api/analytics"],
  ] as const)("a 50 MB body %s, and memory stays flat", async (_how, framing, otherRoute) => {
    const before = rssMb(server.pid);
    const answers = await Promise.all([
      streamBody(server.port, "POST", "/webhooks/paddle", 50 * MB, framing),
      streamBody(server.port, "POST", otherRoute, 50 * MB, framing),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toEqual(TOO_LARGE);
      expect(answer.headers["connection"]).toBe("close");
      expect(answer.headers["content-type"]).toMatch(/^application\/json/);
      // Answered from the headers (length) or at the cap (chunked): most of the body had not left the client.
      expect(answer.sentBeforeAnswer).toBeLessThan(25 * MB);
    }
    expect(rssMb(server.pid) - before).toBeLessThan(30);
  });

  it.each([
    ["POST", "/api/analytics", "length"],
    ["POST", "/signup", "chunked"],
    ["PUT", "/api/product-pages/anything", "length"],
    ["PATCH", "/api/ai-ads/anything", "length"],
    ["DELETE", "/api/stores/example.myshopify.com/disconnect", "length"],
    ["GET", "/healthz", "length"], // a fast route (server/fast-routes.mjs)
    ["GET", "/favicon.svg", "length"], // a static file
  ] as const)("a 2 MB body to %s %s (%s) gets 413", async (method, target, framing) => {
    const answer = await streamBody(server.port, method, target, 2 * MB, framing);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual(TOO_LARGE);
    expect(answer.headers["connection"]).toBe("close");
  });

  it.each(["length", "chunked"] as const)(
    "a form just under the cap reaches the route whole (%s): sign-up creates the account",
    async (framing) => {
      const email = `limits-${framing}-${randomBytes(4).toString("hex")}@example.com`;
      const form = new URLSearchParams({ email, password: "correct horse battery", note: "a".repeat(MB - 200) });
      const bytes = new TextEncoder().encode(form.toString());
      expect(bytes.length).toBeLessThan(MB);
      // A stream body is sent chunked, in pieces, as a browser streams an upload.
      const body =
        framing === "length"
          ? bytes
          : new ReadableStream<Uint8Array>({
              start(controller) {
                for (let at = 0; at < bytes.length; at += 100_000) controller.enqueue(bytes.subarray(at, at + 100_000));
                controller.close();
              },
            });
      const signup = await fetch(`http://127.0.0.1:${server.port}/signup`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body,
        redirect: "manual",
        ...(framing === "chunked" ? { duplex: "half" } : {}),
      } as RequestInit);
      expect(signup.status).toBe(302);
      const cookie = signup.headers.get("set-cookie")?.split(";")[0] ?? "";
      const me = await fetch(`http://127.0.0.1:${server.port}/api/me`, { headers: { cookie } });
      expect(me.status).toBe(200);
      expect((await me.json()).email).toBe(email);
    },
  );

  it("a body just under the cap still reaches the route", async () => {
    // /api/analytics answers 400 to a body that is not an event: it was read, not refused for its size.
    const answer = await streamBody(server.port, "POST", "/api/analytics", MB - 1, "length");
    expect(answer.status).toBe(400);
  });
});

describe("keep-alive after a body the route did not read", () => {
  it.each([
    ["POST", "/api/me", "length"],
    ["POST", "/api/me", "chunked"],
    ["POST", "/api/paddle-api/previewPrices", "length"],
    ["POST", "/api/paddle-api/previewPrices", "chunked"],
    ["POST", "/auth/google", "length"],
    ["GET", "/healthz", "chunked"], // a fast route
    ["GET", "/favicon.svg", "chunked"], // a static file
  ] as const)(
    "%s %s with 500 KB (%s): the next request on the same connection is answered",
    async (method, target, framing) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const first = await send(agent, server.port, method, target, Buffer.alloc(500 * 1024, "a"), framing);
        expect(first.status).not.toBe(413); // answered by the route (most without reading the body)
        const second = await send(agent, server.port, "GET", "/healthz");
        expect(second.reusedSocket).toBe(true);
        expect(second.socket).toBe(first.socket);
        expect(second.status).toBe(200);
        expect(JSON.parse(second.body)).toEqual({ ok: true });
      } finally {
        agent.destroy();
      }
    },
  );

  // Concurrent: each waits for the server to close the connection (server/body-limit.mjs LINGER_MS).
  it.concurrent.each([
    ["POST", "/api/me", 405], // Remix's handler
    ["GET", "/healthz", 200], // a fast route
    ["GET", "/favicon.svg", 200], // a static file
  ] as const)(
    "a chunked body to %s %s that runs past the cap after the answer is not drained: the connection is closed",
    async (method, target, status) => {
      const answer = await streamBody(server.port, method, target, 50 * MB, "chunked", { continueAfterAnswer: true });
      expect(answer.status).toBe(status); // the route's own answer, given before the body was read
      // The server stopped reading about 1 MB after the answer and closed: the client could not send it all.
      expect(answer.sent).toBeLessThan(25 * MB);
    },
  );

  it("does not report handlers cut off by the cap as server errors", () => {
    expect(server.output()).not.toMatch(/unhandled error|ERR_HTTP_HEADERS_SENT|Unexpected Server Error/);
  });
});

describe("MAX_BODY_BYTES", () => {
  it("sets the cap and the sentence that states it", async () => {
    const over = await streamBody(small.port, "POST", "/api/analytics", 5000, "length");
    expect(over.status).toBe(413);
    expect(JSON.parse(over.body)).toEqual({ error: "The request body is larger than 4 KB." });
    const under = await streamBody(small.port, "POST", "/api/analytics", 4000, "length");
    expect(under.status).toBe(400);
  });
});
