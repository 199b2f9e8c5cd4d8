// The variables that put files in an S3-compatible bucket instead of on the disk (decision 097), as
// app/env.server.ts reads them: their shapes, and the rules between them (a key without its secret, bucket
// settings without a bucket). Whether the bucket answers is the start-up check's job (scripts/storage.ts).
import { z } from "zod";

const optional = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));

/** S3's rule for bucket names: 3-63 lowercase letters, digits, dots and hyphens, a letter or digit at each end. */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

const SWITCH: Record<string, boolean> = { on: true, true: true, 1: true, off: false, false: false, 0: false };

export const BucketEnvShape = {
  STORAGE_BUCKET: optional.refine((v) => v === undefined || (BUCKET_NAME.test(v) && !v.includes("..")), {
    message: "must be a bucket name: 3-63 lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit",
  }),
  STORAGE_S3_ENDPOINT: optional.refine((v) => v === undefined || /^https?:\/\/[^/?#\s]+\/?$/.test(v), {
    message: "must be the server's address, http(s)://host[:port] with no path, e.g. http://127.0.0.1:9000",
  }),
  STORAGE_S3_REGION: z
    .string()
    .trim()
    .regex(/^[a-z0-9-]{2,40}$/, "must be a region name such as us-east-1 (or auto for Cloudflare R2)")
    .default("us-east-1"),
  STORAGE_S3_FORCE_PATH_STYLE: optional.refine((v) => v === undefined || v.toLowerCase() in SWITCH, {
    message: "must be one of on, off, true, false, 1, 0",
  }),
  AWS_ACCESS_KEY_ID: optional,
  AWS_SECRET_ACCESS_KEY: optional,
  AWS_SESSION_TOKEN: optional,
};

type BucketEnv = { [K in keyof typeof BucketEnvShape]: z.output<(typeof BucketEnvShape)[K]> };

/** The rules between the variables: each problem with the variable it names. */
export function bucketEnvProblems(env: BucketEnv): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  if (!env.STORAGE_BUCKET) {
    const stray = (["STORAGE_S3_ENDPOINT", "STORAGE_S3_FORCE_PATH_STYLE"] as const).find((k) => env[k] !== undefined);
    if (stray) problems.push({ path: "STORAGE_BUCKET", message: `is required with ${stray} (without a bucket, files stay on the disk)` });
  }
  if (Boolean(env.AWS_ACCESS_KEY_ID) !== Boolean(env.AWS_SECRET_ACCESS_KEY))
    problems.push({
      path: env.AWS_ACCESS_KEY_ID ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID",
      message: "the bucket's credentials need AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY together (or neither, for the SDK's own chain)",
    });
  return problems;
}

export interface BucketSettings {
  bucket: string;
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

/** The bucket the environment names, or null when files stay on the disk. */
export function bucketSettings(env: BucketEnv): BucketSettings | null {
  if (!env.STORAGE_BUCKET) return null;
  const pathStyle = env.STORAGE_S3_FORCE_PATH_STYLE?.toLowerCase();
  return {
    bucket: env.STORAGE_BUCKET,
    endpoint: env.STORAGE_S3_ENDPOINT?.replace(/\/$/, ""),
    region: env.STORAGE_S3_REGION,
    // A self-hosted server (an endpoint) rarely has a wildcard host name per bucket: path style unless told.
    forcePathStyle: pathStyle === undefined ? Boolean(env.STORAGE_S3_ENDPOINT) : SWITCH[pathStyle],
    credentials:
      env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
        ? { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY, sessionToken: env.AWS_SESSION_TOKEN }
        : undefined,
  };
}
