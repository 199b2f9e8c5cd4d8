// The account e-mails (docs/decisions/051): what a password reset and an address confirmation message say,
// in plain text and HTML, and the rules of their links. Pure: the service makes the token, the mailer sends.
import { z } from "zod";
import { escapeHtml } from "~/domain/html-escape";
import { PasswordSchema } from "~/domain/accounts/auth";

/** A link's job: reset the password, confirm the account's address, or confirm a new address before it becomes the login. */
export type AuthTokenPurpose = "password-reset" | "email-verification" | "email-change";

/** Every purpose: what an e-mail change or a new password revokes (decision 079). */
export const AUTH_TOKEN_PURPOSES: readonly AuthTokenPurpose[] = ["password-reset", "email-verification", "email-change"];

/** A message ready for the mailer: who, what, and the same content twice (text for every client, HTML for most). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** A message in the built-in outbox folder, as the operator page lists it. */
export interface OutboxEntry {
  file: string;
  to: string;
  subject: string;
  date: string;
  sizeBytes: number;
}

/** What the reset page's form sends. */
export const ResetPasswordSchema = z.object({
  token: z.string({ error: "This link is incomplete. Ask for a new one." }).trim().min(1, "This link is incomplete. Ask for a new one.").max(200),
  password: PasswordSchema,
});

/**
 * The referrer policy of the pages a link's token opens (decision 079): other sites, and analytics' document.referrer,
 * see our origin only, never the token; our own forms still send their real Origin. ("no-referrer" made the browser
 * send `Origin: null` on every form there, which the origin check refuses: "Log out" failed on the confirmed page.)
 */
export const TOKEN_PAGE_REFERRER_POLICY = "strict-origin";

/** A token as it travels in a link: 32 random bytes in base64url (43 characters). */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The same answer whether or not an account has the address, so the form cannot tell who has an account. */
export const RESET_REQUESTED_MESSAGE =
  "If an account uses that address, we have sent it a link to choose a new password. It works once, for a limited time. Check your spam folder if it has not arrived in a few minutes.";

export const INVALID_RESET_LINK =
  "This password reset link has expired or has already been used. Ask for a new one below.";

export const INVALID_VERIFICATION_LINK =
  "This confirmation link has expired, was already used, or is for an address this account no longer uses. Send a new one from your dashboard.";

export const INVALID_EMAIL_CHANGE_LINK =
  "This link to confirm a new e-mail address has expired, was already used, or was replaced by a newer change or a new password. Your e-mail address has not changed; ask for the change again on your account page.";

function durationWords(minutes: number): string {
  if (minutes % (24 * 60) === 0) {
    const days = minutes / (24 * 60);
    return days === 1 ? "1 day" : `${days} days`;
  }
  if (minutes % 60 === 0) {
    const hours = minutes / 60;
    return hours === 1 ? "1 hour" : `${hours} hours`;
  }
  return `${minutes} minutes`;
}

function layout(title: string, paragraphs: string[], button: { label: string; url: string }, after: string[]): string {
  const p = (text: string) => `<p style="margin:0 0 16px;font-size:15px;line-height:1.5">${escapeHtml(text)}</p>`;
  return [
    "<!doctype html>",
    `<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f6f6f7;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#202223">',
    '<div style="max-width:520px;margin:0 auto;background:#ffffff;border-radius:12px;padding:24px">',
    `<h1 style="margin:0 0 16px;font-size:20px">${escapeHtml(title)}</h1>`,
    ...paragraphs.map(p),
    `<p style="margin:0 0 16px"><a href="${escapeHtml(button.url)}" style="display:inline-block;background:#303030;color:#ffffff;padding:10px 16px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(button.label)}</a></p>`,
    `<p style="margin:0 0 16px;font-size:13px;color:#616161">If the button does not work, copy this address into your browser:<br>${escapeHtml(button.url)}</p>`,
    ...after.map(p),
    "</div></body></html>",
  ].join("\n");
}

