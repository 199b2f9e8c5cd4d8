// Error boundaries report through ~/ui/error-report (docs/decisions/027): nothing on the server or without a
// DSN; with a DSN, errors caught before Sentry has loaded wait (20 at most) and are sent once it registers;
// responses such as a 404 are never reported.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

async function fresh(dsn: string | null) {
  vi.resetModules();
  vi.stubGlobal("document", {});
  vi.stubGlobal("window", { ENV: { SENTRY_DSN: dsn } });
  return import("~/ui/shared/error-report");
}

beforeEach(() => vi.unstubAllGlobals());
afterEach(() => vi.unstubAllGlobals());

describe("reportBoundaryError", () => {
  it("keeps errors caught before Sentry loads and sends them, then reports at once", async () => {
    const { reportBoundaryError, setBoundaryErrorReporter } = await fresh("https://key@o1.ingest.sentry.io/1");
    const early = new Error("before Sentry loaded");
    reportBoundaryError(early);
    reportBoundaryError(new Response("Not found", { status: 404 }));
    const sent: Error[] = [];
    setBoundaryErrorReporter((e) => sent.push(e));
    expect(sent).toEqual([early]);
    const later = new Error("after");
    reportBoundaryError(later);
    expect(sent).toEqual([early, later]);
  });

  it("keeps at most 20 waiting errors", async () => {
    const { reportBoundaryError, setBoundaryErrorReporter } = await fresh("https://key@o1.ingest.sentry.io/1");
    for (let i = 0; i < 25; i++) reportBoundaryError(new Error(`e${i}`));
    const sent: Error[] = [];
    setBoundaryErrorReporter((e) => sent.push(e));
    expect(sent.map((e) => e.message)).toEqual(Array.from({ length: 20 }, (_, i) => `e${i}`));
  });

  it("keeps nothing without a DSN, and does nothing on the server", async () => {
    const noDsn = await fresh(null);
    noDsn.reportBoundaryError(new Error("no DSN"));
    const sent: Error[] = [];
    noDsn.setBoundaryErrorReporter((e) => sent.push(e));
    expect(sent).toEqual([]);

    vi.resetModules();
    vi.unstubAllGlobals();
    const server = await import("~/ui/shared/error-report");
    const onServer: Error[] = [];
    server.setBoundaryErrorReporter((e) => onServer.push(e));
    server.reportBoundaryError(new Error("server"));
    expect(onServer).toEqual([]);
  });
});
