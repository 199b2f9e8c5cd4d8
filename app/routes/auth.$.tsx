// Shopify OAuth and session-token bounce paths (/auth/*), handled by the library.
import type { HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useRouteError } from "@remix-run/react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { authenticate } from "~/shopify.server";
import { EmbeddedShellError } from "~/ui/embedded-error";

export async function loader({ request }: LoaderFunctionArgs) {
  await authenticate.admin(request);
  return null;
}

// The library's thrown Responses (bounce page, exit-iframe page) must render as they are.
export function ErrorBoundary() {
  return <EmbeddedShellError error={useRouteError()} />;
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
