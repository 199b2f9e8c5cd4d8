// The Glitch mode page's loader and action, shared by the site (/dashboard/glitch-mode) and the
// embedded app (/app/glitch-mode). Each surface's route authenticates its own way and hands the user
// over; from there both run exactly this. The rules are the glitch mode service's (docs/decisions/018);
// the JSON API (/api/glitch-mode) answers the same from the same service.
import { data } from "@remix-run/node";
import { z } from "zod";
import { expectedFailure } from "~/pages/http/form-errors.server";
import { parseGlitchListQuery } from "~/domain/glitch-mode/glitch";
import { QueryError } from "~/domain/products/product-query";
import { readForm } from "~/pages/http/http.server";
import type { User } from "~/services/accounts/auth.server";
import type { GlitchView, Revealed } from "~/services/glitch-mode.server";
import { glitchMode } from "~/services/index.server";

/**
 * The ranked list at ?page= (12 a page), the user's revealed glitches and balance. A page number that
 * is not one is named in the answer (400) and the first page is shown under it.
 */
export async function loadGlitchModePage(request: Request, user: User) {
  try {
    const { page } = parseGlitchListQuery(new URL(request.url).searchParams);
    return { ...(await glitchMode.list(user, page)), error: null };
  } catch (error) {
    if (!(error instanceof QueryError)) throw error;
    const first = await glitchMode.list(user, 1);
    return data({ ...first, error: { param: error.param, message: error.message } }, { status: 400 });
  }
}

/** What the reveal button gets back. */
export interface GlitchModeActionResult {
  ok: boolean;
  message: string;
  /** The credits upsell: shown with a link to buy credits. */
  upsell: boolean;
  glitch: GlitchView | null;
}

const RevealForm = z.object({
  intent: z.literal("reveal", { error: "intent must be reveal." }),
  objectID: z.string().trim().min(1).max(120),
});

function result(status: number, body: Partial<GlitchModeActionResult> & { ok: boolean; message: string }) {
  return data<GlitchModeActionResult>({ upsell: false, glitch: null, ...body }, { status });
}

/** Reveal one glitch (1 credit the first time, free after). */
export async function glitchModePageAction(request: Request, user: User) {
  const form = RevealForm.safeParse(Object.fromEntries(await readForm(request)));
  if (!form.success) {
    const issue = form.error.issues[0];
    const field = String(issue?.path[0] ?? "intent");
    return result(400, { ok: false, message: field === "intent" ? (issue?.message ?? "Unknown action.") : `${field} is not valid.` });
  }
  let outcome: Revealed;
  try {
    outcome = await glitchMode.reveal(user, form.data.objectID);
  } catch (error) {
    const failure = expectedFailure(error);
    return result(failure.status, { ok: false, message: failure.message, upsell: failure.status === 402 && failure.details.upsell === true });
  }
  return result(200, {
    ok: true,
    message: outcome.charged ? `Revealed ${outcome.glitch.title} for 1 credit.` : `${outcome.glitch.title} was already revealed: no credit spent.`,
    glitch: outcome.glitch,
  });
}
