// `npm run storage -- check | copy-to-bucket`: where the app keeps its files (decision 097), as the app is
// configured: an S3-compatible bucket when STORAGE_BUCKET is set, else the folder VIDEO_STORAGE_DIR.
//   check           writes, reads back and removes one small file there; a store that refuses says so in one
//                   sentence naming the variable to fix (STORAGE_BUCKET, STORAGE_S3_ENDPOINT, AWS_ACCESS_KEY_ID,
//                   VIDEO_STORAGE_DIR...) and exits 1. `npm start` runs it before serving.
//   copy-to-bucket  copies every video, preview, voice clip and fetched picture under VIDEO_STORAGE_DIR into the
//                   bucket (a file already there with the same size is skipped), for a move from one host's disk
//                   to a bucket; the disk is left as it was. Running it twice copies nothing the second time.
import { getEnv } from "~/env.server";
import { createFileStores, diskStores } from "~/integrations/file-stores.server";
import type { FileStorage } from "~/integrations/file-storage.server";
import { runCli, UsageError } from "./lib/cli-args";

const USAGE = `Usage:
  npm run storage -- check
  npm run storage -- copy-to-bucket`;

/** Keys under the disk's video folder that are not videos: the pictures' own folder and the check's. */
const NOT_VIDEOS = /^(images|checks)\//;

async function copyAll(from: FileStorage, to: FileStorage, skip?: RegExp): Promise<{ copied: number; skipped: number; bytes: number }> {
  const there = new Map((await to.list()).map((f) => [f.name, f.bytes]));
  const summary = { copied: 0, skipped: 0, bytes: 0 };
  for (const file of await from.list()) {
    if (skip?.test(file.name)) continue;
    if (there.get(file.name) === file.bytes) {
      summary.skipped++;
      continue;
    }
    const opened = await from.open(file.name);
    if (!opened) continue; // removed meanwhile (a purge)
    await to.put(file.name, opened.body);
    summary.copied++;
    summary.bytes += file.bytes;
  }
  return summary;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (rest.length > 0) throw new UsageError(`Unknown argument ${rest.join(" ")}.`);
  if (command !== "check" && command !== "copy-to-bucket") throw new UsageError(command ? `Unknown command "${command}".` : "Which command?");
  const env = getEnv();
  // The composition root's own choice (app/services/index.server.ts builds fileStores the same way), without
  // loading every service: `npm start` runs this before each start.
  const fileStores = createFileStores(env);
  if (command === "check") {
    await fileStores.check();
    console.log(`Files are kept in ${fileStores.where}: a file was written, read back and removed.`);
    return 0;
  }
  if (!fileStores.bucket) throw new UsageError("STORAGE_BUCKET is not set: there is no bucket to copy to.");
  await fileStores.check();
  const disk = diskStores(env.VIDEO_STORAGE_DIR);
  const videos = await copyAll(disk.videos, fileStores.videos, NOT_VIDEOS);
  const images = await copyAll(disk.images, fileStores.images);
  console.log(`Videos, previews and voice clips: ${videos.copied} copied (${videos.bytes} bytes), ${videos.skipped} already there.`);
  console.log(`Fetched pictures: ${images.copied} copied (${images.bytes} bytes), ${images.skipped} already there.`);
  console.log(`Into ${fileStores.where}; ${env.VIDEO_STORAGE_DIR} is unchanged.`);
  return 0;
}

runCli(() => main(process.argv.slice(2)), { usage: USAGE, close: async () => undefined });
