// /dashboard/ai-ads: AI video ads. Pick a product (or come from a product's "Create AI ad"), get a
// script, edit its scenes, render the video for credits and watch it. The page (app/ui/ai-ads/ai-ads-page.tsx)
// and its loader and action (app/pages/ai-ads/ai-ads.server.ts) are the same in Shopify admin (/app/ai-ads).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { aiAdsPageAction, loadAiAdsPage } from "~/pages/ai-ads/ai-ads.server";
import { requireUser } from "~/pages/http/site-session.server";
import { AiAdsPage } from "~/ui/ai-ads/ai-ads-page";

export const meta: MetaFunction = () => [{ title: "AI ads · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  return loadAiAdsPage(await requireUser(request), request, "site");
}

export async function action({ request }: ActionFunctionArgs) {
  return aiAdsPageAction(request, await requireUser(request));
}

export default function DashboardAiAds() {
  return <AiAdsPage data={useLoaderData<typeof loader>()} surface="site" />;
}
