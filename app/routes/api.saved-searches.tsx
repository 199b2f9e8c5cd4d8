// GET /api/saved-searches -> { searches: [{ id, name, query, createdAt, lastVisitedAt, alerts }] }: the caller's
// saved searches, with whether each one alerts about new products (docs/decisions/030). Anonymous: 401.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/pages/http/http.server";
import { requireApiUser } from "~/pages/http/site-session.server";
import { products } from "~/services/index.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const searches = (await products.listSavedSearches(user.id)).map(({ alertsEnabled, ...s }) => ({ ...s, alerts: alertsEnabled }));
  return Response.json({ searches }, { headers: { "Cache-Control": "private, no-store" } });
}

export function action() {
  return methodNotAllowed("GET");
}