/** A message whose point is one link: a sentence, how the link works, the link (as a button), and what to do if unasked. */
function linkMail(input: {
  to: string;
  subject: string;
  title: string;
  intro: string;
  how: string;
  button: { label: string; url: string };
  ignore: string;
}): MailMessage {
  const { intro, how, button, ignore } = input;
  return {
    to: input.to,
    subject: input.subject,
    text: [intro, "", how, "", button.url, "", ignore, "", "Winning Products"].join("\n"),
    html: layout(input.title, [intro, how], button, [ignore]),
  };
}

/** The password reset message: the link, how long it works, and what to do when you did not ask. */
export function passwordResetMail(input: { to: string; link: string; validMinutes: number }): MailMessage {
  return linkMail({
    to: input.to,
    subject: "Reset your Winning Products password",
    title: "Reset your password",
    intro: "Someone (we hope you) asked to reset the password of your Winning Products account.",
    how: `Choose a new password with the link below. It works once, for ${durationWords(input.validMinutes)}, and signs you out everywhere else.`,
    button: { label: "Choose a new password", url: input.link },
    ignore: "If you did not ask for this, ignore this message: your password stays as it is.",
  });
}

/** The address confirmation message, sent after sign-up (and when asked again). */
export function emailVerificationMail(input: { to: string; link: string; validHours: number }): MailMessage {
  return linkMail({
    to: input.to,
    subject: "Confirm your e-mail address for Winning Products",
    title: "Confirm your e-mail address",
    intro:
      "Confirm that this is the address of your Winning Products account, so we can reach you about your subscription and send password reset links here.",
    how: `The link below works once, for ${durationWords(input.validHours * 60)}.`,
    button: { label: "Confirm my address", url: input.link },
    ignore: "If you did not create an account or change its address, ignore this message.",
  });
}

/** The message to a new address (decision 079): it becomes the login only once this link is opened. */
export function emailChangeMail(input: { to: string; link: string; validHours: number }): MailMessage {
  return linkMail({
    to: input.to,
    subject: "Confirm your new e-mail address for Winning Products",
    title: "Confirm your new e-mail address",
    intro: "Someone (we hope you) asked to use this address to log in to a Winning Products account.",
    how: `Open the link below to confirm it. Until then the account keeps its current address. The link works once, for ${durationWords(input.validHours * 60)}.`,
    button: { label: "Use this address", url: input.link },
    ignore: "If you did not ask for this, ignore this message: nothing changes.",
  });
}

/** The notice to the account's current address that a change to another one was asked for (decision 079). */
export function emailChangeNoticeMail(input: { to: string; newEmail: string; accountLink: string }): MailMessage {
  const intro = `Someone asked to change the log-in address of your Winning Products account to ${input.newEmail}.`;
  const how = "Nothing changes until a link we sent to that address is opened. Until then you keep logging in with this address.";
  const ignore =
    "If this was not you, change your password on your account page (or reset it from the log-in page): that cancels the change and signs out every other device.";
  return {
    to: input.to,
    subject: "Your Winning Products e-mail address is about to change",
    text: [intro, "", how, "", ignore, "", input.accountLink, "", "Winning Products"].join("\n"),
    html: layout("Your e-mail address is about to change", [intro, how, ignore], { label: "Open my account", url: input.accountLink }, []),
  };
}

/** The links the messages carry, on the public site address. */
export function passwordResetLink(appUrl: string, token: string): string {
  return new URL(`/reset-password?token=${encodeURIComponent(token)}`, appUrl).toString();
}

/** Confirming the account's address and confirming a new one open the same page (the token says which). */
export function emailVerificationLink(appUrl: string, token: string): string {
  return new URL(`/verify-email?token=${encodeURIComponent(token)}`, appUrl).toString();
}

export function accountPageLink(appUrl: string): string {
  return new URL("/dashboard/account", appUrl).toString();
}
