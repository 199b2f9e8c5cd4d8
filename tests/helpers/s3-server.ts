// A local S3-compatible server for the bucket adapter's tests (decision 097): s3rver from npm, on a free port of
// 127.0.0.1, keeping its objects in a temporary folder of its own, with the buckets a test names created.
// Its one account is S3RVER / S3RVER; it checks the access key id (an unknown one is InvalidAccessKeyId) and
// returns real S3 errors (NoSuchBucket, NoSuchKey), Range answers and multipart uploads, but does not verify
// SigV4 signatures, so a wrong secret with the right key id is not refused here. Its listing pages' continuation
// tokens were DES-encrypted, which Node 22 no longer offers: patches/s3rver+3.7.1.patch makes them AES.
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BucketSettings } from "~/domain/storage/bucket-env";

interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (options: {
  port: number;
  address: string;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string }[];
}) => S3rverInstance;

const require = createRequire(import.meta.url);
const S3rver = require("s3rver") as S3rverClass;

export const S3RVER_KEY = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export interface LocalS3 {
  endpoint: string;
  /** The settings of a bucket on this server (one of those it was started with, or not: a missing bucket). */
  settings(bucket: string): BucketSettings;
  /** The variables a process sets to use `bucket` (STORAGE_BUCKET and the rest). */
  env(bucket: string): Record<string, string>;
  stop(): Promise<void>;
}

export async function startLocalS3(buckets: string[]): Promise<LocalS3> {
  const directory = mkdtempSync(path.join(tmpdir(), "s3rver-"));
  const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory, configureBuckets: buckets.map((name) => ({ name })) });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  let stopped: Promise<void> | null = null;
  return {
    endpoint,
    settings: (bucket) => ({ bucket, endpoint, region: "us-east-1", forcePathStyle: true, credentials: { ...S3RVER_KEY } }),
    env: (bucket) => ({
      STORAGE_BUCKET: bucket,
      STORAGE_S3_ENDPOINT: endpoint,
      STORAGE_S3_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: S3RVER_KEY.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_KEY.secretAccessKey,
    }),
    /** Stops the server and removes its folder; stopping again does nothing. */
    stop() {
      stopped ??= server.close().then(() => rmSync(directory, { recursive: true, force: true }));
      return stopped;
    },
  };
}
