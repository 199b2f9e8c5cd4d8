// `npm run stores -- add DOMAIN... | add --file FILE | list | pause DOMAIN | resume DOMAIN | remove DOMAIN`: the
// operator's list of stores the measured catalogue observes besides the ones users follow (docs/decisions/047),
// against DATABASE_URL like the app.
//   add     puts stores on the list (URLs, domains or *.myshopify.com addresses; --file: one per line, # comments).
//           Any address that is not a store address refuses the whole list. A store is not probed first: its
//           first read, at its own time of the day, says why when it cannot be read.
//   list    every store the tracker knows: followers (a count, never who), listed, status, last read, listings
//   pause   stops reading a store for everyone until resumed
//   resume  reads a paused or parked store again, at once
//   remove  takes a store off the list; one nobody follows is deleted with its listings
//   discover asks the public sources for candidate stores now, verifies them politely and lists up to the budget
//           (--budget N, else DISCOVERY_BUDGET) as "discovered" (decision 101); what it skipped is printed with why
import { readFileSync } from "node:fs";
import { db, dbReady } from "~/db.server";
import { oneLine, option, runCli, table, UsageError, whole } from "./lib/cli-args";

const USAGE = `Usage:
  npm run stores -- add DOMAIN...
  npm run stores -- add --file FILE        (one domain per line; # starts a comment)
  npm run stores -- list
  npm run stores -- pause DOMAIN
  npm run stores -- resume DOMAIN
  npm run stores -- remove DOMAIN
  npm run stores -- discover [--budget N]   (N stores at most, 0 to 5000; default DISCOVERY_BUDGET)`;

const when = (iso: string | null) => (iso ? `${iso.replace("T", " ").slice(0, 16)} UTC` : "never");

function readDomainFile(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? "unreadable"}.`);
  }
  return text.split(/\r?\n/).map((line) => line.replace(/#.*$/, "").trim());
}

function oneDomain(args: string[], command: string): string {
  if (args.length !== 1 || args[0].startsWith("--")) throw new UsageError(`${command} takes one domain.`);
  return args[0];
}

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (!["add", "list", "pause", "resume", "remove", "discover"].includes(command ?? "")) {
    throw new UsageError(command ? `Unknown command "${command}".` : "Which command?");
  }
  let domains: string[] = [];
  if (command === "add") {
    const file = option(args, "--file");
    if (file !== undefined && args.length !== 2) throw new UsageError("add takes either --file FILE or domains, not both.");
    if (file === undefined && args.some((a) => a.startsWith("--"))) throw new UsageError(`Unknown option ${args.find((a) => a.startsWith("--"))}.`);
    domains = file !== undefined ? readDomainFile(file) : args;
    if (file === undefined && domains.length === 0) throw new UsageError("add needs at least one domain.");
  }
  if (command === "list" && args.length > 0) throw new UsageError("list takes no arguments.");
  let budget: number | undefined;
  if (command === "discover") {
    budget = whole(option(args, "--budget"), "--budget");
    if (args.length !== (budget === undefined ? 0 : 2)) throw new UsageError("discover takes only --budget N.");
  }
  const domain = command === "pause" || command === "resume" || command === "remove" ? oneDomain(args, command) : "";

  await dbReady;
  // The app's wiring: the same schedule settings (CATALOGUE_STORE_INTERVAL_HOURS) and catalogue hook as the server.
  const { competitors } = await import("~/services/index.server");
  if (command === "add") {
    const r = await competitors.addStores(domains);
    for (const d of r.added) console.log(`Added ${d}: first read within a day, at its own time.`);
    for (const d of r.listed) console.log(`Listed ${d}: users already follow it, it keeps their schedule.`);
    for (const d of r.already) console.log(`${d} is already on the list.`);
    console.log(`${r.added.length} added, ${r.listed.length} listed, ${r.already.length} already on the list.`);
    return 0;
  }
  if (command === "discover") return discover(budget);
  if (command === "list") {
    const stores = await competitors.listStores();
    if (stores.length === 0) {
      console.log("No stores yet: npm run stores -- add DOMAIN");
      return 0;
    }
    const status = (s: (typeof stores)[number]) => (s.paused ? "paused" : s.status);
    console.log(
      table(
        ["domain", "followers", "listed", "status", "last read", "listings", "last error"],
        stores.map((s) => [s.domain, String(s.followers), s.operatorListed ? (s.origin === "discovered" ? "discovered" : "yes") : "no", status(s), when(s.lastCheckedAt), String(s.listings), oneLine(s.lastError, 120)]),
      ),
    );
    return 0;
  }
  if (command === "pause") {
    const r = await competitors.pauseStore(domain);
    console.log(`Paused ${r.domain}: not read until resumed.`);
  } else if (command === "resume") {
    const r = await competitors.resumeStore(domain);
    console.log(`Resumed ${r.domain}: read again now.`);
  } else {
    const r = await competitors.removeStore(domain);
    console.log(r.deleted ? `Removed ${r.domain} and its listings: nobody follows it.` : `Took ${r.domain} off the list: users follow it, so it is still read for them.`);
  }
  return 0;
}

/** One discovery run now, in this process: what each source named, what was added, what was skipped and why. */
async function discover(budget: number | undefined): Promise<number> {
  const { discovery } = await import("~/services/index.server");
  const run = await discovery.run(budget === undefined ? {} : { budget });
  if (run.budget === 0) {
    console.log("Discovery is off: the budget is 0 (DISCOVERY_BUDGET). Run `npm run stores -- discover --budget N` to add up to N stores now.");
    return 0;
  }
  if (run.sources.length === 0) console.log("No discovery source is configured (DISCOVERY_CDX_URL and DISCOVERY_CT_URL are off).");
  for (const s of run.sources) console.log(s.error ? `${s.name}: skipped, ${s.error}.` : `${s.name}: ${s.candidates} candidates.`);
  for (const a of run.added) console.log(`Discovered ${a.domain} (from ${a.source}): first read within a day, at its own time.`);
  for (const s of run.skipped.filter((k) => k.what !== k.source).slice(0, 20)) console.log(`Skipped ${s.what} (${s.source}): ${s.reason}.`.replace(/\.\.$/, "."));
  const more = run.skipped.length - 20;
  if (more > 0) console.log(`... and ${more} more skipped.`);
  console.log(`${run.added.length} discovered of a budget of ${run.budget}; ${run.verified} verified, ${run.untried} left for the next run.`);
  return 0;
}

runCli(() => main(process.argv.slice(2)), { usage: USAGE, close: () => db.$disconnect() });
