// Hosts that share no disk (issue 38 item 3, decision 097): two separate processes ("hosts" A and B,
// storage-host.ts), each with its own VIDEO_STORAGE_DIR, on one database and one S3-compatible bucket (s3rver
// from npm on a free port). A fetches a product's picture and renders an ad's video; B serves both, byte for
// byte, with Range; neither disk holds a file. The bucket does not exist at first: A's jobs fail with the
// sentence naming STORAGE_BUCKET and are retried, the ad stays rendering with its credits held, the picture
// pending; once the bucket exists the retries finish, nothing lost and nothing charged twice.
// `npm run storage -- copy-to-bucket` moves one host's disk into the bucket, and a bucket that stops answering
// is a 503 with a sentence on B, never a 500.
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { CreateBucketCommand, GetObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { createS3Client } from "~/integrations/file-storage-s3.server";
import { action as renderRoute } from "~/routes/api.ai-ads.$id.render";
import { action as createRoute } from "~/routes/api.ai-ads";
import * as credits from "~/services/billing/credits.server";
import { createJobs } from "~/services/jobs.server";
import { importProducts } from "~/services/products/import.server";
import { runScript } from "../../helpers/cli";
import { readMp4 } from "../../helpers/mp4";
import { png } from "../../helpers/png";
import { call } from "../../helpers/routes";
import { startLocalS3, type LocalS3 } from "../../helpers/s3-server";
import { createSignedInUser, signInAs } from "../../helpers/site-users";
import { ask, killWorkerProcesses, startWorkerProcesses, until, type WorkerProcess } from "../../helpers/worker-processes";

const PHOTO = png(120, 90, [40, 160, 90]);
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const HOST = path.join(__dirname, "storage-host.ts");

let s3: LocalS3;
let pictures: Server;
let picturesHost = "";
const dirs: Record<string, string> = {};
let hostA: WorkerProcess;
let hostB: WorkerProcess;

/** Every file under a folder, recursively (a host's VIDEO_STORAGE_DIR must hold none). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

type HostAnswer = { status: number; headers: Record<string, string>; sha256: string; bytes: number; text: string };
const get = async (host: WorkerProcess, command: { route: "image" | "video"; path: string; file: string; headers?: Record<string, string> }) =>
  JSON.parse(await ask(host, JSON.stringify({ do: "get", ...command }))) as HostAnswer;
const runJobs = async (host: WorkerProcess) => JSON.parse(await ask(host, JSON.stringify({ do: "jobs" }))) as { ran: number };

beforeAll(async () => {
  s3 = await startLocalS3([]); // no bucket yet: "shared" is created by the test
  pictures = createServer((req, res) => {
    res.writeHead(req.url === "/photo.png" ? 200 : 404, { "Content-Type": "image/png" });
    res.end(req.url === "/photo.png" ? PHOTO : undefined);
  });
  await new Promise<void>((resolve) => pictures.listen(0, "127.0.0.1", resolve));
  picturesHost = `127.0.0.1:${(pictures.address() as AddressInfo).port}`;
  for (const name of ["a", "b", "c"]) dirs[name] = mkdtempSync(path.join(tmpdir(), `storage-host-${name}-`));
  const envFor = (owner: string) => ({
    ...s3.env("shared"),
    VIDEO_STORAGE_DIR: dirs[owner],
    TRACKER_ALLOW_HOSTS: picturesHost,
    VIDEO_SIZE: "180x320",
    VIDEO_FPS: "5",
  });
  [hostA, hostB] = await startWorkerProcesses(HOST, ["a", "b"], envFor);
}, 120_000);

afterAll(async () => {
  killWorkerProcesses();
  pictures?.closeAllConnections();
  await new Promise((resolve) => pictures?.close(resolve));
  await s3?.stop();
});

describe("two hosts with their own disks and one bucket", () => {
  let storedName = "";

  it("retries what a missing bucket refused, then serves on B what A stored, with nothing on either disk", async () => {
    // The picture: an import queues its fetch; host A runs it, but the bucket does not exist yet.
    const objectID = "shared-bucket-1";
    await importProducts(
      db,
      [
        {
          line: 1,
          row: {
            objectID,
            title: "Folding Camp Lantern",
            description: "A lantern.",
            niches: ["outdoor"],
            tags: [],
            images: [`http://${picturesHost}/photo.png`],
            costCents: 500,
            priceCents: 2499,
            firstSeenAt: "2026-05-01",
            history: { startDay: "2026-05-30", orders: [1, 2], revenueCents: [2499, 4998], views: [10, 20], likes: [1, 1], comments: [0, 0], shares: [0, 0], storesSelling: [1, 1] },
          },
        },
      ],
      { imageJobs: createJobs({ db, ownerId: "shared-bucket-test" }) },
    );
    expect(await runJobs(hostA)).toEqual({ ran: 1 });
    const fetchJob = await db.job.findFirst({ where: { kind: "images.fetch" }, orderBy: { id: "desc" }, select: { status: true, attempts: true, lastError: true } });
    expect(fetchJob).toMatchObject({ status: "queued", attempts: 1 });
    expect(fetchJob!.lastError).toContain(`the bucket "shared" at ${s3.endpoint} does not exist: create it, or set STORAGE_BUCKET to one that does.`);
    const image = () => db.storedImage.findUnique({ where: { url: `http://${picturesHost}/photo.png` }, select: { status: true, fileName: true } });
    expect((await image())?.status).toBe("pending");

    // The video: paid for in this process (a web host), rendered on A, refused by the missing bucket.
    const user = await createSignedInUser({ userSubscribed: "yes" });
    await credits.applyAllowance(db, { userId: user.id, feature: "ai-ads", allowance: 5, idempotencyKey: `shared-bucket:${user.id}`, reason: "test grant", mode: "reset" });
    const created = await call(createRoute, "/api/ai-ads", { cookie: user.cookie, json: { objectID } });
    expect(created.status).toBe(201);
    const ad = (await created.json()) as { id: number };
    const render = await call(renderRoute, `/api/ai-ads/${ad.id}/render`, { method: "POST", cookie: user.cookie, params: { id: String(ad.id) } });
    expect(render.status).toBe(202);
    const adRow = () => db.aiAd.findUnique({ where: { id: ad.id }, select: { status: true, storageKey: true } });
    const renderJob = () => db.job.findFirst({ where: { kind: "ai-ads.render", key: { contains: String(ad.id) } }, select: { status: true, attempts: true, lastError: true } });
    await until(async () => (await runJobs(hostA), (await renderJob())?.attempts === 1), "the render's first attempt", { pollMs: 200 });
    expect(await renderJob()).toMatchObject({ status: "queued", lastError: expect.stringContaining("the video was rendered but not stored (NoSuchBucket): tried again") });
    expect((await adRow())?.status).toBe("rendering");
    expect(await credits.getBalance(db, user.id, "ai-ads")).toBe(0); // held, not refunded

    // The operator creates the bucket: the retries (after their backoff) store both.
    await createS3Client(s3.settings("shared")).send(new CreateBucketCommand({ Bucket: "shared" }));
    await until(
      async () => {
        await runJobs(hostA);
        return (await image())?.status === "stored" && (await adRow())?.status === "completed";
      },
      "the retried picture and render",
      { pollMs: 300 },
    );
    expect(await credits.getBalance(db, user.id, "ai-ads")).toBe(0);
    expect(await db.creditLedger.count({ where: { userId: user.id, feature: "ai-ads", kind: { in: ["spend", "refund"] } } })).toBe(1);

    // Host B, which stored nothing, serves the picture A stored...
    storedName = (await image())!.fileName!;
    const picture = await get(hostB, { route: "image", path: `/product-images/stored/${storedName}`, file: storedName });
    expect(picture).toMatchObject({ status: 200, sha256: sha256(PHOTO), bytes: PHOTO.length });
    expect(picture.headers["content-type"]).toBe("image/png");

    // ...and the video A rendered, whole and by range, exactly the bucket's bytes.
    const { storageKey } = (await adRow())!;
    const object = await createS3Client(s3.settings("shared")).send(new GetObjectCommand({ Bucket: "shared", Key: `videos/${storageKey}` }));
    const mp4 = Buffer.from(await object.Body!.transformToByteArray());
    expect(readMp4(mp4)).toMatchObject({ width: 180, height: 320 });
    const video = { route: "video" as const, path: `/ai-ads/videos/${ad.id}.mp4`, file: `${ad.id}.mp4` };
    const whole = await get(hostB, { ...video, headers: { cookie: user.cookie } });
    expect(whole).toMatchObject({ status: 200, sha256: sha256(mp4), bytes: mp4.length });
    const part = await get(hostB, { ...video, headers: { cookie: user.cookie, range: "bytes=100-1099" } });
    expect(part).toMatchObject({ status: 206, sha256: sha256(mp4.subarray(100, 1100)), bytes: 1000 });
    expect(part.headers["content-range"]).toBe(`bytes 100-1099/${mp4.length}`);
    const outside = await get(hostB, { ...video, headers: { cookie: user.cookie, range: `bytes=${mp4.length}-` } });
    expect(outside.status).toBe(416);

    expect(filesUnder(dirs.a)).toEqual([]);
    expect(filesUnder(dirs.b)).toEqual([]);
  }, 240_000);

  it("npm run storage -- copy-to-bucket moves one host's disk into the bucket, once", async () => {
    const photo = png(30, 20, [200, 10, 10]);
    const name = `${sha256(photo)}.png`;
    mkdirSync(path.join(dirs.c, "images"), { recursive: true });
    writeFileSync(path.join(dirs.c, "images", name), photo);
    mkdirSync(path.join(dirs.c, "previews"), { recursive: true });
    writeFileSync(path.join(dirs.c, "previews", "9-1-abcd1234.mp4"), readFileSync(path.join(__dirname, "../../fixtures/ad-video.mp4")));
    const env = { ...process.env, ...s3.env("shared"), VIDEO_STORAGE_DIR: dirs.c };

    const first = await runScript("storage", ["copy-to-bucket"], { env });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("Videos, previews and voice clips: 1 copied");
    expect(first.stdout).toContain("Fetched pictures: 1 copied");
    const again = await runScript("storage", ["copy-to-bucket"], { env });
    expect(again.stdout).toContain("Videos, previews and voice clips: 0 copied (0 bytes), 1 already there.");
    expect(again.stdout).toContain("Fetched pictures: 0 copied (0 bytes), 1 already there.");

    expect(await get(hostB, { route: "image", path: `/product-images/stored/${name}`, file: name })).toMatchObject({ status: 200, sha256: sha256(photo) });
  }, 120_000);

  it("a bucket that stops answering is a 503 with a sentence on B, never a 500", async () => {
    await s3.stop();
    const picture = await get(hostB, { route: "image", path: `/product-images/stored/${storedName}`, file: storedName });
    expect(picture.status).toBe(503);
    expect(JSON.parse(picture.text)).toEqual({ error: "Pictures cannot be read right now: try again in a minute." });
    const ad = await db.aiAd.findFirst({ where: { status: "completed", storageKey: { not: null } }, orderBy: { id: "desc" }, select: { id: true, userId: true } });
    const video = await get(hostB, { route: "video", path: `/ai-ads/videos/${ad!.id}.mp4`, file: `${ad!.id}.mp4`, headers: { cookie: await signInAs(ad!.userId) } });
    expect(video.status).toBe(503);
    expect(JSON.parse(video.text)).toEqual({ error: "Videos cannot be read right now: try again in a minute." });
  }, 120_000);
});
