// /dashboard/brand-kits: the seller's brand kits (name, logo, colours, font, tagline, tone of voice; one is the
// default) that AI ads and product pages use. The page (app/ui/ai-ads/brand-kits-page.tsx) and its loader and action
// (app/pages/ai-ads/brand-kits.server.ts) are the same in Shopify admin (/app/brand-kits).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { brandKitsPageAction, loadBrandKitsPage } from "~/pages/ai-ads/brand-kits.server";
import { requireUser } from "~/pages/http/site-session.server";
import { BrandKitsPage } from "~/ui/ai-ads/brand-kits-page";

export const meta: MetaFunction = () => [{ title: "Brand kits · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  return loadBrandKitsPage(await requireUser(request), "site");
}

export async function action({ request }: ActionFunctionArgs) {
  return brandKitsPageAction(request, await requireUser(request));
}

export default function DashboardBrandKits() {
  return <BrandKitsPage data={useLoaderData<typeof loader>()} surface="site" />;
}
