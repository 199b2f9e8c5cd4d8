// Which file storage this process keeps its files in (decision 097): an S3-compatible bucket when
// STORAGE_BUCKET is set, the disk under VIDEO_STORAGE_DIR otherwise. The composition root builds this once;
// `npm start` and `npm run storage -- check` run its check before anything is served.
//
//   files                                   on disk (VIDEO_STORAGE_DIR)      in the bucket
//   ad videos, previews, voice clips        {key}                             videos/{key}
//   fetched product pictures                images/{key}                      images/{key}
//   the start-up check's file (removed)     checks/{key}                      checks/{key}
//
// Logos stay in their brand kit's row (decision 033): they are small, read with the row, and the database is
// already what every host shares.
import path from "node:path";
import { bucketSettings, type BucketSettings } from "~/domain/storage/bucket-env";
import type { Env } from "~/env.server";
import { checkWritable, createS3Client, createS3FileStorage } from "~/integrations/file-storage-s3.server";
import { createFileStorage, FileStorageError, type FileStorage } from "~/integrations/file-storage.server";

export interface FileStores {
  /** The ads' videos and previews, and the spoken hooks of previews (decision 045). */
  videos: FileStorage;
  /** Fetched product pictures (decision 028). */
  images: FileStorage;
  /** "the bucket \"media\" at http://…" or "the folder /srv/data/videos": for the operator's messages. */
  where: string;
  /** The bucket's settings, or null on the disk. */
  bucket: BucketSettings | null;
  /** Writes, reads back and removes one small file; throws FileStorageError with the operator's sentence. */
  check(): Promise<void>;
}

export type FileStoresEnv = Pick<
  Env,
  | "VIDEO_STORAGE_DIR"
  | "STORAGE_BUCKET"
  | "STORAGE_S3_ENDPOINT"
  | "STORAGE_S3_REGION"
  | "STORAGE_S3_FORCE_PATH_STYLE"
  | "AWS_ACCESS_KEY_ID"
  | "AWS_SECRET_ACCESS_KEY"
  | "AWS_SESSION_TOKEN"
>;

/** Runs a check; a store that refuses is said as the start-up check's failure. */
async function startupCheck(run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (!(error instanceof FileStorageError)) throw error;
    throw new FileStorageError(`File storage failed its start-up check. ${error.message}`, { cause: error });
  }
}

/** The disk's stores under `dir` (also what `npm run storage -- copy-to-bucket` reads from). */
export function diskStores(dir: string): Pick<FileStores, "videos" | "images"> {
  return { videos: createFileStorage(dir), images: createFileStorage(path.join(dir, "images")) };
}

export function createFileStores(env: FileStoresEnv): FileStores {
  const settings = bucketSettings(env);
  if (settings) {
    const client = createS3Client(settings);
    return {
      videos: createS3FileStorage({ client, settings, prefix: "videos/" }),
      images: createS3FileStorage({ client, settings, prefix: "images/" }),
      where: `the bucket "${settings.bucket}"${settings.endpoint ? ` at ${settings.endpoint}` : ""}`,
      bucket: settings,
      check: () => startupCheck(() => checkWritable(client, settings)),
    };
  }
  const dir = path.resolve(env.VIDEO_STORAGE_DIR);
  return {
    ...diskStores(dir),
    where: `the folder ${dir}`,
    bucket: null,
    check: () =>
      startupCheck(async () => {
        const checks = createFileStorage(path.join(dir, "checks"));
        const key = `${process.pid}-${Date.now()}.txt`;
        await checks.put(key, Buffer.from("written by the start-up check\n"));
        if (!(await checks.get(key))) throw new FileStorageError(`The folder ${dir} did not keep a file written to it: check VIDEO_STORAGE_DIR.`);
        await checks.remove(key);
      }),
  };
}
