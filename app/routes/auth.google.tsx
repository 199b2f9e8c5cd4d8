// POST /auth/google: the Firebase ID token from the Google popup, verified here. Answers JSON so the
// button can show the seed's new_user / existing_user outcomes as sentences.
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { findPlan, isValidPlanChoice } from "~/domain/plans";
import { getEnv } from "~/env.server";
import { InvalidIdTokenError, verifyFirebaseIdToken } from "~/integrations/firebase.server";
import { auth } from "~/services/index.server";

const BodySchema = z.object({
  idToken: z.string().min(20, "idToken is missing").max(8192),
  mode: z.enum(["signin", "signup"], { error: "mode must be signin or signup" }),
  plan: z.string().max(40).optional(),
  billing: z.string().max(40).optional(),
});

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Use POST." }, { status: 405 });
  const env = getEnv();
  if (!env.FIREBASE_PROJECT_ID) {
    return Response.json({ error: "Google sign-in is not enabled on this site." }, { status: 404 });
  }
  const raw = await request.json().catch(() => null);
  const parsed = BodySchema.safeParse(raw);
  if (!parsed.success) {
    return Response.json({ error: parsed.error.issues[0]?.message ?? "Invalid request." }, { status: 400 });
  }
  const { idToken, mode, plan } = parsed.data;
  const billing = parsed.data.billing ?? findPlan(plan)?.billing;
  if (plan && !isValidPlanChoice(plan, billing)) {
    return Response.json({ error: "Choose one of the plans shown on the plans page." }, { status: 400 });
  }

  let identity;
  try {
    identity = await verifyFirebaseIdToken(idToken, { projectId: env.FIREBASE_PROJECT_ID, jwksUrl: env.FIREBASE_JWKS_URL });
  } catch (error) {
    if (error instanceof InvalidIdTokenError) {
      return Response.json(
        { error: "We couldn't verify your Google sign-in. Try again.", code: "error_3" },
        { status: 401 },
      );
    }
    throw error;
  }

  const result = await auth.googleAuth(identity, mode);
  if (!result.ok) return Response.json({ error: result.message, code: result.code }, { status: result.status });

  const cookie = await auth.createUserSession(result.userId, request);
  let redirectTo = "/dashboard?location=dashboard";
  if (mode === "signup") {
    redirectTo = plan
      ? `/pay?${new URLSearchParams({ plan, billing: billing ?? "" })}`
      : `/choose-plan?${new URLSearchParams({ email: identity.email })}`;
  }
  return Response.json({ ok: true, redirectTo, created: result.created }, { headers: { "Set-Cookie": cookie } });
}

export function loader() {
  return Response.json({ error: "Use POST with a Google ID token." }, { status: 405 });
}
