// The feedback and bug report forms (/dashboard/feedback) with empty, huge and script-laden input:
// stored verbatim as text, refused with a clear message when empty or over the limit.
import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { action as feedbackAction, loader as feedbackLoader } from "~/routes/dashboard.feedback";
import { BUG_MAX_CHARS, FEEDBACK_MAX_CHARS, PAGE_URL_MAX_CHARS, USER_AGENT_MAX_CHARS } from "~/domain/feedback";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

const SCRIPT = `<script>alert("pwned")</script><img src=x onerror="alert(1)"> & 'quotes' "double" \u200b emoji 🚀\n<!-- comment -->`;

const send = (cookie: string | null, form: Record<string, string>, headers?: Record<string, string>) =>
  call(feedbackAction, "/dashboard/feedback", { cookie, form, headers });

describe("feedback form", () => {
  it("stores feedback with its rating and the page it was sent from", async () => {
    const user = await createSignedInUser();
    const res = await send(user.cookie, {
      intent: "feedback",
      message: "The trend chart is great. Please add a CSV export.",
      rating: "4",
      pageUrl: "https://winning-products.test/dashboard/billing",
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ form: "feedback", ok: true, field: null, message: "Thank you! Your feedback was sent to the team." });
    const row = await db.feedback.findFirstOrThrow({ where: { userId: user.id } });
    expect(row).toMatchObject({
      message: "The trend chart is great. Please add a CSV export.",
      rating: 4,
      pageUrl: "https://winning-products.test/dashboard/billing",
      status: "new",
    });
  });

  it("accepts feedback without a rating", async () => {
    const user = await createSignedInUser();
    expect((await send(user.cookie, { intent: "feedback", message: "Nice", rating: "" })).status).toBe(200);
    expect((await db.feedback.findFirstOrThrow({ where: { userId: user.id } })).rating).toBeNull();
  });

  it.each(["", "   ", "\n\t \n"])("refuses empty feedback %j with 400 and a clear message", async (message) => {
    const user = await createSignedInUser();
    const res = await send(user.cookie, { intent: "feedback", message });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ form: "feedback", ok: false, field: "message", message: "Write your feedback before sending." });
    expect(await db.feedback.count({ where: { userId: user.id } })).toBe(0);
  });

  it("takes exactly the limit and refuses one character more, saying how long it was", async () => {
    const user = await createSignedInUser();
    expect((await send(user.cookie, { intent: "feedback", message: "a".repeat(FEEDBACK_MAX_CHARS) })).status).toBe(200);
    const res = await send(user.cookie, { intent: "feedback", message: "a".repeat(FEEDBACK_MAX_CHARS + 1) });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe("Feedback is limited to 5,000 characters; yours has 5,001. Shorten it and send again.");
    expect(await db.feedback.count({ where: { userId: user.id } })).toBe(1);
  });

  it("refuses a huge message (1 MB) without storing any of it", async () => {
    const user = await createSignedInUser();
    const res = await send(user.cookie, { intent: "feedback", message: "x".repeat(1_000_000) });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/yours has 1,000,000/);
    expect(await db.feedback.count({ where: { userId: user.id } })).toBe(0);
  });

  it("counts characters as people do: 5,000 emoji fit", async () => {
    const user = await createSignedInUser();
    expect((await send(user.cookie, { intent: "feedback", message: "🚀".repeat(FEEDBACK_MAX_CHARS) })).status).toBe(200);
  });

  it.each(["0", "6", "3.5", "five", "-1"])("refuses the rating %j", async (rating) => {
    const user = await createSignedInUser();
    const res = await send(user.cookie, { intent: "feedback", message: "ok", rating });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ field: "rating", message: "Choose a rating from 1 to 5, or leave it empty." });
  });

  it("stores script-laden text exactly as typed", async () => {
    const user = await createSignedInUser();
    expect((await send(user.cookie, { intent: "feedback", message: SCRIPT })).status).toBe(200);
    expect((await db.feedback.findFirstOrThrow({ where: { userId: user.id } })).message).toBe(SCRIPT);
  });

  it("removes NUL characters (SQLite would cut the text there) and keeps everything else", async () => {
    const user = await createSignedInUser();
    expect((await send(user.cookie, { intent: "feedback", message: "before\u0000after <b>x</b>" })).status).toBe(200);
    expect((await db.feedback.findFirstOrThrow({ where: { userId: user.id } })).message).toBe("beforeafter <b>x</b>");
    const onlyNul = await send(user.cookie, { intent: "feedback", message: "\u0000\u0000" });
    expect(onlyNul.status).toBe(400);
  });

  it("sends an anonymous visitor to log in and stores nothing", async () => {
    const before = await db.feedback.count();
    const res = await send(null, { intent: "feedback", message: "hello" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/?redirectTo=%2Fdashboard%2Ffeedback");
    expect(await db.feedback.count()).toBe(before);
  });

  it("refuses an unknown form", async () => {
    const user = await createSignedInUser();
    expect((await send(user.cookie, { intent: "other", message: "x" })).status).toBe(400);
  });
});

