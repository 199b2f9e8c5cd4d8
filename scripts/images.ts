// `npm run images -- purge [--older-than-hours N]`: the operator's clean-up of fetched product images
// (docs/decisions/028, 037), against DATABASE_URL and VIDEO_STORAGE_DIR/images like the app.
//   purge  deletes the StoredImage rows no product's images name any more (created more than N hours ago,
//          default 24), then every stored file no remaining row names; prints the rows, files and bytes.
//          The daily "images.purge" job does the same. Running it twice removes nothing the second time.
import { db, dbReady } from "~/db.server";
import { IMAGE_PURGE_GRACE_HOURS } from "~/services/stored-images.server";
import { option, runCli, UsageError } from "./lib/cli-args";

const USAGE = `Usage:
  npm run images -- purge [--older-than-hours N]   (default ${IMAGE_PURGE_GRACE_HOURS})`;

/** "0 B", "812 KB", "3.4 MB": what an operator reads at a glance (the exact count follows it). */
function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (command === "purge") {
    const known = new Set(["--older-than-hours"]);
    const unknown = args.filter((a, i) => (a.startsWith("--") ? !known.has(a) : !known.has(args[i - 1] ?? "")));
    if (unknown.length > 0) throw new UsageError(`Unknown argument ${unknown.join(" ")}.`);
    const hoursText = option(args, "--older-than-hours");
    if (hoursText !== undefined && (!/^\d{1,6}$/.test(hoursText) || Number(hoursText) > 876_000)) {
      throw new UsageError(`--older-than-hours is a whole number of hours from 0 to 876000, not "${hoursText}".`);
    }
    await dbReady;
    // The app's wiring: the same storage folder the server serves /product-images/stored/ from.
    const { storedImages } = await import("~/services/index.server");
    const s = await storedImages.purge({ olderThanHours: hoursText === undefined ? undefined : Number(hoursText) });
    console.log(
      `Deleted ${plural(s.rows, "image row")} no product uses (created before ${s.before.toISOString()}) ` +
        `and ${plural(s.sources, "image source")} of deleted products.`,
    );
    console.log(`Removed ${plural(s.files, "file")}, ${formatBytes(s.bytes)} freed (${s.bytes} bytes).`);
    return 0;
  }
  throw new UsageError(command ? `Unknown command "${command}".` : "Which command?");
}

runCli(() => main(process.argv.slice(2)), { usage: USAGE, close: () => db.$disconnect() });
