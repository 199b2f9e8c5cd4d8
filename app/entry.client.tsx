import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";

// Sentry's client (~115 KB of script) is fetched only when a DSN is configured, and without holding
// hydration back, so it never delays a page's first paint (docs/decisions/027). Error boundaries report
// through ~/ui/error-report, which keeps what they catch until Sentry has loaded.
const dsn = window.ENV?.SENTRY_DSN;
if (dsn) void import("~/ui/shared/sentry-client").then(({ startSentry }) => startSentry(dsn));

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  );
});
