import { RemixBrowser, useLocation, useMatches } from "@remix-run/react";
import * as Sentry from "@sentry/remix";
import { startTransition, StrictMode, useEffect } from "react";
import { hydrateRoot } from "react-dom/client";

declare global {
  interface Window {
    ENV?: { SENTRY_DSN: string | null };
  }
}

const dsn = window.ENV?.SENTRY_DSN;
if (dsn) {
  Sentry.init({
    dsn,
    tracesSampleRate: 1,
    integrations: [Sentry.browserTracingIntegration({ useEffect, useLocation, useMatches })],
  });
}

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  );
});
