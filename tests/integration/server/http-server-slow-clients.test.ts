// The production server (server/index.mjs over server/http-guards.mjs) against clients that hold sockets:
// a request whose body or headers trickle in is answered 408 and its socket closed once REQUEST_TIMEOUT_MS
// or HEADERS_TIMEOUT_MS has passed (shortened here), instead of after Node's 300 s; and one address opening
// more than MAX_CONNECTIONS_PER_CLIENT sockets gets 429 on the extra ones, served again once one closes
// (docs/decisions/039).
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureProductionBuild, startServer, type RunningServer } from "../../helpers/production-server";

let slow: RunningServer;
let capped: RunningServer;

beforeAll(async () => {
  ensureProductionBuild();
  [slow, capped] = await Promise.all([
    startServer({ REQUEST_TIMEOUT_MS: "1500", HEADERS_TIMEOUT_MS: "1000" }),
    startServer({ MAX_CONNECTIONS_PER_CLIENT: "4" }),
  ]);
}, 180_000);

afterAll(async () => {
  await Promise.all([slow?.stop(), capped?.stop()]);
});

type Trickled = { answer: string; sent: number; closedByServer: boolean };

/**
 * Sends `head` and then `body` one byte every 50 ms over a plain socket, until the server closes the
 * connection or everything is sent (a 1,000-byte body takes 50 s: far past the shortened timeouts).
 */
function trickle(port: number, head: string, body: string, { headByteByByte = false } = {}): Promise<Trickled> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    const toTrickle = headByteByByte ? head + body : body;
    let answer = "";
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.on("data", (d) => (answer += d.toString("latin1")));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearInterval(timer);
      resolve({ answer, sent, closedByServer: sent < toTrickle.length });
    });
    socket.once("connect", () => {
      if (!headByteByByte) socket.write(head);
      timer = setInterval(() => {
        if (sent >= toTrickle.length || socket.destroyed) return void clearInterval(timer);
        socket.write(toTrickle[sent++]);
      }, 50);
    });
  });
}

describe("a request that trickles in", () => {
  it("a body sent a byte at a time is answered 408 and its socket closed at the request timeout", async () => {
    const body = JSON.stringify({ padding: "x".repeat(1000) });
    const head =
      `POST /api/analytics HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${body.length}\r\n\r\n`;
    const result = await trickle(slow.port, head, body);
    expect(result.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(result.closedByServer).toBe(true);
    expect(result.sent).toBeLessThan(body.length);
  }, 30_000);

  it("headers sent a byte at a time are answered 408 and the socket closed at the headers timeout", async () => {
    const head = `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${"y".repeat(1000)}\r\n\r\n`;
    const result = await trickle(slow.port, head, "", { headByteByByte: true });
    expect(result.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(result.closedByServer).toBe(true);
  }, 30_000);

  it("a request sent whole is served as before", async () => {
    const response = await fetch(`http://127.0.0.1:${slow.port}/healthz`);
    expect(response.status).toBe(200);
  });
});

/** A socket holding a request in flight: a POST that asked `Expect: 100-continue`, got it, and sends nothing more. */
function holdRequest(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.on("error", reject);
    socket.once("data", (d) => {
      // The server answered, so it has taken the connection.
      if (d.toString("latin1").startsWith("HTTP/1.1 100 ")) resolve(socket);
      else reject(new Error(`expected 100 Continue, got ${JSON.stringify(d.toString("latin1").slice(0, 80))}`));
    });
    socket.write(
      "POST /api/analytics HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
        "Content-Length: 100\r\nExpect: 100-continue\r\n\r\n",
    );
  });
}

/** GET /healthz on a new connection: the whole answer the server sent before closing (or one response). */
function getOnNewSocket(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let answer = "";
    socket.on("data", (d) => {
      answer += d.toString("latin1");
      // A 200 keeps the connection alive: close it once the (small) body is in.
      if (/^HTTP\/1\.1 200 [\s\S]*\r\n\r\n[\s\S]+/.test(answer)) socket.end();
    });
    socket.on("error", () => {});
    socket.on("close", () => resolve(answer));
    socket.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  });
}

describe("connections from one address past MAX_CONNECTIONS_PER_CLIENT (4)", () => {
  it("the fifth is answered 429 and closed without being served; once one closes, a new one is served", async () => {
    const held = await Promise.all(Array.from({ length: 4 }, () => holdRequest(capped.port)));
    try {
      const refused = await getOnNewSocket(capped.port);
      expect(refused).toMatch(/^HTTP\/1\.1 429 /);
      expect(refused).toContain("Too many open connections from your address");
      // Only the refusal: the request it sent was not passed to the application.
      expect(refused.match(/HTTP\/1\.1 /g)).toHaveLength(1);

      held.pop()!.destroy();
      let answer = "";
      for (let attempt = 0; attempt < 50 && !answer.startsWith("HTTP/1.1 200 "); attempt++) {
        answer = await getOnNewSocket(capped.port);
      }
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      for (const socket of held) socket.destroy();
    }
  });
});
