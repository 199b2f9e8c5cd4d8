// Products inside Shopify admin: the same page, loader and action as /dashboard/products, for the
// user the shop is linked to. Search state lives in the URL as on the site.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireEmbeddedUser } from "~/pages/http/embedded-session.server";
import { loadProductGrid, productGridAction } from "~/pages/research/research.server";
import { ProductsPage, productsMeta } from "~/ui/research/products-page";

export const meta: MetaFunction<typeof loader> = ({ data }) => productsMeta(data);

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireEmbeddedUser(request);
  return loadProductGrid(request, user, "embedded");
}

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireEmbeddedUser(request);
  return productGridAction(request, user);
}

export default function EmbeddedProducts() {
  return <ProductsPage data={useLoaderData<typeof loader>()} surface="embedded" />;
}
