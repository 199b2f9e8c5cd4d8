// `npm run drops:publish -- --date YYYY-MM-DD [--from FILE]`: publishes the weekly product drop of that date
// into DATABASE_URL (default file:./data/app.db, migrated first). docs/decisions/030.
//   without --from  the weekly pick: the best by winning score, at most 2 per niche, none from the last 4 drops
//   --from FILE     a JSON list of objectIDs, or of { "objectID": "...", "reason": "..." } (reason optional:
//                   without one, the reason is built from the product's own score reasons, stage and margin)
// A missing product, a list outside 8-20 products, or a date that already has a drop: a sentence on stderr,
// exit 1, nothing published. Subscribers are notified when the drop's date has come.
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { option, UsageError } from "./lib/cli-args";
import { openImportDb } from "./lib/import-cli";

const USAGE = `Usage: npm run drops:publish -- --date YYYY-MM-DD [--from FILE]

FILE is JSON: ["objectID", ...] or [{ "objectID": "...", "reason": "why, in a sentence" }, ...] (8 to 20).
Without --from, the weekly pick is published. Writes to DATABASE_URL (default file:./data/app.db).`;

const Entry = z.union([
  z.string().trim().min(1).max(120).transform((objectID) => ({ objectID, reason: null as string | null })),
  z.object({ objectID: z.string().trim().min(1).max(120), reason: z.string().max(1000).nullish() }).strict(),
]);
const FileSchema = z.array(Entry);

async function readSelection(file: string) {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new UsageError(`${file} is not JSON: it must be a list of objectIDs.`);
  }
  const parsed = FileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.length > 0 ? `entry ${Number(issue.path[0]) + 1}` : "the file";
    throw new UsageError(`${file}: ${where} is not an objectID or { "objectID", "reason" }.`);
  }
  return parsed.data;
}

async function main(): Promise<number> {
  const args = process.argv.slice(2).filter((a) => a !== "--");
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  let date: string | undefined;
  let from: string | undefined;
  try {
    const known = new Set(["--date", "--from"]);
    for (let i = 0; i < args.length; i += 2) if (!known.has(args[i])) throw new UsageError(`unknown argument ${args[i]}.`);
    date = option(args, "--date");
    from = option(args, "--from");
    if (!date) throw new UsageError("--date is required.");
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`drops:publish: ${error.message}\n${USAGE}\n`);
    return 1;
  }

  let selection: "auto" | { objectID: string; reason?: string | null }[] = "auto";
  if (from) {
    try {
      selection = await readSelection(from);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      process.stderr.write(`drops:publish: ${error.message}\n`);
      return 1;
    }
  }

  const { db, url, close } = await openImportDb();
  try {
    const { createProductDrops } = await import("~/services/products/drops.server");
    const { createNotifications } = await import("~/services/notifications.server");
    const { isAppError } = await import("~/domain/errors");
    const drops = createProductDrops({ db, notifications: createNotifications({ db }) });
    try {
      const published = await drops.publish(date, selection, selection === "auto" ? "weekly" : "operator");
      process.stdout.write(
        `Published the ${published.date} drop into ${url}: ${published.productCount} products (${published.source === "weekly" ? "weekly pick" : `from ${from}`}).\n` +
          `  subscribers notified: ${published.notified} (a drop dated ahead is announced on its date)\n` +
          `  next drop: ${published.nextDropDate}\n`,
      );
      return 0;
    } catch (error) {
      if (!isAppError(error)) throw error;
      process.stderr.write(`drops:publish: ${error.message}\n`);
      return 1;
    }
  } finally {
    await close();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`drops:publish: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
