// The operator inbox (/dashboard/operator): only operators, bugs newest first, status changes, user
// text rendered escaped; and the `npm run operator -- EMAIL [--revoke]` command that sets the flag.
import { AppProvider } from "@shopify/polaris";
import enTranslations from "@shopify/polaris/locales/en.json";
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { action as operatorAction, loader as operatorLoader } from "~/routes/dashboard.operator";
import { OperatorInbox } from "~/ui/operator/operator-page";
import { listInbox } from "~/services/feedback.server";
import { call } from "../../helpers/routes";
import { createSignedInUser, createUser } from "../../helpers/site-users";

const run = promisify(execFile);

const SCRIPT = `<script>alert("pwned")</script><img src=x onerror=alert(1)>`;

const openInbox = (cookie: string | null) => call(operatorLoader, "/dashboard/operator", { cookie });
const change = (cookie: string, form: Record<string, string>) => call(operatorAction, "/dashboard/operator", { cookie, form });

describe("operator inbox access", () => {
  it("is a 404 for a signed-in user who is not an operator, for reading and for changes", async () => {
    const user = await createSignedInUser();
    const res = await openInbox(user.cookie);
    expect(res.status).toBe(404);
    const bug = await db.bugReport.create({ data: { description: "x" }, select: { id: true } });
    expect((await change(user.cookie, { intent: "bug-status", id: String(bug.id), status: "fixed" })).status).toBe(404);
    expect((await db.bugReport.findUniqueOrThrow({ where: { id: bug.id } })).status).toBe("new");
  });

  it("sends an anonymous visitor to log in", async () => {
    const res = await openInbox(null);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/?redirectTo=%2Fdashboard%2Foperator");
  });

  it("opens for an operator", async () => {
    const operator = await createSignedInUser({ isOperator: true });
    expect((await openInbox(operator.cookie)).status).toBe(200);
  });
});

describe("operator inbox content", () => {
  it("lists bug reports newest first (createdAt descending) and feedback, with who sent them", async () => {
    const operator = await createSignedInUser({ isOperator: true });
    const reporter = await createUser();
    const base = Date.parse("2026-04-01T12:00:00Z");
    for (const [offsetDays, description] of [
      [1, "middle bug"],
      [3, "newest bug"],
      [0, "oldest bug"],
    ] as const) {
      await db.bugReport.create({ data: { userId: reporter.id, description, createdAt: new Date(base + offsetDays * 86400_000) } });
    }
    await db.feedback.create({ data: { userId: reporter.id, message: "older feedback", rating: 2, createdAt: new Date(base) } });
    await db.feedback.create({ data: { userId: reporter.id, message: "newer feedback", createdAt: new Date(base + 86400_000) } });

    const { inbox } = await (await openInbox(operator.cookie)).json();
    const bugs = inbox.bugs.filter((b: { reporter: string }) => b.reporter === reporter.email);
    expect(bugs.map((b: { description: string }) => b.description)).toEqual(["newest bug", "middle bug", "oldest bug"]);
    const dates = inbox.bugs.map((b: { createdAt: string }) => Date.parse(b.createdAt));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    const feedback = inbox.feedback.filter((f: { reporter: string }) => f.reporter === reporter.email);
    expect(feedback.map((f: { message: string; rating: number | null }) => [f.message, f.rating])).toEqual([
      ["newer feedback", null],
      ["older feedback", 2],
    ]);
  });

  it("changes the status of a bug report and of feedback", async () => {
    const operator = await createSignedInUser({ isOperator: true });
    const bug = await db.bugReport.create({ data: { description: "status me" }, select: { id: true } });
    const item = await db.feedback.create({ data: { message: "status me" }, select: { id: true } });

    const res = await change(operator.cookie, { intent: "bug-status", id: String(bug.id), status: "investigating" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, message: `Bug report #${bug.id} is now "investigating".` });
    expect((await db.bugReport.findUniqueOrThrow({ where: { id: bug.id } })).status).toBe("investigating");

    await change(operator.cookie, { intent: "feedback-status", id: String(item.id), status: "done" });
    expect((await db.feedback.findUniqueOrThrow({ where: { id: item.id } })).status).toBe("done");
  });

  it.each([
    [{ intent: "bug-status", id: "1", status: "done" }], // "done" is a feedback status, not a bug status
    [{ intent: "feedback-status", id: "1", status: "fixed" }],
    [{ intent: "bug-status", id: "abc", status: "fixed" }],
    [{ intent: "delete", id: "1" }],
  ])("refuses an invalid change %j with 400", async (form) => {
    const operator = await createSignedInUser({ isOperator: true });
    const res = await change(operator.cookie, form);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ ok: false, message: "That status change is not valid." });
  });

  it("answers 404 for an item that does not exist", async () => {
    const operator = await createSignedInUser({ isOperator: true });
    const res = await change(operator.cookie, { intent: "bug-status", id: "987654", status: "fixed" });
    expect(res.status).toBe(404);
    expect((await res.json()).message).toBe("There is no bug report #987654.");
  });

  it("renders script-laden reports as escaped text, never as HTML", async () => {
    const reporter = await createUser();
    await db.bugReport.create({
      data: { userId: reporter.id, description: SCRIPT, pageUrl: 'javascript:alert("url")', userAgent: "<b>agent</b>" },
    });
    await db.feedback.create({ data: { userId: reporter.id, message: `${SCRIPT} feedback` } });
    const html = renderToString(createElement(AppProvider, { i18n: enTranslations }, createElement(OperatorInbox, { inbox: await listInbox(db) })));
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<b>agent</b>");
    expect(html).not.toMatch(/href="javascript:/);
    expect(html).toContain("&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;");
    expect(html).toContain("&lt;b&gt;agent&lt;/b&gt;");
    expect(html).toContain("&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt; feedback");
    // The status forms are there for each item.
    expect(html).toMatch(/<form method="post"/);
  });
});

describe("npm run operator -- EMAIL [--revoke]", () => {
  const script = path.resolve("scripts/operator.ts");
  const tsx = path.resolve("node_modules/.bin/tsx");
  const operatorCommand = (...args: string[]) =>
    run(tsx, [script, ...args], { env: { ...process.env, LOG_LEVEL: "silent" } }).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );
  const flag = async (id: string) => (await db.user.findUniqueOrThrow({ where: { id }, select: { isOperator: true } })).isOperator;

  it("sets the operator flag, and --revoke clears it", async () => {
    const user = await createUser();
    const granted = await operatorCommand(user.email.toUpperCase());
    expect(granted.code).toBe(0);
    expect(granted.stdout).toContain(`${user.email} is now an operator`);
    expect(await flag(user.id)).toBe(true);

    const revoked = await operatorCommand(user.email, "--revoke");
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`${user.email} is no longer an operator.`);
    expect(await flag(user.id)).toBe(false);
  }, 60_000);

  it("fails with a clear message for an unknown e-mail or bad arguments", async () => {
    const unknown = await operatorCommand("nobody-here@example.com");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No user has the e-mail nobody-here@example.com. They must sign up first.");
    const none = await operatorCommand();
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("Usage: npm run operator -- EMAIL [--revoke]");
    const bad = await operatorCommand("a@example.com", "--force");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Unknown option --force.");
  }, 60_000);
});
