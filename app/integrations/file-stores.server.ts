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
import type { S3Client } from "@aws-sdk/client-s3";
import { bucketSettings, type BucketSettings } from "~/domain/storage/bucket-env";
import type { Env } from "~/env.server";
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

/**
 * A bucket's storage under `prefix`, the SDK loaded on first use: a process on the disk never loads it (it costs
 * a few hundred milliseconds at every start, more on a busy machine).
 */
function bucketStorage(s3: () => Promise<S3Module>, prefix: string): FileStorage {
  let storage: Promise<FileStorage> | null = null;
  const ready = () => (storage ??= s3().then(({ module, client, settings }) => module.createS3FileStorage({ client, settings, prefix })));
  return {
    put: async (key, body) => (await ready()).put(key, body),
    get: async (key) => (await ready()).get(key),
    open: async (key, options) => (await ready()).open(key, options),
    stat: async (key) => (await ready()).stat(key),
    remove: async (key) => (await ready()).remove(key),
    list: async (prefixOfKeys) => (await ready()).list(prefixOfKeys),
  };
}

type S3Module = { module: typeof import("~/integrations/file-storage-s3.server"); client: S3Client; settings: BucketSettings };

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
    // One client (it keeps the connections) for every prefix, made with the SDK on first use.
    let loaded: Promise<S3Module> | null = null;
    const s3 = () =>
      (loaded ??= import("~/integrations/file-storage-s3.server").then((module) => ({ module, client: module.createS3Client(settings), settings })));
    return {
      videos: bucketStorage(s3, "videos/"),
      images: bucketStorage(s3, "images/"),
      where: `the bucket "${settings.bucket}"${settings.endpoint ? ` at ${settings.endpoint}` : ""}`,
      bucket: settings,
      check: () => startupCheck(async () => {
        const { module, client } = await s3();
        await module.checkWritable(client, settings);
      }),
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
