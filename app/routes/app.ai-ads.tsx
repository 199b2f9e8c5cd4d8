// AI ads inside Shopify admin: the same product picker, script editor, render and player as
// /dashboard/ai-ads (one page component, one loader and action), for the user the shop is linked to.
// Its video links are signed (the admin's iframe sends no site cookie; docs/decisions/019).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { aiAdsPageAction, loadAiAdsPage } from "~/pages/ai-ads/ai-ads.server";
import { requireEmbeddedUser } from "~/pages/http/embedded-session.server";
import { AiAdsPage } from "~/ui/ai-ads/ai-ads-page";

export const meta: MetaFunction = () => [{ title: "AI ads · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireEmbeddedUser(request);
  return loadAiAdsPage(user, request, "embedded");
}

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireEmbeddedUser(request);
  return aiAdsPageAction(request, user);
}

export default function EmbeddedAiAds() {
  return <AiAdsPage data={useLoaderData<typeof loader>()} surface="embedded" />;
}
