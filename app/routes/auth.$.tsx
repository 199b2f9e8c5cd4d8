// Shopify OAuth and session-token bounce paths (/auth/*), handled by the library.
import type { HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { authenticate } from "~/shopify.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await authenticate.admin(request);
  return null;
}

export function ErrorBoundary() {
  const error = useRouteError();
  // boundary.error recognises the library's thrown Responses (bounce page, exit-iframe page) by their
  // class name, which the production build minifies in the browser: it then rethrows during hydration
  // and the merchant sees "Error 200" with the page's HTML as text. isRouteErrorResponse checks the
  // shape instead, so the browser renders what the server rendered.
  if (isRouteErrorResponse(error)) {
    return (
      <div
        dangerouslySetInnerHTML={{
          __html: typeof error.data === "string" && error.data ? error.data : "Handling response",
        }}
      />
    );
  }
  return boundary.error(error);
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
