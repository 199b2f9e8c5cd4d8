// `npm run catalogue -- status | match [--full] | split LISTING_ID | merge LISTING_A LISTING_B`: the operator's
// view of the measured catalogue (docs/decisions/046, 047), against DATABASE_URL like the app.
//   status  listings, their pictures fingerprinted / pending / failed, measured products, the last match
//   match   matches new listings now (--full: every listing again) and recomputes the products that changed
//   split   the listing leaves its product and never again shares one with those listings; matched at once
//   merge   the two listings' products become one (unless a split keeps them apart); matched at once
import { db, dbReady } from "~/db.server";
import { runCli, UsageError } from "./lib/cli-args";

const USAGE = `Usage:
  npm run catalogue -- status
  npm run catalogue -- match [--full]
  npm run catalogue -- split LISTING_ID
  npm run catalogue -- merge LISTING_A LISTING_B`;

function listingId(text: string | undefined): number {
  if (text === undefined || !/^\d{1,12}$/.test(text) || Number(text) < 1) throw new UsageError(`A listing id is a whole number, not "${text ?? ""}".`);
  return Number(text);
}

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (command === "status") {
    if (args.length > 0) throw new UsageError("status takes no arguments.");
  } else if (command === "match") {
    if (args.some((a) => a !== "--full")) throw new UsageError(`Unknown argument ${args.find((a) => a !== "--full")}.`);
  } else if (command === "split") {
    if (args.length !== 1) throw new UsageError("split takes one listing id.");
    listingId(args[0]);
  } else if (command === "merge") {
    if (args.length !== 2) throw new UsageError("merge takes two listing ids.");
    listingId(args[0]);
    listingId(args[1]);
  } else {
    throw new UsageError(command ? `Unknown command "${command}".` : "Which command?");
  }

  await dbReady;
  const { catalogue } = await import("~/services/index.server");
  if (command === "status") {
    const s = await catalogue.status();
    console.log(`Listings: ${s.listings} (pictures: ${s.fingerprinted} fingerprinted, ${s.pending} pending, ${s.failed} failed)`);
    console.log(`Measured products: ${s.products}`);
    console.log(`Last match: ${s.lastMatchAt ? `${s.lastMatchAt.replace("T", " ").slice(0, 16)} UTC` : "never"}`);
    const utc = (iso: string | null) => (iso ? `, next try ${iso.replace("T", " ").slice(0, 16)} UTC` : "");
    console.log(`Pictures pending: ${s.pending}${s.pending ? "" : " (none)"}`);
    for (const p of s.pendingByReason) console.log(`  ${p.pictures} ${p.reason}${utc(p.nextTryAt)}`);
    console.log(`Pictures that will not be read: ${s.failed}`);
    for (const p of s.failedByReason) console.log(`  ${p.pictures} ${p.reason}`);
    console.log(`Listings placed without a picture: ${s.placedWithoutPicture} (${s.listingsWithNoPicture} whose store shows none)`);
    console.log(`Review counts: ${s.reviews.withCount} listings with a count, ${s.reviews.noReviewData} with no review data, ${s.reviews.due} due for a read`);
    return 0;
  }
  const id = command === "split" || command === "merge" ? listingId(args[0]) : 0;
  const { match } =
    command === "split"
      ? await catalogue.split(id)
      : command === "merge"
        ? await catalogue.merge(id, listingId(args[1]))
        : await catalogue.matchNow({ full: args.includes("--full") });
  if (command === "split") console.log(`Listing ${args[0]} split out of its product.`);
  if (command === "merge") console.log(`Listings ${args[0]} and ${args[1]} are one product.`);
  console.log(`Matched ${match.listings} listings (${match.mode}): ${match.products} products, ${match.changed.length} changed, ${match.removed} removed.`);
  return 0;
}

runCli(() => main(process.argv.slice(2)), { usage: USAGE, close: () => db.$disconnect() });
