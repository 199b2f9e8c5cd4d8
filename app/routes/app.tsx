// The embedded Shopify admin surface. authenticate.admin validates Shopify's session token (or
// bounces to get one) and exchanges it for an offline token when the shop has none yet. A shop not yet
// linked to a site user sees only the linking screen (/app/link, docs/decisions/014).
import type { HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useLocation, useRouteError } from "@remix-run/react";
import { NavMenu } from "@shopify/app-bridge-react";
import { AppProvider } from "@shopify/shopify-app-remix/react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { getEnv } from "~/env.server";
import { linkScreenUrl, requireShop } from "~/pages/http/embedded-session.server";
import { loadNotificationsBell } from "~/pages/notifications/notifications.server";
import { EmbeddedShellError } from "~/ui/shared/embedded-error";
import { EMBEDDED_PAGES } from "~/ui/shared/embedded-pages";
import { NotificationsBell } from "~/ui/shared/notifications-bell";

const LINK_PATH = "/app/link";

export async function loader({ request }: LoaderFunctionArgs) {
  const { linkedUserId } = await requireShop(request);
  if (!linkedUserId && new URL(request.url).pathname !== LINK_PATH) throw redirect(linkScreenUrl(request));
  return {
    apiKey: getEnv().SHOPIFY_API_KEY,
    // The bell of the linked user (none on the linking screen of a shop not linked yet).
    notifications: linkedUserId ? await loadNotificationsBell(linkedUserId) : null,
  };
}

export default function EmbeddedApp() {
  const { apiKey, notifications } = useLoaderData<typeof loader>();
  const linking = useLocation().pathname === LINK_PATH;
  return (
    <AppProvider isEmbeddedApp apiKey={apiKey}>
      {linking ? null : (
        <NavMenu>
          <Link to="/app" rel="home">
            Home
          </Link>
          {EMBEDDED_PAGES.map((page) => (
            <Link key={page.url} to={page.url}>
              {page.title}
            </Link>
          ))}
        </NavMenu>
      )}
      {linking || !notifications ? null : (
        <div style={{ display: "flex", justifyContent: "flex-end", padding: "8px 16px 0" }}>
          <NotificationsBell data={notifications} surface="embedded" />
        </div>
      )}
      <Outlet />
    </AppProvider>
  );
}

// Shopify needs its own error boundary and headers so the admin can re-authenticate the iframe.
export function ErrorBoundary() {
  return <EmbeddedShellError error={useRouteError()} />;
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
