// The file-storage port's contract (decisions 045, 097), run the same against both adapters: the disk (a real
// temporary folder) and an S3-compatible bucket (s3rver from npm on a free port, tests/helpers/s3-server.ts).
// Real bytes: a PNG, the JPEG photo and an MP4 from tests/fixtures, a 9 MB stream of unknown length (several
// parts in a bucket). Keys with folders, whole files from bytes, a stream or a local file, read whole or
// streamed from a byte range, size and type without reading, listed by prefix and only the storage's own,
// replaced whole, removed; a failed stream leaves nothing; keys that are not keys are refused.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createS3Client, createS3FileStorage } from "~/integrations/file-storage-s3.server";
import { createFileStorage, isStorageKey, type FileStorage } from "~/integrations/file-storage.server";
import { readMp4 } from "../../helpers/mp4";
import { png } from "../../helpers/png";
import { startLocalS3, type LocalS3 } from "../../helpers/s3-server";

const MP4 = readFileSync(path.join(__dirname, "../../fixtures/ad-video.mp4"));
const JPEG = readFileSync(path.join(__dirname, "../../fixtures/product-photo.jpg"));
const PNG = png(64, 48, [0, 128, 255]);
const bytesOf = async (stream: Readable) => Buffer.concat(await stream.toArray());
const names = (entries: { name: string }[]) => entries.map((e) => e.name).sort();
const freshDir = () => mkdtempSync(path.join(tmpdir(), "file-storage-contract-"));

let s3: LocalS3;
let bucketRun = 0;

beforeAll(async () => {
  s3 = await startLocalS3(["contract"]);
});
afterAll(async () => {
  await s3?.stop();
});

/** Each adapter, and a second storage beside the first (a sibling folder, or another prefix of the same bucket). */
const adapters: { name: string; make: () => { storage: FileStorage; sibling: FileStorage } }[] = [
  {
    name: "the disk adapter",
    make: () => {
      const root = freshDir();
      return { storage: createFileStorage(path.join(root, "videos")), sibling: createFileStorage(path.join(root, "images")) };
    },
  },
  {
    name: "the S3 adapter",
    make: () => {
      const settings = s3.settings("contract");
      const client = createS3Client(settings);
      const run = ++bucketRun;
      return {
        storage: createS3FileStorage({ client, settings, prefix: `run${run}/videos/` }),
        sibling: createS3FileStorage({ client, settings, prefix: `run${run}/images/` }),
      };
    },
  },
];

describe("the S3 adapter's listing", () => {
  it("walks every page of a long listing", async () => {
    const settings = s3.settings("contract");
    const storage = createS3FileStorage({ client: createS3Client(settings), settings, prefix: `pages${++bucketRun}/`, listPageSize: 2 });
    const keys = ["a-1.png", "a-2.png", "a-3.png", "a-4.png", "a-5.png", "b-1.png"];
    for (const key of keys) await storage.put(key, PNG);
    expect(names(await storage.list("a-"))).toEqual(keys.slice(0, 5));
    expect(await storage.list()).toHaveLength(6);
  });
});

