// The file-storage port (app/integrations/file-storage.server.ts, decision 045) on an S3-compatible bucket
// (decision 097): AWS S3, MinIO, Cloudflare R2, Backblaze B2, DigitalOcean Spaces... through @aws-sdk/client-s3.
//
// One bucket holds every kind of file, each storage under its own key prefix ("videos/", "images/"), so a
// storage lists only its own files. A key is checked exactly as on disk (isStorageKey) before the prefix is
// put in front of it. Writes are whole or nothing, as the port promises: a PUT is atomic, and a stream of
// unknown length goes up in parts (lib-storage's Upload) that are aborted when the stream fails, so no
// half file is ever visible. Reads stream: a byte range is a GET with a Range header.
//
// A bucket that cannot be reached or refuses us throws FileStorageError with a sentence naming the variable
// to look at (STORAGE_BUCKET, STORAGE_S3_ENDPOINT, STORAGE_S3_REGION, AWS_ACCESS_KEY_ID...); the sentence
// never holds a secret. `checkWritable` writes, reads back and removes one small file: the start-up check.
import { randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat as statFile } from "node:fs/promises";
import { hostname } from "node:os";
import { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import type { BucketSettings } from "~/domain/storage/bucket-env";
import {
  contentTypeOf,
  FileStorageError,
  isStorageKey,
  type FileStorage,
  type PutBody,
  type StoredFileEntry,
  type StoredFileInfo,
} from "~/integrations/file-storage.server";

export type S3Settings = BucketSettings;

/** One client per process and settings: it keeps the connections. */
export function createS3Client(settings: S3Settings): S3Client {
  return new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
    // The SDK's newer default checksums (CRC32 trailers on every PUT) are refused by a number of S3-compatible
    // servers; ask for them only where an operation requires them (decision 097).
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    maxAttempts: 3,
  });
}

