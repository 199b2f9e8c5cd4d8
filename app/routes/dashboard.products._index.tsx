// /dashboard/products: the product database. The page (app/ui/research/products-page.tsx) and its loader and
// action (app/pages/research/research.server.ts) are the same as in Shopify admin (/app/products).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireUser } from "~/pages/http/site-session.server";
import { loadProductGrid, productGridAction } from "~/pages/research/research.server";
import { ProductsPage, productsMeta } from "~/ui/research/products-page";

export const meta: MetaFunction<typeof loader> = ({ data }) => productsMeta(data);

export async function loader({ request }: LoaderFunctionArgs) {
  return loadProductGrid(request, await requireUser(request));
}

export async function action({ request }: ActionFunctionArgs) {
  return productGridAction(request, await requireUser(request));
}

export default function DashboardProducts() {
  return <ProductsPage data={useLoaderData<typeof loader>()} surface="site" />;
}
