// Feedback and bug reports (seed: feedback, bugs) and the operator inbox that reads them. Text is
// stored exactly as the user typed it (no trimming, no HTML stripping): it is data, and every screen
// renders it as text, escaped by React. Limits: a message over its limit is refused with 400 rather
// than cut, so nothing a user wrote is lost silently; fields captured automatically by the browser
// (page URL, user agent) are cut to their limit instead, because the user never typed them. The one
// exception to "as typed": NUL characters (U+0000) are removed, because SQLite's text binding ends the
// string at the first one and would silently drop everything after it. Browsers never send them.
import type { Db } from "~/db.server";
import { AppError } from "~/domain/errors";
import {
  BUG_MAX_CHARS,
  charCount,
  FEEDBACK_MAX_CHARS,
  PAGE_URL_MAX_CHARS,
  USER_AGENT_MAX_CHARS,
  type BugStatus,
  type FeedbackStatus,
} from "~/domain/feedback";

/** A stored message. Refusals are AppError 400 with the sentence and { field } naming what to fix. */
export type Submitted = { id: number };

/** Removes NUL characters, the only characters SQLite cannot keep inside a text value. */
function storable(text: string): string {
  return text.includes("\u0000") ? text.replaceAll("\u0000", "") : text;
}

function cut(raw: string | null | undefined, max: number): string | null {
  if (raw === null || raw === undefined) return null;
  const text = storable(raw);
  if (text.trim() === "") return null;
  return charCount(text) <= max ? text : Array.from(text).slice(0, max).join("");
}

function checkText(text: string, field: string, max: number, what: string, emptyMessage: string): void {
  if (text.trim() === "") throw new AppError(400, emptyMessage, { field });
  const n = charCount(text);
  if (n > max) {
    throw new AppError(
      400,
      `${what} is limited to ${max.toLocaleString("en-CA")} characters; yours has ${n.toLocaleString("en-CA")}. Shorten it and send again.`,
      { field },
    );
  }
}

export async function submitFeedback(
  db: Db,
  userId: string,
  input: { message: string; rating?: number | null; pageUrl?: string | null },
): Promise<Submitted> {
  const message = storable(input.message);
  checkText(message, "message", FEEDBACK_MAX_CHARS, "Feedback", "Write your feedback before sending.");
  const rating = input.rating ?? null;
  if (rating !== null && !(Number.isInteger(rating) && rating >= 1 && rating <= 5)) {
    throw new AppError(400, "Choose a rating from 1 to 5, or leave it empty.", { field: "rating" });
  }
  const row = await db.feedback.create({
    data: { userId, message, rating, pageUrl: cut(input.pageUrl, PAGE_URL_MAX_CHARS) },
    select: { id: true },
  });
  return { id: row.id };
}

export async function submitBugReport(
  db: Db,
  userId: string,
  input: { description: string; pageUrl?: string | null; userAgent?: string | null },
): Promise<Submitted> {
  const description = storable(input.description);
  checkText(description, "description", BUG_MAX_CHARS, "A bug report", "Describe the bug before sending.");
  const row = await db.bugReport.create({
    data: {
      userId,
      description,
      pageUrl: cut(input.pageUrl, PAGE_URL_MAX_CHARS),
      userAgent: cut(input.userAgent, USER_AGENT_MAX_CHARS),
    },
    select: { id: true },
  });
  return { id: row.id };
}

// ---------- operators ----------

/** Operators see the inbox; everyone else gets the same 404 as a page that does not exist. */
export async function requireOperator(db: Db, userId: string): Promise<void> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { isOperator: true } });
  if (!user?.isOperator) throw new AppError(404, "Not found");
}

export async function isOperator(db: Db, userId: string): Promise<boolean> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { isOperator: true } });
  return Boolean(user?.isOperator);
}

/** The operator flag, set by `npm run operator -- EMAIL [--revoke]`. Null when no user has that e-mail. */
export async function setOperator(db: Db, email: string, operator: boolean) {
  const found = await db.user.findUnique({ where: { email }, select: { id: true } });
  if (!found) return null;
  return db.user.update({ where: { id: found.id }, data: { isOperator: operator }, select: { email: true, isOperator: true } });
}

/** How many of each the inbox shows; older items stay in the database. */
export const INBOX_LIMIT = 200;

/** Bug reports newest first (createdAt descending, as the seed sorts bugs) and feedback newest first. */
export async function listInbox(db: Db) {
  const [bugs, feedback] = await Promise.all([
    db.bugReport.findMany({
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: INBOX_LIMIT,
      select: { id: true, userId: true, description: true, pageUrl: true, userAgent: true, status: true, createdAt: true },
    }),
    db.feedback.findMany({
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: INBOX_LIMIT,
      select: { id: true, userId: true, message: true, rating: true, pageUrl: true, status: true, createdAt: true },
    }),
  ]);
  const ids = [...new Set([...bugs, ...feedback].map((r) => r.userId).filter((id): id is string => id !== null))];
  const users = await db.user.findMany({ where: { id: { in: ids } }, select: { id: true, email: true } });
  const emailOf = new Map(users.map((u) => [u.id, u.email]));
  const who = (id: string | null) => (id ? (emailOf.get(id) ?? "deleted user") : "anonymous");
  return {
    bugs: bugs.map((b) => ({ ...b, createdAt: b.createdAt.toISOString(), reporter: who(b.userId) })),
    feedback: feedback.map((f) => ({ ...f, createdAt: f.createdAt.toISOString(), reporter: who(f.userId) })),
  };
}
export type Inbox = Awaited<ReturnType<typeof listInbox>>;

export async function setBugStatus(db: Db, id: number, status: BugStatus): Promise<boolean> {
  const { count } = await db.bugReport.updateMany({ where: { id }, data: { status } });
  return count === 1;
}

export async function setFeedbackStatus(db: Db, id: number, status: FeedbackStatus): Promise<boolean> {
  const { count } = await db.feedback.updateMany({ where: { id }, data: { status } });
  return count === 1;
}

/** The use cases the composition root binds to the one database (app/services/index.server.ts): listed here, they are there. */
export const useCases = {
  submitFeedback,
  submitBugReport,
  requireOperator,
  isOperator,
  listInbox,
  setBugStatus,
  setFeedbackStatus,
};