/** What went wrong, as the operator fixes it: the variable to look at, in a sentence without secrets. */
export function bucketProblem(error: unknown, settings: Pick<S3Settings, "bucket" | "endpoint" | "region">): string {
  const where = `bucket "${settings.bucket}"${settings.endpoint ? ` at ${settings.endpoint}` : ""}`;
  const name = error instanceof S3ServiceException ? error.name : ((error as { name?: string })?.name ?? "");
  const code = (error as NodeJS.ErrnoException)?.code ?? (error as { cause?: NodeJS.ErrnoException })?.cause?.code ?? "";
  const status = (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
  if (name === "NoSuchBucket")
    return `The ${where} does not exist: create it, or set STORAGE_BUCKET to one that does.`;
  if (["InvalidAccessKeyId", "SignatureDoesNotMatch", "InvalidToken", "ExpiredToken", "CredentialsProviderError"].includes(name))
    return `The ${where} refused our credentials (${name}): check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN if you use one).`;
  if (name === "AccessDenied" || name === "AllAccessDisabled" || status === 403)
    return `The ${where} refused to let us write (${name || "403"}): give the key in AWS_ACCESS_KEY_ID permission to put, get, list and delete objects in STORAGE_BUCKET.`;
  if (["PermanentRedirect", "AuthorizationHeaderMalformed", "IllegalLocationConstraintException"].includes(name) || status === 301)
    return `The ${where} is in another region (${name || status}): set STORAGE_S3_REGION to the bucket's region.`;
  if (["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"].includes(code))
    return settings.endpoint
      ? `The ${where} did not answer (${code}): check STORAGE_S3_ENDPOINT.`
      : `The ${where} did not answer (${code}): check the network, or STORAGE_S3_REGION.`;
  return `The ${where} failed (${name || code || "unknown error"}${status ? `, HTTP ${status}` : ""}): check STORAGE_BUCKET and STORAGE_S3_ENDPOINT.`;
}

const lowerFirst = (sentence: string) => sentence.charAt(0).toLowerCase() + sentence.slice(1);

const isNotFound = (error: unknown) =>
  error instanceof S3ServiceException && (error.name === "NoSuchKey" || error.name === "NotFound" || error.$metadata?.httpStatusCode === 404);

/** The byte length of a body we know it of (a PUT needs it; a stream of unknown length goes up in parts). */
async function sized(body: PutBody): Promise<{ body: Uint8Array | Readable; length?: number }> {
  if (body instanceof Uint8Array) return { body, length: body.length };
  if (body instanceof Readable) return { body };
  const info = await statFile(body.path);
  return { body: createReadStream(body.path), length: info.size };
}

export function createS3FileStorage(deps: {
  client: S3Client;
  settings: S3Settings;
  prefix: string;
  /** Keys per listing page (S3's most and default: 1000); tests pass a small one to walk the pages. */
  listPageSize?: number;
}): FileStorage {
  const { client, settings } = deps;
  const Bucket = settings.bucket;
  if (deps.prefix !== "" && !(deps.prefix.endsWith("/") && isStorageKey(deps.prefix.slice(0, -1))))
    throw new Error(`"${deps.prefix}" is not a key prefix (a key followed by "/")`);
  const objectOf = (key: string) => {
    if (!isStorageKey(key)) throw new Error(`"${key}" is not a storage key`);
    return `${deps.prefix}${key}`;
  };
  /** Runs one call on the bucket; a failure of the bucket (not of the caller) is a FileStorageError. */
  async function onBucket<T>(what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw new FileStorageError(`${what}: ${lowerFirst(bucketProblem(error, settings))}`, { cause: error });
    }
  }

  async function stat(key: string): Promise<StoredFileInfo | null> {
    const Key = objectOf(key);
    return onBucket(`Reading ${key} failed`, async () => {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key }));
        return { bytes: head.ContentLength ?? 0, modifiedAt: head.LastModified ?? new Date(0), contentType: contentTypeOf(key) };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    });
  }

  return {
    stat,
    async put(key, body) {
      const Key = objectOf(key);
      const ContentType = contentTypeOf(key);
      const { body: Body, length } = await sized(body);
      if (length !== undefined && length <= 64 * 1024 * 1024) {
        await onBucket(`Storing ${key} failed`, () => client.send(new PutObjectCommand({ Bucket, Key, Body, ContentType, ContentLength: length })));
        return;
      }
      // Unknown or large length: in 8 MB parts, aborted (nothing left behind) when the stream or a part fails.
      const upload = new Upload({ client, params: { Bucket, Key, Body, ContentType }, partSize: 8 * 1024 * 1024, queueSize: 2, leavePartsOnError: false });
      try {
        await upload.done();
      } catch (error) {
        // The caller's own stream failing is its error, as on disk; the bucket's is ours.
        if (body instanceof Readable && body.errored) throw body.errored;
        throw new FileStorageError(`Storing ${key} failed: ${lowerFirst(bucketProblem(error, settings))}`, { cause: error });
      }
    },
    async get(key) {
      const Key = objectOf(key);
      return onBucket(`Reading ${key} failed`, async () => {
        try {
          const answer = await client.send(new GetObjectCommand({ Bucket, Key }));
          return Buffer.from(await answer.Body!.transformToByteArray());
        } catch (error) {
          if (isNotFound(error)) return null;
          throw error;
        }
      });
    },
    async open(key, options = {}) {
      const Key = objectOf(key);
      const range = options.range;
      return onBucket(`Reading ${key} failed`, async () => {
        try {
          const answer = await client.send(new GetObjectCommand({ Bucket, Key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }));
          // The whole size: from Content-Range ("bytes 0-99/1000") for a range, from Content-Length otherwise.
          const total = Number(answer.ContentRange?.split("/")[1] ?? answer.ContentLength ?? 0);
          return {
            bytes: total,
            modifiedAt: answer.LastModified ?? new Date(0),
            contentType: contentTypeOf(key),
            body: answer.Body as Readable,
          };
        } catch (error) {
          if (isNotFound(error)) return null;
          throw error;
        }
      });
    },
    async remove(key) {
      const info = await stat(key);
      if (!info) return null;
      await onBucket(`Removing ${key} failed`, () => client.send(new DeleteObjectCommand({ Bucket, Key: objectOf(key) })));
      return info.bytes;
    },
    async list(prefix = "") {
      const files: StoredFileEntry[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await onBucket("Listing files failed", () =>
          client.send(new ListObjectsV2Command({ Bucket, Prefix: `${deps.prefix}${prefix}`, ContinuationToken, MaxKeys: deps.listPageSize })),
        );
        for (const object of page.Contents ?? []) {
          const name = object.Key?.slice(deps.prefix.length) ?? "";
          if (isStorageKey(name)) files.push({ name, bytes: object.Size ?? 0, modifiedAt: object.LastModified ?? new Date(0) });
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return files;
    },
  };
}

/**
 * The start-up check: writes one small file under "checks/", reads it back and removes it. Throws a
 * FileStorageError whose message is the sentence for the operator (naming the variable) when the bucket
 * refuses any of the three.
 */
export async function checkWritable(client: S3Client, settings: S3Settings): Promise<void> {
  const storage = createS3FileStorage({ client, settings, prefix: "checks/" });
  const key = `${hostname().replace(/[^A-Za-z0-9-]/g, "-").slice(0, 60) || "host"}-${process.pid}-${randomUUID().slice(0, 8)}.txt`;
  const bytes = Buffer.from(`written by the start-up check at ${new Date().toISOString()}\n`);
  await storage.put(key, bytes);
  const back = await storage.get(key);
  if (!back?.equals(bytes))
    throw new FileStorageError(`The bucket "${settings.bucket}" did not give back what was written to it: check STORAGE_S3_ENDPOINT.`);
  await storage.remove(key);
}
