// The account page of the site (/dashboard/account) and its data download (/dashboard/account/data):
// form handling around app/services/accounts/account.server.ts. Each form carries an `intent`; an expected
// failure comes back as { intent, error, field } with its status, shown next to the form it came from.
import { data, redirect } from "@remix-run/node";
import { z } from "zod";
import { AppError } from "~/domain/errors";
import { apiKeysSection } from "~/pages/accounts/api-keys.server";
import { expectedFailure } from "~/pages/http/form-errors.server";
import { errorHeaders, readForm } from "~/pages/http/http.server";
import type { User } from "~/services/accounts/auth.server";
import { currentSessionId, logout } from "~/pages/http/site-session.server";
import { account, auth } from "~/services/index.server";

export const ACCOUNT_INTENTS = ["change-password", "change-email", "delete-account", "sign-out-everywhere"] as const;
export type AccountIntent = (typeof ACCOUNT_INTENTS)[number];

export interface AccountOutcome {
  intent: AccountIntent | null;
  error: string | null;
  /** The input the error is about, so the page can show it beside that field. */
  field: string | null;
  message: string | null;
}

/** Where the site sends a deleted account: the landing page, which says goodbye. */
export const GOODBYE_URL = "/?goodbye=1";

export async function loadAccountPage(user: User) {
  const [overview, apiKeys] = await Promise.all([account.overview(user.id), apiKeysSection(user)]);
  return { ...overview, apiKeys };
}

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : undefined;
};

function failed(intent: AccountIntent | null, error: AppError) {
  const field = typeof error.details.field === "string" ? error.details.field : null;
  return data<AccountOutcome>({ intent, error: error.message, field, message: null }, { status: error.status, headers: errorHeaders(error) });
}

export async function accountPageAction(request: Request, user: User) {
  // A body-less POST is what the page's first form sent (sign out everywhere, before intents existed).
  const form = await readForm(request);
  const parsed = z.enum(ACCOUNT_INTENTS).safeParse(form.get("intent") ?? "sign-out-everywhere");
  if (!parsed.success) return failed(null, new AppError(400, "Unknown action."));
  const intent = parsed.data;
  const done = (message: string): AccountOutcome => ({ intent, error: null, field: null, message });
  try {
    switch (intent) {
      case "change-password": {
        const { endedSessions } = await account.changePassword(user.id, {
          currentPassword: text(form, "currentPassword"),
          newPassword: text(form, "newPassword"),
          keepSessionId: await currentSessionId(request),
        });
        return done(
          endedSessions > 0
            ? `Your password is changed. ${endedSessions === 1 ? "One other device was" : `${endedSessions} other devices were`} signed out; this one stays signed in.`
            : "Your password is changed. This device stays signed in.",
        );
      }
      case "change-email": {
        const { pendingEmail } = await account.changeEmail(user.id, {
          password: text(form, "password"),
          newEmail: text(form, "newEmail"),
        });
        return done(
          `We have sent a link to ${pendingEmail}. Open it to make it your log-in address; until then you keep logging in with ${user.email}.`,
        );
      }
      case "delete-account": {
        await account.deleteAccount(user.id, {
          confirmation: text(form, "confirmation"),
          typedWord: text(form, "typedWord"),
        });
        const cookie = await logout(request);
        return redirect(GOODBYE_URL, { headers: { "Set-Cookie": cookie } });
      }
      case "sign-out-everywhere": {
        await auth.revokeAllSessions(user.id);
        const cookie = await logout(request);
        return redirect("/login", { headers: { "Set-Cookie": cookie } });
      }
    }
  } catch (error) {
    return failed(intent, expectedFailure(error));
  }
}

/**
 * POST /dashboard/account/data: the confirmed download of everything we hold about the user, as a JSON
 * attachment. An expected failure (wrong password) answers JSON { error, field } with its status.
 */
export async function downloadAccountData(request: Request, user: User): Promise<Response> {
  const form = await readForm(request);
  try {
    const exported = await account.exportData(user.id, text(form, "confirmation"));
    const day = exported.exportedAt.slice(0, 10);
    return new Response(JSON.stringify(exported, null, 2), {
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": `attachment; filename="winning-products-data-${day}.json"`,
        "Cache-Control": "no-store",
      },
    });
  } catch (error) {
    if (error instanceof AppError) return Response.json(error.toJSON(), { status: error.status, headers: { "Cache-Control": "no-store" } });
    throw error;
  }
}
