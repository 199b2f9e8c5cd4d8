// /dashboard/competitors/{id}: one followed store: the estimate, reads, catalogue chart, launches, changes and
// products. The page (app/ui/competitors/competitor-store-page.tsx) and its loader and action
// (app/pages/competitors/competitors.server.ts) are the same in Shopify admin (/app/competitors/{id}).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { competitorsPageAction, loadCompetitorStorePage } from "~/pages/competitors/competitors.server";
import { requireUser } from "~/pages/http/site-session.server";
import { CompetitorStorePage } from "~/ui/competitors/competitor-store-page";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.detail.name ?? "Competitor"} · Winning Products` },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  return loadCompetitorStorePage(request, await requireUser(request), params.id);
}

export async function action({ request }: ActionFunctionArgs) {
  return competitorsPageAction(request, await requireUser(request));
}

export default function DashboardCompetitorStore() {
  return <CompetitorStorePage data={useLoaderData<typeof loader>()} surface="site" />;
}
