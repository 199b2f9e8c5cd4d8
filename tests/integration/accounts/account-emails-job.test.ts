// The mail job (issue 25 item 2, decision 051): the built-in mailer writes a real MIME message (nodemailer's stream
// transport) as an .eml file the operator page lists; a send that fails is retried by the job system, and the
// request never sends anything itself.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { createMailer, listOutbox } from "~/integrations/mailer.server";
import { createAccountEmails, PASSWORD_RESET_JOB } from "~/services/accounts/emails.server";
import { createJobs } from "~/services/jobs.server";
import { createRateLimits } from "~/services/api-access/rate-limits.server";
import { loader as operatorMailLoader } from "~/routes/dashboard.operator_.mail";
import { startFakeSmtp } from "../../helpers/fake-smtp";
import { linkIn, mailsTo, parseMail } from "../../helpers/mail";
import { call } from "../../helpers/routes";
import { createSignedInUser, createUser, uniqueIp } from "../../helpers/site-users";

function setup(outboxDir: string, smtpUrl?: string) {
  let clock = new Date();
  const jobs = createJobs({ db, ownerId: `mail-test-${Math.random()}`, now: () => clock, random: () => 0 });
  const emails = createAccountEmails({
    db,
    jobs,
    mailer: createMailer({ from: "Winning Products <no-reply@example.com>", outboxDir, smtpUrl }),
    limits: createRateLimits({ db, databaseUrl: process.env.DATABASE_URL! }),
    addressScale: 1,
    forgetLoginFailures: async () => {},
    appUrl: "https://app.example.com",
    resetTtlMinutes: 30,
    verificationTtlHours: 24,
  });
  emails.registerJobs(jobs);
  return { jobs, emails, advance: (ms: number) => (clock = new Date(clock.getTime() + ms)) };
}

describe("the account e-mail job and the built-in mailer", () => {
  it("writes a multipart message with text and HTML whose link works, listed for operators", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "mail-"));
    const { jobs, emails } = setup(dir);
    const user = await createUser();
    await emails.requestPasswordReset(user.email, { ip: uniqueIp() });
    expect(mailsTo(dir, user.email)).toHaveLength(0);
    expect(await jobs.runDue({ kinds: [PASSWORD_RESET_JOB] })).toMatchObject({ done: 1 });

    const [mail] = mailsTo(dir, user.email);
    expect(mail.headers.get("from")).toBe("Winning Products <no-reply@example.com>");
    expect(mail.headers.get("content-type")).toMatch(/^multipart\/alternative/);
    expect(mail.headers.get("message-id")).toMatch(/^<.+@.+>$/);
    expect(mail.text).toContain("It works once, for 30 minutes");
    const link = linkIn(mail, "/reset-password");
    expect(link).toMatch(/^https:\/\/app\.example\.com\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
    expect(mail.html).toContain(link.replace(/&/g, "&amp;"));
    const token = new URL(link).searchParams.get("token")!;
    await emails.resetPassword({ token, password: "the new password 1" });

    const listed = await listOutbox(dir);
    expect(listed).toEqual([expect.objectContaining({ to: user.email, subject: "Reset your Winning Products password" })]);
    rmSync(dir, { recursive: true, force: true });
  });

  it("retries a send that failed, and delivers once the mailer works again", async () => {
    const parent = mkdtempSync(path.join(tmpdir(), "mail-"));
    const dir = path.join(parent, "outbox");
    // A file where the folder should be: writing the message fails.
    writeFileSync(dir, "not a folder");
    const { jobs, emails, advance } = setup(dir);
    const user = await createUser();
    await emails.requestPasswordReset(user.email, { ip: uniqueIp() });

    expect(await jobs.runDue({ kinds: [PASSWORD_RESET_JOB] })).toMatchObject({ ran: 1, retrying: 1 });
    const failed = await db.job.findFirstOrThrow({ where: { kind: PASSWORD_RESET_JOB, status: "queued" }, select: { attempts: true, lastError: true } });
    expect(failed.attempts).toBe(1);
    expect(failed.lastError).toMatch(/EEXIST|ENOTDIR/);

    rmSync(dir);
    advance(3600_000);
    expect(await jobs.runDue({ kinds: [PASSWORD_RESET_JOB] })).toMatchObject({ done: 1 });
    expect(mailsTo(dir, user.email)).toHaveLength(1);
    // The link of the delivered message is the one that works (the failed attempt's token was replaced).
    const token = new URL(linkIn(mailsTo(dir, user.email)[0], "/reset-password")).searchParams.get("token")!;
    await expect(emails.resetPassword({ token, password: "the new password 1" })).resolves.toMatchObject({ userId: user.id });
    rmSync(parent, { recursive: true, force: true });
  });

  it("the operator's mail page lists the outbox; anyone else gets 404", async () => {
    const operator = await createSignedInUser({ isOperator: true });
    const res = await call(operatorMailLoader, "/dashboard/operator/mail", { cookie: operator.cookie });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ mode: "outbox", messages: expect.any(Array) });
    const seller = await createSignedInUser();
    expect((await call(operatorMailLoader, "/dashboard/operator/mail", { cookie: seller.cookie })).status).toBe(404);
  });

  it("with SMTP_URL, sends over SMTP (a server on 127.0.0.1) and writes no file; a refused send is retried", async () => {
    const smtp = await startFakeSmtp();
    const dir = path.join(mkdtempSync(path.join(tmpdir(), "mail-")), "unused");
    const { jobs, emails, advance } = setup(dir, smtp.url);
    const user = await createUser();
    smtp.failNext(1);
    await emails.requestPasswordReset(user.email, { ip: uniqueIp() });
    expect(await jobs.runDue({ kinds: [PASSWORD_RESET_JOB] })).toMatchObject({ retrying: 1 });
    expect(smtp.received).toHaveLength(0);

    advance(3600_000);
    expect(await jobs.runDue({ kinds: [PASSWORD_RESET_JOB] })).toMatchObject({ done: 1 });
    expect(smtp.received).toHaveLength(1);
    const [sent] = smtp.received;
    expect(sent.from).toBe("no-reply@example.com");
    expect(sent.to).toEqual([user.email]);
    // The same MIME message the outbox would hold: read the link from it.
    const file = path.join(mkdtempSync(path.join(tmpdir(), "smtp-")), "sent.eml");
    writeFileSync(file, sent.data);
    const token = new URL(linkIn(parseMail(file), "/reset-password")).searchParams.get("token")!;
    await expect(emails.resetPassword({ token, password: "the new password 1" })).resolves.toMatchObject({ userId: user.id });
    expect(existsSync(dir)).toBe(false);
    await smtp.close();
  });
});
