// /dashboard/drops: weekly product drops (docs/decisions/030): the countdown to the next one, the drops so far
// with a reveal each (paid states), a revealed drop's products with their reasons. The page
// (app/ui/research/product-drops-page.tsx) and its loader and action (app/pages/research/drops.server.ts) are the
// same as in Shopify admin (/app/drops).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { dropsPageAction, loadDropsPage } from "~/pages/research/drops.server";
import { requireUser } from "~/pages/http/site-session.server";
import { ProductDropsPage } from "~/ui/research/product-drops-page";

export const meta: MetaFunction = () => [{ title: "Product drops · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  return loadDropsPage(request, await requireUser(request));
}

export async function action({ request }: ActionFunctionArgs) {
  return dropsPageAction(request, await requireUser(request));
}

export default function DashboardDrops() {
  return <ProductDropsPage data={useLoaderData<typeof loader>()} surface="site" />;
}
