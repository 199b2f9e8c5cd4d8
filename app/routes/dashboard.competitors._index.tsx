// /dashboard/competitors: the rival stores the user follows, the "Add a competitor" form, rename, remove and
// "Check now". The page (app/ui/competitors/competitors-page.tsx) and its loader and action
// (app/pages/competitors/competitors.server.ts) are the same in Shopify admin (/app/competitors).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { competitorsPageAction, loadCompetitorsPage } from "~/pages/competitors/competitors.server";
import { requireUser } from "~/pages/http/site-session.server";
import { CompetitorsPage } from "~/ui/competitors/competitors-page";

export const meta: MetaFunction = () => [{ title: "Competitors · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  return loadCompetitorsPage(await requireUser(request));
}

export async function action({ request }: ActionFunctionArgs) {
  return competitorsPageAction(request, await requireUser(request));
}

export default function DashboardCompetitors() {
  return <CompetitorsPage data={useLoaderData<typeof loader>()} surface="site" />;
}
