// Sending e-mail (docs/decisions/051) through nodemailer: over SMTP when SMTP_URL is set; otherwise the built-in
// default writes each message, built by nodemailer's stream transport (real MIME: headers, text and HTML
// alternatives), as an .eml file under the outbox folder, so a local demo and the tests can open the link.
// The operator page lists that folder (listOutbox).
import { mkdir, readdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { randomUUID } from "node:crypto";
import nodemailer from "nodemailer";
import type { MailMessage, OutboxEntry } from "~/domain/accounts/account-emails";

export type { OutboxEntry } from "~/domain/accounts/account-emails";

export interface Mailer {
  readonly mode: "smtp" | "outbox";
  /** Sends the message; throws when it could not (the job system retries). */
  send(message: MailMessage): Promise<{ messageId: string; file: string | null }>;
}

export interface MailerConfig {
  smtpUrl?: string;
  from: string;
  outboxDir: string;
}

export function createMailer(config: MailerConfig): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      mode: "smtp",
      async send(message) {
        const info = await transport.sendMail({ from: config.from, ...message });
        return { messageId: String(info.messageId), file: null };
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    mode: "outbox",
    async send(message) {
      const info = await transport.sendMail({ from: config.from, ...message });
      await mkdir(config.outboxDir, { recursive: true });
      // Sortable by time; written under a temporary name first so a reader never sees half a message.
      const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomUUID().slice(0, 8)}.eml`;
      const file = path.join(config.outboxDir, name);
      await writeFile(`${file}.tmp`, info.message as Buffer);
      await rename(`${file}.tmp`, file);
      return { messageId: String(info.messageId), file };
    },
  };
}

/** The header block of a raw message, folded lines joined, names lowercased. */
function headersOf(raw: string): Map<string, string> {
  const end = raw.search(/\r?\n\r?\n/);
  const block = (end === -1 ? raw : raw.slice(0, end)).replace(/\r?\n[ \t]+/g, " ");
  const headers = new Map<string, string>();
  for (const line of block.split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

/** RFC 2047 encoded words (=?UTF-8?B?...?= / Q), as nodemailer writes non-ASCII subjects. */
function decodeWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=\s*/g, (_m, _charset: string, encoding: string, text: string) => {
    if (encoding.toUpperCase() === "B") return Buffer.from(text, "base64").toString("utf8");
    const bytes = text.replace(/_/g, " ").replace(/=([0-9A-Fa-f]{2})/g, (_x, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, "latin1").toString("utf8");
  });
}

/** The newest messages in the outbox folder (an absent folder is an empty outbox). */
export async function listOutbox(outboxDir: string, limit = 50): Promise<OutboxEntry[]> {
  let names: string[];
  try {
    names = (await readdir(outboxDir)).filter((n) => n.endsWith(".eml"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  names.sort().reverse();
  return Promise.all(
    names.slice(0, limit).map(async (name) => {
      const file = path.join(outboxDir, name);
      const [raw, info] = await Promise.all([readFile(file, "utf8"), stat(file)]);
      const headers = headersOf(raw);
      return {
        file: name,
        to: decodeWords(headers.get("to") ?? ""),
        subject: decodeWords(headers.get("subject") ?? ""),
        date: headers.get("date") ?? info.mtime.toUTCString(),
        sizeBytes: info.size,
      };
    }),
  );
}
