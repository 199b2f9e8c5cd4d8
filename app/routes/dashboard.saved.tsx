// /dashboard/saved: saved products, tracked products with the change since tracking, and saved
// searches. The page (app/ui/research/saved-page.tsx) and its loader and action
// (app/pages/research/research.server.ts) are the same as in Shopify admin (/app/saved).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireUser } from "~/pages/http/site-session.server";
import { loadSaved, savedAction } from "~/pages/research/research.server";
import { SavedPage } from "~/ui/research/saved-page";

export const meta: MetaFunction = () => [{ title: "Saved · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  return loadSaved(await requireUser(request));
}

export async function action({ request }: ActionFunctionArgs) {
  return savedAction(request, await requireUser(request));
}

export default function DashboardSaved() {
  return <SavedPage data={useLoaderData<typeof loader>()} surface="site" />;
}
