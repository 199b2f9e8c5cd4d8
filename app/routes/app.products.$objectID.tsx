// One product inside Shopify admin: the same page, loader and action as /dashboard/products/{objectID},
// for the user the shop is linked to. Save and track post here (App Bridge adds the session token).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, useLoaderData, useRouteError } from "@remix-run/react";
import { requireEmbeddedUser } from "~/pages/http/embedded-session.server";
import { loadProductDetail, productDetailAction } from "~/pages/research/research.server";
import { EmbeddedShellError } from "~/ui/shared/embedded-error";
import { ProductDetailPage, ProductErrorPage, productMeta } from "~/ui/research/product-detail-page";

export const meta: MetaFunction<typeof loader> = ({ data }) => productMeta(data);

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user } = await requireEmbeddedUser(request);
  return loadProductDetail(params.objectID, user);
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { user } = await requireEmbeddedUser(request);
  return productDetailAction(request, params.objectID, user);
}

export default function EmbeddedProduct() {
  return <ProductDetailPage data={useLoaderData<typeof loader>()} surface="embedded" />;
}

// A missing product is shown inside the admin page; anything else (re-authentication included) as the
// embedded shell shows it.
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <ProductErrorPage missing surface="embedded" />;
  return <EmbeddedShellError error={error} />;
}
