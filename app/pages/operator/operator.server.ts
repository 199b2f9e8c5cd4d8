// /dashboard/operator (site only): the operator inbox's loader and action. Only users with isOperator (set by
// `npm run operator -- EMAIL`); everyone else gets 404, as if the page did not exist. The inbox's two status
// forms are read with zod (StatusChange); the observed stores' four forms are operator-stores-page.server.ts's.
// Every answer is `{ ok, message }`, with a 4xx status when it was refused.
import { data } from "@remix-run/node";
import { z } from "zod";
import { BUG_STATUSES, FEEDBACK_STATUSES } from "~/domain/feedback";
import { handleServiceErrors, readForm } from "~/pages/http/http.server";
import { loadObservedStores, observedStoresAction, STORE_INTENTS } from "~/pages/operator/stores.server";
import type { User } from "~/services/accounts/auth.server";
import { feedback } from "~/services/index.server";

const StatusChange = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("bug-status"), id: z.coerce.number().int().positive(), status: z.enum(BUG_STATUSES) }),
  z.object({ intent: z.literal("feedback-status"), id: z.coerce.number().int().positive(), status: z.enum(FEEDBACK_STATUSES) }),
]);

export type OperatorActionResult = { ok: boolean; message: string };

export async function loadOperatorPage(user: User) {
  await handleServiceErrors(() => feedback.requireOperator(user.id));
  const [inbox, observed] = await Promise.all([feedback.listInbox(), loadObservedStores()]);
  return { inbox, observed };
}

export type OperatorPageData = Awaited<ReturnType<typeof loadOperatorPage>>;

export async function operatorPageAction(request: Request, user: User) {
  await handleServiceErrors(() => feedback.requireOperator(user.id));
  const form = await readForm(request);
  if ((STORE_INTENTS as readonly string[]).includes(String(form.get("intent")))) return observedStoresAction(form);
  const parsed = StatusChange.safeParse(Object.fromEntries(form));
  if (!parsed.success) return data({ ok: false, message: "That status change is not valid." }, { status: 400 });
  const change = parsed.data;
  const found =
    change.intent === "bug-status"
      ? await feedback.setBugStatus(change.id, change.status)
      : await feedback.setFeedbackStatus(change.id, change.status);
  const what = change.intent === "bug-status" ? "bug report" : "feedback";
  if (!found) return data({ ok: false, message: `There is no ${what} #${change.id}.` }, { status: 404 });
  return { ok: true, message: `${change.intent === "bug-status" ? "Bug report" : "Feedback"} #${change.id} is now "${change.status}".` };
}
