// /dashboard/products/{objectID}: one product with its evidence. The page (app/ui/research/product-detail-page.tsx)
// and its loader and action (app/pages/research/research.server.ts) are the same as in Shopify admin
// (/app/products/{objectID}). An unknown objectID is a 404 inside the dashboard frame.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, useLoaderData, useRouteError } from "@remix-run/react";
import { requireUser } from "~/pages/http/site-session.server";
import { loadProductDetail, productDetailAction } from "~/pages/research/research.server";
import { reportBoundaryError } from "~/ui/shared/error-report";
import { ProductDetailPage, ProductErrorPage, productMeta } from "~/ui/research/product-detail-page";

export const meta: MetaFunction<typeof loader> = ({ data }) => productMeta(data);

export async function loader({ request, params }: LoaderFunctionArgs) {
  return loadProductDetail(params.objectID, await requireUser(request));
}

export async function action({ request, params }: ActionFunctionArgs) {
  return productDetailAction(request, params.objectID, await requireUser(request));
}

export default function DashboardProduct() {
  return <ProductDetailPage data={useLoaderData<typeof loader>()} surface="site" />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const missing = isRouteErrorResponse(error) && error.status === 404;
  if (!missing) reportBoundaryError(error);
  return <ProductErrorPage missing={missing} surface="site" />;
}
