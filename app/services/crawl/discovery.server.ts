// Store discovery (issue 38 item 4, decision 101): the job "crawl.discover" asks each public source (the StoreSource
// port: Common Crawl's URL index, certificate-transparency logs) for candidate Shopify stores, skips the ones we
// already observe, verifies each remaining one politely through the storefront reader's probe (robots.txt first,
// one request a second a host, our User-Agent; decision 088) and puts the verified ones on the operator's list as
// "discovered", at most `budget` a run and at most budget x verifyPerAdd probes a run. Everything not added is a
// skip with its reason (the source's answer, not a store address, already observed, not a Shopify store, ...).
// A discovered store is read like a listed one: first at its own slot of the operator's interval, then by its
// activity tier (app/domain/crawl/read-tier.ts).
import { z } from "zod";
import { isUniqueViolation, retryBusy, type Db } from "~/db.server";
import { nextSlotMs } from "~/domain/competitors/competitors";
import { DISCOVERY_RULES, parseBudget, type StoreSource } from "~/domain/crawl/discovery";
import type { ShopifyStorefront } from "~/integrations/shopify-storefront.server";
import type { Jobs } from "~/services/jobs.server";

export const DISCOVER_JOB = "crawl.discover";
/** Daily at 04:23 UTC, when the budget is not 0. */
export const DISCOVER_SCHEDULE = { name: "store-discovery", pattern: "23 4 * * *" } as const;
export { DISCOVERY_RULES, parseBudget };

export interface DiscoveryDeps {
  db: Db;
  sources: readonly StoreSource[];
  /** The storefront reader's probe: the polite machinery every store read uses (decision 088). */
  storefront: Pick<ShopifyStorefront, "probe">;
  now: () => Date;
  /** The operator's interval, for a discovered store's first slot. */
  operatorIntervalMs: number;
  /** Stores one run adds at most (DISCOVERY_BUDGET); 0 turns discovery off. */
  budget: number;
  log: { info(fields: object, message: string): void; warn(fields: object, message: string): void };
}

export interface DiscoverySkip {
  /** The candidate host, or what of a source's answer was skipped. */
  what: string;
  source: string;
  reason: string;
}

export interface DiscoveryRun {
  budget: number;
  added: { domain: string; source: string }[];
  skipped: DiscoverySkip[];
  sources: { name: string; candidates: number; error: string | null }[];
  /** Candidates probed. */
  verified: number;
  /** Candidates left untried when the budget or the probe allowance ran out (tried again next run). */
  untried: number;
}

async function known(db: Db, host: string): Promise<{ domain: string; origin: string } | null> {
  return db.competitorStore.findFirst({ where: { OR: [{ domain: host }, { fetchDomain: host }] }, select: { domain: true, origin: true } });
}

