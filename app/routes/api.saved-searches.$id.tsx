// PATCH /api/saved-searches/{id} { "alerts": true | false } -> { id, alerts }: turns the search's new-product
// alerts on or off (at most one a day while on; products added while off never alert). Another user's or
// an unknown id: 404; a body without a boolean `alerts`: 400 (docs/decisions/030).
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { handleServiceErrors, methodNotAllowed, readJson } from "~/pages/http/http.server";
import { requireApiUser } from "~/pages/http/site-session.server";
import { savedSearchAlerts } from "~/services/index.server";

const Id = z.coerce.number().int().positive().max(2 ** 31 - 1);
const Body = z.object({ alerts: z.boolean({ error: "must be true or false" }) });

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PATCH") return methodNotAllowed("PATCH");
  const user = await requireApiUser(request);
  const id = Id.safeParse(params.id);
  if (!id.success) return Response.json({ error: "id is not a saved search id." }, { status: 400 });
  const body = await readJson(request, Body);
  return Response.json(await handleServiceErrors(() => savedSearchAlerts.setAlerts(user.id, id.data, body.alerts)));
}

export function loader() {
  return methodNotAllowed("PATCH");
}
