// The account e-mails' pure parts (decision 051): what the messages say, in text and HTML, and their links.
import { describe, expect, it } from "vitest";
import {
  emailVerificationLink,
  emailVerificationMail,
  passwordResetLink,
  passwordResetMail,
  TOKEN_PATTERN,
} from "~/domain/accounts/account-emails";

describe("the password reset message", () => {
  it("carries the link on a line of its own, how long it works, and what to do if you did not ask", () => {
    const link = passwordResetLink("https://app.example.com", "A".repeat(43));
    expect(link).toBe(`https://app.example.com/reset-password?token=${"A".repeat(43)}`);
    const mail = passwordResetMail({ to: "a@example.com", link, validMinutes: 60 });
    expect(mail.subject).toBe("Reset your Winning Products password");
    expect(mail.text.split("\n")).toContain(link);
    expect(mail.text).toContain("It works once, for 1 hour, and signs you out everywhere else.");
    expect(mail.text).toContain("If you did not ask for this, ignore this message");
    expect(mail.html).toContain(`href="${link}"`);
  });

  it("says durations in words", () => {
    const say = (validMinutes: number) => passwordResetMail({ to: "a@example.com", link: "https://x.test/r", validMinutes }).text;
    expect(say(30)).toContain("for 30 minutes");
    expect(say(120)).toContain("for 2 hours");
    expect(say(1440)).toContain("for 1 day");
  });

  it("escapes everything it puts in HTML", () => {
    const mail = passwordResetMail({ to: "a@example.com", link: 'https://x.test/r?a="><script>alert(1)</script>', validMinutes: 60 });
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain("&quot;&gt;&lt;script&gt;");
  });
});

describe("the confirmation message", () => {
  it("links /verify-email and says how long the link works", () => {
    const link = emailVerificationLink("https://app.example.com/", "b".repeat(43));
    const mail = emailVerificationMail({ to: "a@example.com", link, validHours: 72 });
    expect(link).toBe(`https://app.example.com/verify-email?token=${"b".repeat(43)}`);
    expect(mail.text).toContain("The link below works once, for 3 days.");
    expect(mail.html).toContain("Confirm my address");
  });
});

describe("a token as links carry it", () => {
  it("is 43 base64url characters", () => {
    expect(TOKEN_PATTERN.test("a".repeat(43))).toBe(true);
    expect(TOKEN_PATTERN.test("a".repeat(42))).toBe(false);
    expect(TOKEN_PATTERN.test(`${"a".repeat(42)}=`)).toBe(false);
  });
});