/** One run: sources asked, candidates verified and added as "discovered" within the budget. */
export async function runDiscovery(deps: DiscoveryDeps, options: { budget?: number } = {}): Promise<DiscoveryRun> {
  const budget = options.budget === undefined ? deps.budget : parseBudget(options.budget);
  const run: DiscoveryRun = { budget, added: [], skipped: [], sources: [], verified: 0, untried: 0 };
  if (budget === 0 || deps.sources.length === 0) return run;
  const skip = (what: string, source: string, reason: string) => {
    if (run.skipped.length < 500) run.skipped.push({ what, source, reason });
  };

  // Every source's candidates, in the sources' order, each host once.
  const candidates: { host: string; source: string }[] = [];
  const namedBy = new Map<string, string>();
  for (const source of deps.sources) {
    let hosts: string[] = [];
    let error: string | null = null;
    try {
      const answer = await source.candidates(budget * DISCOVERY_RULES.candidatesPerAdd);
      hosts = answer.hosts;
      for (const s of answer.skipped) skip(s.what, source.name, s.reason);
      const whole = answer.skipped.find((s) => s.what === source.name);
      if (hosts.length === 0 && whole) error = whole.reason;
    } catch (e) {
      // An adapter never throws for what a source sent; this is our fault or the network's: one skip, not a crash.
      error = `it failed: ${e instanceof Error ? e.message : String(e)}`;
      skip(source.name, source.name, error);
    }
    run.sources.push({ name: source.name, candidates: hosts.length, error });
    for (const host of hosts) {
      const first = namedBy.get(host);
      if (first !== undefined) {
        skip(host, source.name, `a duplicate: ${first} named it too`);
        continue;
      }
      namedBy.set(host, source.name);
      candidates.push({ host, source: source.name });
    }
  }

  const maxProbes = budget * DISCOVERY_RULES.verifyPerAdd;
  for (let i = 0; i < candidates.length; i++) {
    const { host, source } = candidates[i];
    if (run.added.length >= budget || run.verified >= maxProbes) {
      run.untried = candidates.length - i;
      break;
    }
    const already = await known(deps.db, host);
    if (already) {
      skip(host, source, already.origin === "discovered" ? "already discovered" : "already observed (followed or on the operator's list)");
      continue;
    }
    run.verified++;
    let probe: Awaited<ReturnType<ShopifyStorefront["probe"]>>;
    try {
      probe = await deps.storefront.probe(host);
    } catch (e) {
      skip(host, source, `could not be verified: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    if (!probe.ok) {
      skip(host, source, probe.message);
      continue;
    }
    // The catalogue may answer on another host we already observe (a custom domain's *.myshopify.com address).
    const answering = probe.domain !== host ? await known(deps.db, probe.domain) : null;
    if (answering) {
      skip(host, source, `already observed as ${answering.domain}`);
      continue;
    }
    if (await addDiscovered(deps, host, probe.domain, source)) run.added.push({ domain: host, source });
    else skip(host, source, "added by someone else meanwhile");
  }
  deps.log.info(
    { budget, added: run.added.length, verified: run.verified, skipped: run.skipped.length, untried: run.untried, sources: run.sources },
    "store discovery run",
  );
  return run;
}

/** The store row, on the operator's list as discovered, first read at its own slot; false when it exists already. */
async function addDiscovered(deps: DiscoveryDeps, domain: string, fetchDomain: string, source: string): Promise<boolean> {
  const { db, now } = deps;
  try {
    await retryBusy(() =>
      db.$transaction(async (tx) => {
        const created = await tx.competitorStore.create({
          data: { domain, fetchDomain, name: domain, status: "pending", operatorListed: true, origin: "discovered", discoveredFrom: source, createdAt: now() },
          select: { id: true },
        });
        await tx.competitorStore.update({
          where: { id: created.id },
          data: { nextCheckAt: new Date(nextSlotMs(created.id, now().getTime(), deps.operatorIntervalMs)) },
          select: { id: true },
        });
      }),
    );
    return true;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return false;
  }
}

/** What the operator's page shows of discovery: the budget, the sources and how many stores it found. */
export async function discoveryStatus(deps: Pick<DiscoveryDeps, "db" | "budget" | "sources">) {
  const discovered = await deps.db.competitorStore.count({ where: { origin: "discovered" } });
  return { budget: deps.budget, sources: deps.sources.map((s) => s.name), discovered };
}

const zPayload = z.object({ budget: z.number().int().min(0).max(DISCOVERY_RULES.maxBudget).optional() });

/** The job "crawl.discover" and, when the budget is not 0 and there is a source, its daily schedule. */
export function registerDiscoveryJobs(deps: DiscoveryDeps, on: Pick<Jobs, "register" | "schedule">): void {
  on.register<{ budget?: number }>(
    DISCOVER_JOB,
    async ({ payload }) => {
      await runDiscovery(deps, { budget: payload.budget });
    },
    { payloadSchema: zPayload, concurrency: 1, timeoutMs: 2 * 60 * 60_000, leaseMs: 120_000 },
  );
  if (deps.budget > 0 && deps.sources.length > 0) on.schedule(DISCOVER_SCHEDULE.name, DISCOVER_SCHEDULE.pattern, DISCOVER_JOB);
}

/** The discovery feature as the app wires it: a run now, the page's status, a queued run, and the job. */
export function createDiscovery(deps: DiscoveryDeps & { jobs: Pick<Jobs, "enqueue"> }) {
  return {
    run: (options: { budget?: number } = {}) => runDiscovery(deps, options),
    status: () => discoveryStatus(deps),
    /** Queues one run (with this budget, or the configured one); a run already queued is not queued twice. */
    async enqueue(budget?: number): Promise<void> {
      const payload = budget === undefined ? {} : { budget: parseBudget(budget) };
      await deps.jobs.enqueue(DISCOVER_JOB, payload, { key: DISCOVER_JOB, runAt: deps.now() });
    },
    registerJobs: (on: Pick<Jobs, "register" | "schedule">) => registerDiscoveryJobs(deps, on),
  };
}

export type Discovery = ReturnType<typeof createDiscovery>;
