// Feedback and bug report rules shared by the server and the forms (limits, statuses, how characters
// are counted). Pure, so the browser bundle can use it; storage lives in services/feedback.server.ts.

export const FEEDBACK_MAX_CHARS = 5000;
export const BUG_MAX_CHARS = 10000;
export const PAGE_URL_MAX_CHARS = 2000;
export const USER_AGENT_MAX_CHARS = 500;

export const FEEDBACK_STATUSES = ["new", "read", "done"] as const;
export const BUG_STATUSES = ["new", "investigating", "fixed", "wontfix"] as const;
export type FeedbackStatus = (typeof FEEDBACK_STATUSES)[number];
export type BugStatus = (typeof BUG_STATUSES)[number];

/** Length in characters as a person counts them (an emoji is one), not UTF-16 code units. */
export function charCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
