// Product pages inside Shopify admin: the same list, editor, push and delete as /dashboard/product-pages
// (one page component, one loader and action), for the user the shop is linked to.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireEmbeddedUser } from "~/pages/http/embedded-session.server";
import { loadProductPagesPage, productPagesPageAction } from "~/pages/product-pages/product-pages.server";
import { ProductPagesPage } from "~/ui/product-pages/product-pages-page";

export const meta: MetaFunction = () => [{ title: "Product pages · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireEmbeddedUser(request);
  return loadProductPagesPage(user);
}

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireEmbeddedUser(request);
  return productPagesPageAction(request, user);
}

export default function EmbeddedProductPages() {
  return <ProductPagesPage data={useLoaderData<typeof loader>()} surface="embedded" />;
}
