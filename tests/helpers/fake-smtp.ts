// A minimal SMTP server on 127.0.0.1 for tests (RFC 5321's plain dialogue: EHLO, MAIL FROM, RCPT TO, DATA, QUIT;
// no TLS, no AUTH), keeping what it was sent, so the mailer's SMTP path is tested against the protocol itself.
import net from "node:net";

export interface ReceivedMail {
  from: string;
  to: string[];
  data: string;
}

export interface FakeSmtp {
  url: string;
  received: ReceivedMail[];
  /** Answer the next N DATA commands with a temporary failure (451), as a busy server would. */
  failNext(count: number): void;
  close(): Promise<void>;
}

export async function startFakeSmtp(): Promise<FakeSmtp> {
  const received: ReceivedMail[] = [];
  let failures = 0;
  const server = net.createServer((socket) => {
    socket.setEncoding("utf8");
    let buffer = "";
    let inData = false;
    let current: ReceivedMail = { from: "", to: [], data: "" };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply("220 fake-smtp ready");
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end === -1) return;
          current.data = buffer.slice(0, end).replace(/^\.\./gm, ".");
          buffer = buffer.slice(end + 5);
          inData = false;
          if (failures > 0) {
            failures--;
            reply("451 4.3.0 try again later");
          } else {
            received.push(current);
            reply("250 2.0.0 queued");
          }
          current = { from: "", to: [], data: "" };
          continue;
        }
        const eol = buffer.indexOf("\r\n");
        if (eol === -1) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO" || verb === "HELO") reply("250 fake-smtp");
        else if (verb === "MAIL") {
          current.from = /<([^>]*)>/.exec(line)?.[1] ?? "";
          reply("250 2.1.0 ok");
        } else if (verb === "RCPT") {
          current.to.push(/<([^>]*)>/.exec(line)?.[1] ?? "");
          reply("250 2.1.5 ok");
        } else if (verb === "DATA") {
          inData = true;
          reply("354 end with <CRLF>.<CRLF>");
        } else if (verb === "QUIT") {
          reply("221 bye");
          socket.end();
        } else if (verb === "RSET" || verb === "NOOP") reply("250 ok");
        else reply("502 5.5.2 not implemented");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    failNext: (count) => (failures = count),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
