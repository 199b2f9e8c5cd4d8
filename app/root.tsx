import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  redirect,
  ScrollRestoration,
  useLoaderData,
  useLocation,
  useRouteError,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { useEffect } from "react";
import { siteGuardRedirect } from "~/domain/accounts/site-guard";
import { publicEnv } from "~/env.server";
import { getUser } from "~/pages/http/site-session.server";
import { reportBoundaryError } from "~/ui/shared/error-report";
import { trackPageViews } from "~/ui/shared/page-analytics";
import { ScriptsAfterFirstPaint } from "~/ui/shared/scripts-after-paint";
import appStyles from "~/ui/app.css?url";

export const SITE_NAME = "Winning Products";
export const SITE_DESCRIPTION =
  "Find winning and trending products for your store, with the evidence behind every number: orders, engagement, margins and saturation, plus AI video ads and a full dropshipping course.";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: polarisStyles },
  { rel: "stylesheet", href: appStyles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [
  { title: `${SITE_NAME} · Product research for dropshipping and e-commerce sellers` },
  { name: "description", content: SITE_DESCRIPTION },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getUser(request);
  const url = new URL(request.url);
  const target = siteGuardRedirect({
    pathname: url.pathname,
    searchParams: url.searchParams,
    signedIn: Boolean(user),
    hasSubscriptionId: Boolean(user?.subscription_id),
  });
  if (target) throw redirect(target);
  return { signedIn: Boolean(user), env: publicEnv() };
}

// The guard must see every navigation, not only the first document request.
export const shouldRevalidate: ShouldRevalidateFunction = () => true;

const ORGANIZATION_JSON_LD = JSON.stringify({
  "@context": "https://schema.org",
  "@type": "Organization",
  name: SITE_NAME,
  description: SITE_DESCRIPTION,
  areaServed: { "@type": "AdministrativeArea", name: "Ontario" },
  knowsLanguage: "en",
});

export function Layout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
        <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: ORGANIZATION_JSON_LD }} />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <ScriptsAfterFirstPaint />
      </body>
    </html>
  );
}

export default function App() {
  const data = useLoaderData<typeof loader>();
  const location = useLocation();
  useEffect(() => trackPageViews(location.pathname + location.search), [location.pathname, location.search]);
  return (
    <>
      <script
        // Only values chosen by publicEnv() reach the browser.
        dangerouslySetInnerHTML={{ __html: `window.ENV = ${JSON.stringify(data.env).replace(/</g, "\\u003c")}` }}
      />
      <Outlet />
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  reportBoundaryError(error);
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message = isRouteErrorResponse(error)
    ? typeof error.data === "string"
      ? error.data
      : (error.data?.error ?? error.statusText)
    : "Something went wrong on our side. It has been reported; please try again.";
  return (
    <main className="site-error">
      <h1>{status === 404 ? "Page not found" : `Error ${status}`}</h1>
      <p>{status === 404 ? "There is nothing at this address." : message}</p>
      <p>
        <a href="/">Back to the home page</a>
      </p>
    </main>
  );
}
