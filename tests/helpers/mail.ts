// Reading what the built-in mailer wrote (decision 051): the .eml files under MAIL_OUTBOX_DIR, their headers,
// their plain-text part (quoted-printable decoded) and the link a message carries. Used by the integration
// tests and the end-to-end spec alike; only node built-ins, so Playwright can load it too.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export interface SavedMail {
  file: string;
  raw: string;
  headers: Map<string, string>;
  text: string;
  html: string;
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body.replace(/=\r?\n/g, "").replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

function decodePart(part: string): { type: string; body: string } {
  const split = part.search(/\r?\n\r?\n/);
  const head = part.slice(0, split).replace(/\r?\n[ \t]+/g, " ");
  const body = part.slice(split).replace(/^\r?\n\r?\n/, "");
  const type = /content-type:\s*([^;\r\n]+)/i.exec(head)?.[1].trim().toLowerCase() ?? "text/plain";
  const encoding = /content-transfer-encoding:\s*(\S+)/i.exec(head)?.[1].toLowerCase() ?? "7bit";
  const decoded =
    encoding === "quoted-printable" ? decodeQuotedPrintable(body) : encoding === "base64" ? Buffer.from(body, "base64").toString("utf8") : body;
  return { type, body: decoded };
}

export function parseMail(file: string): SavedMail {
  const raw = readFileSync(file, "utf8");
  const end = raw.search(/\r?\n\r?\n/);
  const headers = new Map<string, string>();
  for (const line of raw.slice(0, end).replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const boundary = /boundary="?([^";]+)"?/i.exec(headers.get("content-type") ?? "")?.[1];
  let text = "";
  let html = "";
  const parts = boundary ? raw.split(`--${boundary}`).slice(1, -1) : [raw];
  for (const part of parts) {
    const { type, body } = decodePart(part.replace(/^\r?\n/, ""));
    if (type === "text/plain") text = body;
    if (type === "text/html") html = body;
  }
  return { file, raw, headers, text, html };
}

/** Every message sent to `to`, oldest first. */
export function mailsTo(outboxDir: string, to: string): SavedMail[] {
  if (!existsSync(outboxDir)) return [];
  return readdirSync(outboxDir)
    .filter((name) => name.endsWith(".eml"))
    .sort()
    .map((name) => parseMail(path.join(outboxDir, name)))
    .filter((mail) => (mail.headers.get("to") ?? "").toLowerCase().includes(to.toLowerCase()));
}

/** The first link to `pathname` in a message's plain text. */
export function linkIn(mail: SavedMail, pathname: string): string {
  const match = new RegExp(`https?://[^\\s]+${pathname.replace(/[/-]/g, "\\$&")}\\?token=[A-Za-z0-9_-]+`).exec(mail.text);
  if (!match) throw new Error(`no ${pathname} link in ${mail.file}:\n${mail.text}`);
  return match[0];
}
