// One followed store inside Shopify admin: the same page as /dashboard/competitors/{id} (one page component,
// one loader and action), for the user the shop is linked to.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { competitorsPageAction, loadCompetitorStorePage } from "~/pages/competitors/competitors.server";
import { requireEmbeddedUser } from "~/pages/http/embedded-session.server";
import { CompetitorStorePage } from "~/ui/competitors/competitor-store-page";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.detail.name ?? "Competitor"} · Winning Products` },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user } = await requireEmbeddedUser(request);
  return loadCompetitorStorePage(request, user, params.id, "embedded");
}

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireEmbeddedUser(request);
  return competitorsPageAction(request, user);
}

export default function EmbeddedCompetitorStore() {
  return <CompetitorStorePage data={useLoaderData<typeof loader>()} surface="embedded" />;
}
