// Sentry's browser client, imported on demand by app/entry.client.tsx only when a DSN is configured. Named
// imports keep the chunk to what is used (a namespace import of @sentry/remix pulls in ~500 KB).
import { useLocation, useMatches } from "@remix-run/react";
import { browserTracingIntegration, captureException, init } from "@sentry/remix";
import { useEffect } from "react";
import { setBoundaryErrorReporter } from "~/ui/shared/error-report";

export function startSentry(dsn: string): void {
  init({ dsn, tracesSampleRate: 1, integrations: [browserTracingIntegration({ useEffect, useLocation, useMatches })] });
  setBoundaryErrorReporter((error) =>
    captureException(error, { mechanism: { type: "instrument", handled: false, data: { function: "ReactError" } } }),
  );
}
