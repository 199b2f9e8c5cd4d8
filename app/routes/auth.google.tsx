// POST /auth/google: the Firebase ID token from the Google popup, verified here. Answers JSON so the
// button can show the seed's new_user / existing_user outcomes as sentences.
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { findPlan, isValidPlanChoice } from "~/domain/billing/plans";
import { handleServiceErrors, readJsonOrNull } from "~/pages/http/http.server";
import { createUserSession } from "~/pages/http/site-session.server";
import { googleSignIn } from "~/services/index.server";

const BodySchema = z.object({
  idToken: z.string().min(20, "idToken is missing").max(8192),
  mode: z.enum(["signin", "signup"], { error: "mode must be signin or signup" }),
  plan: z.string().max(40).optional(),
  billing: z.string().max(40).optional(),
});

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Use POST." }, { status: 405 });
  if (!googleSignIn.enabled) {
    return Response.json({ error: "Google sign-in is not enabled on this site." }, { status: 404 });
  }
  const raw = await readJsonOrNull(request);
  const parsed = BodySchema.safeParse(raw);
  if (!parsed.success) {
    return Response.json({ error: parsed.error.issues[0]?.message ?? "Invalid request." }, { status: 400 });
  }
  const { idToken, mode, plan } = parsed.data;
  const billing = parsed.data.billing ?? findPlan(plan)?.billing;
  if (plan && !isValidPlanChoice(plan, billing)) {
    return Response.json({ error: "Choose one of the plans shown on the plans page." }, { status: 400 });
  }

  const result = await handleServiceErrors(() => googleSignIn.signIn(idToken, mode));
  const cookie = await createUserSession(result.userId, request);
  let redirectTo = "/dashboard?location=dashboard";
  if (mode === "signup") {
    redirectTo = plan
      ? `/pay?${new URLSearchParams({ plan, billing: billing ?? "" })}`
      : `/choose-plan?${new URLSearchParams({ email: result.email })}`;
  }
  return Response.json({ ok: true, redirectTo, created: result.created }, { headers: { "Set-Cookie": cookie } });
}

export function loader() {
  return Response.json({ error: "Use POST with a Google ID token." }, { status: 405 });
}