describe("bug report form", () => {
  it("stores the description with the page URL and user agent captured by the browser", async () => {
    const user = await createSignedInUser();
    const res = await send(user.cookie, {
      intent: "bug",
      description: "Clicking Save on the billing page does nothing.\nSteps: open billing, click Save.",
      pageUrl: "https://winning-products.test/dashboard/billing?step=cancel",
      userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) Safari/605.1.15",
    });
    expect(res.status).toBe(200);
    const row = await db.bugReport.findFirstOrThrow({ where: { userId: user.id } });
    expect(row).toMatchObject({
      description: "Clicking Save on the billing page does nothing.\nSteps: open billing, click Save.",
      pageUrl: "https://winning-products.test/dashboard/billing?step=cancel",
      userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) Safari/605.1.15",
      status: "new",
    });
  });

  it("falls back to the request's User-Agent header when the browser sent none (no JavaScript)", async () => {
    const user = await createSignedInUser();
    await send(user.cookie, { intent: "bug", description: "Broken" }, { "user-agent": "Lynx/2.9" });
    const row = await db.bugReport.findFirstOrThrow({ where: { userId: user.id } });
    expect(row).toMatchObject({ userAgent: "Lynx/2.9", pageUrl: null });
  });

  it("cuts captured fields that are too long instead of refusing the report", async () => {
    const user = await createSignedInUser();
    const res = await send(user.cookie, {
      intent: "bug",
      description: "Long URL",
      pageUrl: `https://winning-products.test/${"p".repeat(5000)}`,
      userAgent: "U".repeat(5000),
    });
    expect(res.status).toBe(200);
    const row = await db.bugReport.findFirstOrThrow({ where: { userId: user.id } });
    expect(row.pageUrl).toHaveLength(PAGE_URL_MAX_CHARS);
    expect(row.userAgent).toHaveLength(USER_AGENT_MAX_CHARS);
  });

  it("refuses an empty description with a clear message", async () => {
    const user = await createSignedInUser();
    const res = await send(user.cookie, { intent: "bug", description: "  " });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ form: "bug", ok: false, field: "description", message: "Describe the bug before sending." });
  });

  it("refuses a description over the limit", async () => {
    const user = await createSignedInUser();
    const res = await send(user.cookie, { intent: "bug", description: "b".repeat(BUG_MAX_CHARS + 1) });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe("A bug report is limited to 10,000 characters; yours has 10,001. Shorten it and send again.");
  });

  it("stores a script-laden description verbatim", async () => {
    const user = await createSignedInUser();
    await send(user.cookie, { intent: "bug", description: SCRIPT, pageUrl: "javascript:alert(1)", userAgent: "<b>ua</b>" });
    const row = await db.bugReport.findFirstOrThrow({ where: { userId: user.id } });
    expect(row).toMatchObject({ description: SCRIPT, pageUrl: "javascript:alert(1)", userAgent: "<b>ua</b>" });
  });
});

describe("feedback page loader", () => {
  it("tells operators where their inbox is, and nobody else", async () => {
    const user = await createSignedInUser();
    const operator = await createSignedInUser({ isOperator: true });
    expect(await (await call(feedbackLoader, "/dashboard/feedback", { cookie: user.cookie })).json()).toEqual({ operator: false });
    expect(await (await call(feedbackLoader, "/dashboard/feedback", { cookie: operator.cookie })).json()).toEqual({ operator: true });
  });
});