describe.each(adapters)("$name", ({ make }) => {
  it("keeps real files under keys with folders, reads them whole or by range, and lists them by prefix", async () => {
    const { storage, sibling } = make();
    await storage.put("12-1-ab12cd34.mp4", MP4);
    await storage.put("previews/12-3-ab12cd34.mp4", MP4.subarray(0, 2000));
    await storage.put("previews/13-4-ab12cd34.png", PNG);
    await sibling.put("0123abcd.jpg", JPEG);

    const back = await storage.get("12-1-ab12cd34.mp4");
    expect(back).toEqual(MP4);
    expect(readMp4(back!).width).toBe(160);
    expect(await sibling.get("0123abcd.jpg")).toEqual(JPEG);
    expect(await storage.stat("12-1-ab12cd34.mp4")).toMatchObject({ bytes: MP4.length, contentType: "video/mp4" });
    expect((await storage.stat("previews/13-4-ab12cd34.png"))!.modifiedAt.getTime()).toBeGreaterThan(Date.now() - 60_000);

    const whole = await storage.open("12-1-ab12cd34.mp4");
    expect(whole).toMatchObject({ bytes: MP4.length, contentType: "video/mp4" });
    expect(await bytesOf(whole!.body)).toEqual(MP4);
    const part = await storage.open("12-1-ab12cd34.mp4", { range: { start: 100, end: 1099 } });
    expect(part!.bytes).toBe(MP4.length);
    expect(await bytesOf(part!.body)).toEqual(MP4.subarray(100, 1100));
    const last = await storage.open("12-1-ab12cd34.mp4", { range: { start: MP4.length - 1, end: MP4.length - 1 } });
    expect(await bytesOf(last!.body)).toEqual(MP4.subarray(-1));

    expect(names(await storage.list("previews/"))).toEqual(["previews/12-3-ab12cd34.mp4", "previews/13-4-ab12cd34.png"]);
    expect(names(await storage.list("previews/12-"))).toEqual(["previews/12-3-ab12cd34.mp4"]);
    expect(names(await storage.list())).toEqual(["12-1-ab12cd34.mp4", "previews/12-3-ab12cd34.mp4", "previews/13-4-ab12cd34.png"]);
    expect((await storage.list("12-")).map((e) => e.bytes)).toEqual([MP4.length]);
    expect(await storage.list("nothing-here/")).toEqual([]);
    expect(names(await sibling.list())).toEqual(["0123abcd.jpg"]);
  });

  it("writes from a stream of unknown length and from a local file (left in place); a failed stream leaves nothing", async () => {
    const { storage } = make();
    const big = Buffer.alloc(9 * 1024 * 1024 + 123);
    for (let i = 0; i < big.length; i += 4096) big[i] = i % 251;
    await storage.put("from-stream.mp4", Readable.from([big.subarray(0, 5_000_000), big.subarray(5_000_000)]));
    expect(await storage.stat("from-stream.mp4")).toMatchObject({ bytes: big.length });
    expect(await bytesOf((await storage.open("from-stream.mp4", { range: { start: 8_388_600, end: 8_388_700 } }))!.body)).toEqual(
      big.subarray(8_388_600, 8_388_701),
    );

    const local = path.join(freshDir(), "rendered.mp4");
    writeFileSync(local, MP4);
    await storage.put("previews/from-file.mp4", { path: local });
    expect(await bytesOf((await storage.open("previews/from-file.mp4"))!.body)).toEqual(MP4);
    expect(readFileSync(local)).toEqual(MP4);

    let sent = 0;
    const broken = new Readable({
      read() {
        if (sent++ < 3) this.push(Buffer.alloc(4 * 1024 * 1024, 7));
        else this.destroy(new Error("the renderer stopped"));
      },
    });
    await expect(storage.put("broken.mp4", broken)).rejects.toThrow("the renderer stopped");
    expect(await storage.stat("broken.mp4")).toBeNull();
    expect(names(await storage.list("broken"))).toEqual([]);
  });

  it("replaces a file whole under the same key", async () => {
    const { storage } = make();
    await storage.put("voice-clips/abc.wav", Buffer.from("first version, longer"));
    await storage.put("voice-clips/abc.wav", Buffer.from("second"));
    expect(await storage.get("voice-clips/abc.wav")).toEqual(Buffer.from("second"));
    expect(await storage.stat("voice-clips/abc.wav")).toMatchObject({ bytes: 6, contentType: "application/octet-stream" });
    expect(names(await storage.list())).toEqual(["voice-clips/abc.wav"]);
  });

  it("answers null for a missing file, and remove says how many bytes it freed", async () => {
    const { storage } = make();
    expect(await storage.get("gone.mp4")).toBeNull();
    expect(await storage.open("gone.mp4")).toBeNull();
    expect(await storage.open("gone.mp4", { range: { start: 0, end: 9 } })).toBeNull();
    expect(await storage.stat("previews/gone.mp4")).toBeNull();
    expect(await storage.remove("gone.mp4")).toBeNull();
    await storage.put("previews/here.png", PNG);
    expect(await storage.stat("previews/here.png")).toMatchObject({ contentType: "image/png" });
    expect(await storage.remove("previews/here.png")).toBe(PNG.length);
    expect(await storage.remove("previews/here.png")).toBeNull();
    expect(await storage.list()).toEqual([]);
  });

  it("refuses keys that are not keys (paths out of the storage, empty or hidden segments) and writes nothing", async () => {
    const { storage, sibling } = make();
    for (const key of ["../outside.mp4", "/etc/passwd", "a//b.mp4", ".hidden", "previews/../../x.mp4", "a/.b", "", "a\\b.mp4", "../images/x.jpg"]) {
      expect(isStorageKey(key)).toBe(false);
      await expect(storage.put(key, Buffer.from("x"))).rejects.toThrow("is not a storage key");
      await expect(storage.open(key)).rejects.toThrow("is not a storage key");
      await expect(storage.get(key)).rejects.toThrow("is not a storage key");
    }
    expect(await storage.list()).toEqual([]);
    expect(await sibling.list()).toEqual([]);
    expect(await storage.list("../")).toEqual([]);
  });
});
