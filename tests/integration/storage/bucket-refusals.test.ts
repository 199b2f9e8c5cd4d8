// A bucket that refuses writes (decision 097), said in one sentence naming the variable to fix, never a stack
// trace: a missing bucket (STORAGE_BUCKET), an unknown key (AWS_ACCESS_KEY_ID), a server that does not answer
// (STORAGE_S3_ENDPOINT), a folder that cannot hold files (VIDEO_STORAGE_DIR), bucket settings that do not go
// together (the environment's check). `npm run storage -- check`, which `npm start` runs before serving, exits 1
// with that sentence, and 0 for a bucket that takes a file (and leaves nothing behind in it).
import { writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "~/env.server";
import { createS3Client, createS3FileStorage } from "~/integrations/file-storage-s3.server";
import { FileStorageError } from "~/integrations/file-storage.server";
import { createFileStores } from "~/integrations/file-stores.server";
import { runScript } from "../../helpers/cli";
import { freePort } from "../../helpers/production-server";
import { startLocalS3, type LocalS3 } from "../../helpers/s3-server";

let s3: LocalS3;
beforeAll(async () => {
  s3 = await startLocalS3(["media"]);
});
afterAll(async () => {
  await s3?.stop();
});

const storesFor = (vars: Record<string, string>) => createFileStores(parseEnv({ ...process.env, ...vars }));

async function refusal(run: () => Promise<unknown>): Promise<string> {
  const error = await run().then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FileStorageError);
  return (error as Error).message;
}

describe("the start-up check", () => {
  it("passes on a bucket that takes a file, and leaves nothing in it", async () => {
    const stores = storesFor(s3.env("media"));
    await stores.check();
    const everything = createS3FileStorage({ client: createS3Client(s3.settings("media")), settings: s3.settings("media"), prefix: "" });
    expect(await everything.list()).toEqual([]);
  });

  it("names STORAGE_BUCKET for a bucket that does not exist", async () => {
    const message = await refusal(() => storesFor(s3.env("no-such-bucket")).check());
    expect(message).toMatch(/^File storage failed its start-up check\. /);
    expect(message).toContain('the bucket "no-such-bucket"');
    expect(message).toContain("does not exist: create it, or set STORAGE_BUCKET");
  });

  it("names AWS_ACCESS_KEY_ID for a key the server does not know, and never prints the secret", async () => {
    const message = await refusal(() =>
      storesFor({ ...s3.env("media"), AWS_ACCESS_KEY_ID: "NOT-A-KEY", AWS_SECRET_ACCESS_KEY: "very-secret-value-123" }).check(),
    );
    expect(message).toContain("refused our credentials (InvalidAccessKeyId): check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY");
    expect(message).not.toContain("very-secret-value-123");
  });

  it("names STORAGE_S3_ENDPOINT for a server that does not answer", async () => {
    const endpoint = `http://127.0.0.1:${await freePort()}`;
    const message = await refusal(() => storesFor({ ...s3.env("media"), STORAGE_S3_ENDPOINT: endpoint }).check());
    expect(message).toContain(`the bucket "media" at ${endpoint} did not answer (ECONNREFUSED): check STORAGE_S3_ENDPOINT.`);
  });

  it("names VIDEO_STORAGE_DIR for a folder that cannot hold files", async () => {
    const notAFolder = path.join(mkdtempSync(path.join(tmpdir(), "storage-refusal-")), "a-file");
    writeFileSync(notAFolder, "in the way");
    const message = await refusal(() => storesFor({ VIDEO_STORAGE_DIR: notAFolder }).check());
    expect(message).toContain(`refused it (ENOTDIR): check VIDEO_STORAGE_DIR`);
  });
});

describe("the environment", () => {
  const problems = (vars: Record<string, string>) => {
    try {
      parseEnv({ ...process.env, ...vars });
      return [];
    } catch (error) {
      if (!(error instanceof EnvError)) throw error;
      return error.problems;
    }
  };

  it("refuses bucket settings that do not go together, one line per variable", () => {
    expect(problems({ STORAGE_S3_ENDPOINT: "http://127.0.0.1:9000" })).toEqual([
      "STORAGE_BUCKET is required with STORAGE_S3_ENDPOINT (without a bucket, files stay on the disk)",
    ]);
    expect(problems({ STORAGE_BUCKET: "media", AWS_ACCESS_KEY_ID: "key" })).toEqual([
      "AWS_SECRET_ACCESS_KEY the bucket's credentials need AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY together (or neither, for the SDK's own chain)",
    ]);
    expect(problems({ STORAGE_BUCKET: "My_Bucket" })[0]).toMatch(/^STORAGE_BUCKET must be a bucket name/);
    expect(problems({ STORAGE_BUCKET: "media", STORAGE_S3_ENDPOINT: "http://minio:9000/media" })[0]).toMatch(/^STORAGE_S3_ENDPOINT must be the server's address/);
    expect(problems({ STORAGE_BUCKET: "media", STORAGE_S3_FORCE_PATH_STYLE: "maybe" })[0]).toMatch(/^STORAGE_S3_FORCE_PATH_STYLE must be one of on, off/);
  });

  it("picks the bucket when STORAGE_BUCKET is set (path style with an endpoint), the disk otherwise", () => {
    expect(storesFor({}).bucket).toBeNull();
    expect(storesFor({ VIDEO_STORAGE_DIR: "/srv/videos" }).where).toBe("the folder /srv/videos");
    expect(storesFor(s3.env("media")).bucket).toMatchObject({ bucket: "media", endpoint: s3.endpoint, forcePathStyle: true });
    expect(storesFor({ STORAGE_BUCKET: "media", STORAGE_S3_REGION: "eu-west-3" }).bucket).toMatchObject({ forcePathStyle: false, region: "eu-west-3" });
    expect(storesFor({ ...s3.env("media"), STORAGE_S3_FORCE_PATH_STYLE: "off" }).bucket).toMatchObject({ forcePathStyle: false });
  });
});

describe("npm run storage -- check", () => {
  it("exits 1 with the sentence for a missing bucket, and 0 for one that takes a file", async () => {
    const refused = await runScript("storage", ["check"], { env: { ...process.env, ...s3.env("no-such-bucket") } });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toMatch(/^File storage failed its start-up check\. .*does not exist: create it, or set STORAGE_BUCKET to one that does\.$/);
    expect(refused.stderr).not.toMatch(/\n\s+at /); // no stack trace

    const ok = await runScript("storage", ["check"], { env: { ...process.env, ...s3.env("media") } });
    expect(ok).toMatchObject({ code: 0 });
    expect(ok.stdout).toContain(`Files are kept in the bucket "media" at ${s3.endpoint}`);

    const usage = await runScript("storage", ["wipe"], { env: { ...process.env, ...s3.env("media") } });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Unknown command "wipe".');
  }, 120_000);
});
