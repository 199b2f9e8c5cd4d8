// Seed call (its spelling kept): POST /api/feature-credits/substract?uid= { feature } -> { feature, cost,
// remaining, unlimited }. 402 with { upsell: true } when the balance does not cover the cost. An
// Idempotency-Key header makes a retried request charge once.
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { CREDIT_FEATURES } from "~/domain/billing/plans";
import { requireUidMatch } from "~/pages/http/site-session.server";
import { credits } from "~/services/index.server";
import { handleServiceErrors, methodNotAllowed, readJson } from "~/pages/http/http.server";

const Body = z.object({
  feature: z.enum(CREDIT_FEATURES, { error: `must be one of ${CREDIT_FEATURES.join(", ")}` }),
});

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUidMatch(request);
  const { feature } = await readJson(request, Body);
  const key = request.headers.get("idempotency-key");
  if (key !== null && !/^[A-Za-z0-9_.:-]{8,100}$/.test(key)) {
    return Response.json({ error: "Idempotency-Key must be 8-100 letters, digits or ._:-" }, { status: 400 });
  }
  const result = await handleServiceErrors(() =>
    credits.spend({
      userId: user.id,
      feature,
      idempotencyKey: key ? `api:${user.id}:${key}` : undefined,
      reason: "api/feature-credits/substract",
    }),
  );
  return Response.json({ feature: result.feature, cost: result.cost, remaining: result.remaining, unlimited: result.unlimited });
}

export function loader() {
  return methodNotAllowed("POST");
}
