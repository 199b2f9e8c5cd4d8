// Error boundaries report what they catch in the browser through here instead of through @sentry/remix's
// helper: importing that helper put Sentry's whole client into every page's first scripts, DSN or not
// (docs/decisions/027). app/entry.client.tsx loads Sentry on demand only when a DSN is set and then
// registers it with setBoundaryErrorReporter. Errors caught before it has loaded wait for it; with no DSN
// nothing is kept. On the server this does nothing: entry.server's handleError reports server errors.

type Reporter = (error: Error) => void;

let reporter: Reporter | null = null;
const waiting: Error[] = [];
const MAX_WAITING = 20;

function clientDsnConfigured(): boolean {
  return typeof window !== "undefined" && Boolean(window.ENV?.SENTRY_DSN);
}

/** Called by app/entry.client.tsx once Sentry is initialised; sends the errors caught before that. */
export function setBoundaryErrorReporter(next: Reporter): void {
  reporter = next;
  for (const error of waiting.splice(0)) next(error);
}

/** What an ErrorBoundary calls with useRouteError()'s value. Responses (404, 403 …) are not reported. */
export function reportBoundaryError(error: unknown): void {
  if (typeof document === "undefined" || !(error instanceof Error)) return;
  if (reporter) reporter(error);
  else if (clientDsnConfigured() && waiting.length < MAX_WAITING) waiting.push(error);
}

declare global {
  interface Window {
    ENV?: { SENTRY_DSN: string | null };
  }
}
