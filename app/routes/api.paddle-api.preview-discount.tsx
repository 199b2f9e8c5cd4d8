// Seed call: POST /api/paddle-api/preview-discount?uid= { subscriptionId } -> { currencyCode,
// formattedTotals: { total } } for the next cycle with the retention offer.
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requireUidMatch } from "~/pages/http/site-session.server";
import { billing } from "~/services/index.server";
import { handleServiceErrors, methodNotAllowed, readJson } from "~/pages/http/http.server";

const Body = z.object({ subscriptionId: z.string({ error: "is required" }).min(1, "is required").max(100) });

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUidMatch(request);
  const { subscriptionId } = await readJson(request, Body);
  return Response.json(await handleServiceErrors(() => billing.previewDiscount(user, subscriptionId)));
}

export function loader() {
  return methodNotAllowed("POST");
}
