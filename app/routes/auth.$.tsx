// Shopify OAuth and session-token bounce paths (/auth/*), handled by the library.
import type { HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useRouteError } from "@remix-run/react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { getEnv } from "~/env.server";
import { refuseMalformedHost, requireShopifyAdmin } from "~/pages/http/embedded-session.server";
import { EmbeddedShellError } from "~/ui/shared/embedded-error";

export async function loader({ request }: LoaderFunctionArgs) {
  refuseMalformedHost(request);
  if (new URL(request.url).pathname === EXIT_IFRAME_PATH) refuseForeignExitDestination(request);
  await requireShopifyAdmin(request);
  return null;
}

const EXIT_IFRAME_PATH = "/auth/exit-iframe";

/**
 * /auth/exit-iframe sends the top window to ?exitIframe=: only to our own pages or Shopify admin, over
 * https. These are the library's own rules (isTrustedExitIframeDestination, sanitizeRedirectUrl), which it
 * enforces by throwing an Error, a 500; checked here first, anything else is a 400 with a sentence.
 */
function refuseForeignExitDestination(request: Request) {
  const destination = new URL(request.url).searchParams.get("exitIframe") ?? "";
  const env = getEnv();
  const app = new URL(env.SHOPIFY_APP_URL ?? env.APP_URL ?? request.url).origin;
  // The library's sanitizeRedirectUrl also refuses whitespace, "///", "//" or "\\" in the path, and http.
  const target =
    destination.trim() !== "" && !/\s|\/\/\//.test(destination) && URL.canParse(destination, app) ? new URL(destination, app) : null;
  const trusted =
    target !== null &&
    target.protocol === "https:" &&
    !/[/\\][/\\]/.test(target.pathname) &&
    (target.origin === app ||
      (target.port === "" &&
        (target.hostname === "admin.shopify.com" ||
          (/\.myshopify\.com$/i.test(target.hostname) && /^\/admin(\/|$)/.test(target.pathname)))));
  if (!trusted) {
    throw Response.json(
      { error: "That exit-iframe destination is not Winning Products or Shopify admin, so we will not send you there." },
      { status: 400 },
    );
  }
}

// The library's thrown Responses (bounce page, exit-iframe page) must render as they are.
export function ErrorBoundary() {
  return <EmbeddedShellError error={useRouteError()} />;
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
