// Competitors inside Shopify admin: the same followed stores, add form, rename, remove and "Check now" as
// /dashboard/competitors (one page component, one loader and action), for the user the shop is linked to.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { competitorsPageAction, loadCompetitorsPage } from "~/pages/competitors/competitors.server";
import { requireEmbeddedUser } from "~/pages/http/embedded-session.server";
import { CompetitorsPage } from "~/ui/competitors/competitors-page";

export const meta: MetaFunction = () => [{ title: "Competitors · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireEmbeddedUser(request);
  return loadCompetitorsPage(user);
}

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireEmbeddedUser(request);
  return competitorsPageAction(request, user);
}

export default function EmbeddedCompetitors() {
  return <CompetitorsPage data={useLoaderData<typeof loader>()} surface="embedded" />;
}
