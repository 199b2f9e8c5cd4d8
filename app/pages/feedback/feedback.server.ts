// /dashboard/feedback (site only): the operator flag for the page, and the two forms' action. The forms
// are read with zod (FeedbackForms); the text is checked by feedback.server.ts, whose AppError 400 names the
// field to fix. Text is stored as typed.
import { data } from "@remix-run/node";
import { z } from "zod";
import { AppError } from "~/domain/errors";
import { formFields, readForm } from "~/pages/http/http.server";
import type { User } from "~/services/accounts/auth.server";
import { feedback } from "~/services/index.server";

export type FeedbackResult = { form: "feedback" | "bug"; ok: boolean; field: string | null; message: string };

/** A form field as text: a missing field or a file reads as "" (the service says what is wrong with it). */
const text = z.unknown().optional().transform((v) => (typeof v === "string" ? v : ""));
const optionalText = text.transform((v) => v || null);

export const FeedbackForms = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("feedback"),
    message: text,
    /** "" -> no rating; anything not a number -> -1, which the service refuses with its sentence. */
    rating: text.transform((raw) => {
      const trimmed = raw.trim();
      if (trimmed === "") return null;
      const n = Number(trimmed);
      return Number.isNaN(n) ? -1 : n;
    }),
    pageUrl: optionalText,
  }),
  z.object({ intent: z.literal("bug"), description: text, pageUrl: optionalText, userAgent: optionalText }),
]);

export async function loadFeedbackPage(user: User) {
  return { operator: await feedback.isOperator(user.id) };
}

export async function feedbackAction(request: Request, user: User) {
  const form = await readForm(request);
  const reply = (result: FeedbackResult, status = 200) => data(result, { status });
  // A refused message names the field to fix (feedback.server.ts throws AppError 400 with { field }).
  const refused = (which: FeedbackResult["form"], error: unknown) => {
    if (!(error instanceof AppError)) throw error;
    const field = typeof error.details.field === "string" ? error.details.field : null;
    return reply({ form: which, ok: false, field, message: error.message }, error.status);
  };

  const parsed = FeedbackForms.safeParse(formFields(form));
  if (!parsed.success) return reply({ form: "feedback", ok: false, field: null, message: "Unknown form." }, 400);
  const input = parsed.data;
  if (input.intent === "feedback") {
    try {
      await feedback.submitFeedback(user.id, { message: input.message, rating: input.rating, pageUrl: input.pageUrl });
    } catch (error) {
      return refused("feedback", error);
    }
    return reply({ form: "feedback", ok: true, field: null, message: "Thank you! Your feedback was sent to the team." });
  }
  try {
    await feedback.submitBugReport(user.id, {
      description: input.description,
      pageUrl: input.pageUrl,
      // The browser fills this in; without JavaScript the request's own header says the same.
      userAgent: input.userAgent ?? request.headers.get("user-agent"),
    });
  } catch (error) {
    return refused("bug", error);
  }
  return reply({ form: "bug", ok: true, field: null, message: "Thank you! The bug report was sent. We read every one." });
}
