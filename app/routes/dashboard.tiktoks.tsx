// /dashboard/tiktoks: the TikTok videos the seller saved against products (with a note, title, author and
// thumbnail from TikTok), add and remove. The page (app/ui/ai-ads/tiktoks-page.tsx) and its loader and action
// (app/pages/ai-ads/tiktoks.server.ts) are the same in Shopify admin (/app/tiktoks).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireUser } from "~/pages/http/site-session.server";
import { loadTikToksPage, tiktoksPageAction } from "~/pages/ai-ads/tiktoks.server";
import { TikToksPage } from "~/ui/ai-ads/tiktoks-page";

export const meta: MetaFunction = () => [{ title: "TikToks · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  return loadTikToksPage(await requireUser(request), request);
}

export async function action({ request }: ActionFunctionArgs) {
  return tiktoksPageAction(request, await requireUser(request));
}

export default function DashboardTikToks() {
  return <TikToksPage data={useLoaderData<typeof loader>()} surface="site" />;
}
