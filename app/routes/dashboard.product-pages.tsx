// /dashboard/product-pages: the user's product pages, and ?page={id} in the editor with a live preview
// and push to a store. The page (app/ui/product-pages/product-pages-page.tsx) and its loader and action
// (app/pages/product-pages/product-pages.server.ts) are the same as in Shopify admin (/app/product-pages).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireUser } from "~/pages/http/site-session.server";
import { loadProductPagesPage, productPagesPageAction } from "~/pages/product-pages/product-pages.server";
import { ProductPagesPage } from "~/ui/product-pages/product-pages-page";

export const meta: MetaFunction = () => [{ title: "Product pages · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  return loadProductPagesPage(await requireUser(request));
}

export async function action({ request }: ActionFunctionArgs) {
  return productPagesPageAction(request, await requireUser(request));
}

export default function DashboardProductPages() {
  return <ProductPagesPage data={useLoaderData<typeof loader>()} surface="site" />;
}
