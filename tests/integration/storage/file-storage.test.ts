// The file-storage port's disk adapter (docs/decisions/045), on a real temporary folder: keys with folders
// ("previews/…"), files written whole from bytes, a stream or a local file, read whole or streamed from a
// byte range, their size and type without reading them, listed by prefix, removed; keys that could leave
// the folder are refused and nothing is written.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { createFileStorage, isStorageKey } from "~/integrations/file-storage.server";

const freshRoot = () => mkdtempSync(path.join(tmpdir(), "file-storage-"));
const bytesOf = async (stream: Readable) => Buffer.concat(await stream.toArray());

describe("the disk adapter", () => {
  it("keeps files under keys with folders, reads them whole or by range, and lists them by prefix", async () => {
    const root = freshRoot();
    const storage = createFileStorage(root);
    const video = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
    await storage.put("12-1-ab12cd34.mp4", video);
    await storage.put("previews/12-3-ab12cd34.mp4", Buffer.from("preview"));
    await storage.put("previews/13-4-ab12cd34.mp4", Buffer.from("other"));

    expect(readFileSync(path.join(root, "previews", "12-3-ab12cd34.mp4"), "utf8")).toBe("preview");
    expect(await storage.get("12-1-ab12cd34.mp4")).toEqual(video);
    expect(await storage.stat("12-1-ab12cd34.mp4")).toMatchObject({ bytes: 1000, contentType: "video/mp4" });

    const whole = await storage.open("12-1-ab12cd34.mp4");
    expect(whole).toMatchObject({ bytes: 1000, contentType: "video/mp4" });
    expect(await bytesOf(whole!.body)).toEqual(video);
    const part = await storage.open("12-1-ab12cd34.mp4", { range: { start: 100, end: 199 } });
    expect(part!.bytes).toBe(1000);
    expect(await bytesOf(part!.body)).toEqual(video.subarray(100, 200));

    const names = (entries: { name: string }[]) => entries.map((e) => e.name).sort();
    expect(names(await storage.list("previews/"))).toEqual(["previews/12-3-ab12cd34.mp4", "previews/13-4-ab12cd34.mp4"]);
    expect(names(await storage.list("previews/12-"))).toEqual(["previews/12-3-ab12cd34.mp4"]);
    expect(names(await storage.list())).toEqual(["12-1-ab12cd34.mp4", "previews/12-3-ab12cd34.mp4", "previews/13-4-ab12cd34.mp4"]);
    expect(await storage.list("nothing-here/")).toEqual([]);
  });

  it("writes from a stream and from a local file (left in place), and a failed stream leaves nothing", async () => {
    const root = freshRoot();
    const storage = createFileStorage(root);
    await storage.put("from-stream.mp4", Readable.from([Buffer.from("one "), Buffer.from("two")]));
    expect(await storage.get("from-stream.mp4")).toEqual(Buffer.from("one two"));

    const local = path.join(freshRoot(), "rendered.mp4");
    writeFileSync(local, "rendered bytes");
    await storage.put("previews/from-file.mp4", { path: local });
    expect(await text((await storage.open("previews/from-file.mp4"))!.body)).toBe("rendered bytes");
    expect(existsSync(local)).toBe(true);

    const broken = new Readable({
      read() {
        this.destroy(new Error("the renderer stopped"));
      },
    });
    await expect(storage.put("broken.mp4", broken)).rejects.toThrow("the renderer stopped");
    expect(await storage.stat("broken.mp4")).toBeNull();
    expect(readdirSync(root).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("answers null for a missing file, and remove says how many bytes it freed", async () => {
    const storage = createFileStorage(freshRoot());
    expect(await storage.get("gone.mp4")).toBeNull();
    expect(await storage.open("gone.mp4")).toBeNull();
    expect(await storage.stat("previews/gone.mp4")).toBeNull();
    expect(await storage.remove("gone.mp4")).toBeNull();
    await storage.put("previews/here.png", Buffer.from("12345"));
    expect(await storage.stat("previews/here.png")).toMatchObject({ contentType: "image/png" });
    expect(await storage.remove("previews/here.png")).toBe(5);
    expect(await storage.remove("previews/here.png")).toBeNull();
  });

  it("refuses keys that are not keys (paths out of the folder, empty or hidden segments) and writes nothing", async () => {
    const parent = freshRoot();
    const root = path.join(parent, "store");
    const storage = createFileStorage(root);
    for (const key of ["../outside.mp4", "/etc/passwd", "a//b.mp4", ".hidden", "previews/../../x.mp4", "a/.b", "", "a\\b.mp4"]) {
      expect(isStorageKey(key)).toBe(false);
      await expect(storage.put(key, Buffer.from("x"))).rejects.toThrow("is not a storage key");
      await expect(storage.open(key)).rejects.toThrow("is not a storage key");
    }
    expect(readdirSync(parent)).toEqual([]);
    expect(await storage.list("../")).toEqual([]);
  });
});
