// One measured load phase against a bench server (bench/api.ts, bench/api-postgres.ts): autocannon's clients cycling
// through a list of requests, first `warmSeconds` unmeasured (V8 compiles the hot paths under load), then `seconds`
// measured: req/s, p50/p95/p99 of the answers and the server's CPU milliseconds a request (all its processes), and,
// given a count of the database's transactions, how many each request made.
import { cpuSeconds } from "./cpu-profile";

export interface Figures {
  /** The server's CPU milliseconds a request (all its processes): steady on a shared machine, where req/s is not. */
  cpuMs: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
}

export type BenchRequest = { method: string; path: string; headers?: Record<string, string>; body?: string };

export const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);

export function createLoadPhases(options: { base: string; connections: number; seconds: number; warmSeconds: number; labelWidth?: number }) {
  /** Load for `seconds` from the clients, cycling through `requests`; the answers' times and statuses. */
  async function load(seconds: number, requests: BenchRequest[]) {
    const times: number[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    // @ts-expect-error autocannon ships no type declarations
    const { default: autocannon } = await import("autocannon");
    const run = autocannon({
      url: options.base,
      connections: options.connections,
      duration: seconds,
      requests: [{ setupRequest: (request: object) => ({ ...request, ...requests[next++ % requests.length] }) }],
    });
    run.on("response", (_client: unknown, status: number, _bytes: number, time: number) => {
      times.push(time);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    });
    const result = (await run) as { errors: number };
    return { times, statuses, errors: result.errors };
  }

  /** One measured phase, printed on a line, after the same load unmeasured. */
  async function phase(label: string, serverPid: number, requests: BenchRequest[], transactions?: () => Promise<number>): Promise<Figures> {
    await load(options.warmSeconds, requests);
    const cpuBefore = cpuSeconds(serverPid);
    const transactionsBefore = await transactions?.();
    const { times, statuses, errors } = await load(options.seconds, requests);
    const perRequest = transactions && transactionsBefore !== undefined ? ((await transactions()) - transactionsBefore) / Math.max(1, times.length) : null;
    const sorted = times.sort((a, b) => a - b);
    const cpuMs = ((cpuSeconds(serverPid) - cpuBefore) * 1000) / Math.max(1, times.length);
    const f = { cpuMs, rps: times.length / options.seconds, p50: pct(sorted, 50), p95: pct(sorted, 95), p99: pct(sorted, 99) };
    console.log(
      `  ${label.padEnd(options.labelWidth ?? 44)} ${f.rps.toFixed(0).padStart(6)} req/s   ${cpuMs.toFixed(2).padStart(5)} CPU ms/req   p50 ${f.p50.toFixed(1).padStart(6)} ms   p95 ${f.p95.toFixed(1).padStart(6)} ms   p99 ${f.p99.toFixed(1).padStart(6)} ms   statuses ${JSON.stringify(Object.fromEntries(statuses))}, errors ${errors}` +
        (perRequest === null ? "" : `, ${perRequest.toFixed(2)} database transactions a request`),
    );
    return f;
  }

  return { load, phase };
}
