// What an embedded page shows for an error it does not handle itself: Shopify's library answers some
// requests with a thrown Response carrying HTML (the bounce page that fetches a new session token, the
// exit-iframe page), which must render as it is so the admin can re-authenticate the iframe.
// boundary.error recognises those by their class name, which the production build minifies in the
// browser (it then rethrows during hydration and the merchant sees "Error 200" with the page's HTML as
// text); isRouteErrorResponse checks the shape instead, so the browser renders what the server rendered.
import { isRouteErrorResponse } from "@remix-run/react";
import { boundary } from "@shopify/shopify-app-remix/server";

export function EmbeddedShellError({ error }: { error: unknown }) {
  // Our own refusals ({ error: sentence }, e.g. 503 when Shopify cannot be reached) are shown as text.
  if (isRouteErrorResponse(error) && typeof (error.data as { error?: unknown } | null)?.error === "string") {
    return <p style={{ padding: 16 }}>{(error.data as { error: string }).error}</p>;
  }
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
