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
import { readFileSync } from "node:fs";
import { db, dbReady } from "~/db.server";
import { oneLine, option, runCli, table, UsageError } from "./lib/cli-args";

const USAGE = `Usage:
  npm run stores -- add DOMAIN...
  npm run stores -- add --file FILE        (one domain per line; # starts a comment)
  npm run stores -- list
  npm run stores -- pause DOMAIN
  npm run stores -- resume DOMAIN
  npm run stores -- remove DOMAIN`;

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
  if (!["add", "list", "pause", "resume", "remove"].includes(command ?? "")) {
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
        stores.map((s) => [s.domain, String(s.followers), s.operatorListed ? "yes" : "no", status(s), when(s.lastCheckedAt), String(s.listings), oneLine(s.lastError, 120)]),
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

runCli(() => main(process.argv.slice(2)), { usage: USAGE, close: () => db.$disconnect() });
