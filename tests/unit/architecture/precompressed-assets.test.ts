// The client build's scripts and styles are served compressed once at the strongest settings
// (server/precompressed-assets.mjs): what the browser receives decompresses to the file itself, the
// encoding follows Accept-Encoding, and anything else falls through to the usual static handler.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { pickEncoding, precompressedAssets } from "../../../server/precompressed-assets.mjs";

const dir = mkdtempSync(path.join(tmpdir(), "assets-"));
const css = Buffer.from(".Polaris-Button{color:red}\n".repeat(2000));
writeFileSync(path.join(dir, "styles-abc.css"), css);
writeFileSync(path.join(dir, "tiny-abc.js"), "export{};");
writeFileSync(path.join(dir, "logo-abc.svg"), "<svg/>".repeat(500));
const serve = precompressedAssets(dir);

async function get(file: string, acceptEncoding?: string) {
  const headers: Record<string, string> = {};
  let body: Buffer | undefined;
  let passed = false;
  await new Promise<void>((resolve) => {
    const res = {
      setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value),
      end: (b?: Buffer) => {
        body = b;
        resolve();
      },
    };
    const req = { method: "GET", path: `/${file}`, headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {} };
    void serve(req, res, () => {
      passed = true;
      resolve();
    });
  });
  return { headers, body, passed };
}

describe("precompressed assets", () => {
  it("answers Brotli when accepted, gzip otherwise, both the file's exact bytes, cached for a year", async () => {
    const br = await get("styles-abc.css", "gzip, deflate, br, zstd");
    expect(br.headers).toMatchObject({ "content-encoding": "br", "content-type": "text/css; charset=utf-8", vary: "Accept-Encoding" });
    expect(br.headers["cache-control"]).toContain("immutable");
    expect(brotliDecompressSync(br.body!).equals(css)).toBe(true);
    expect(br.body!.length).toBeLessThan(css.length / 20);
    const gz = await get("styles-abc.css", "gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body!).equals(css)).toBe(true);
  });

  it("leaves to the static handler: no accepted encoding, tiny files, other types, unknown or escaping names", async () => {
    expect((await get("styles-abc.css")).passed).toBe(true);
    expect((await get("styles-abc.css", "br;q=0, gzip;q=0")).passed).toBe(true);
    expect((await get("tiny-abc.js", "br")).passed).toBe(true);
    expect((await get("logo-abc.svg", "br")).passed).toBe(true);
    expect((await get("missing.css", "br")).passed).toBe(true);
    expect((await get("../styles-abc.css", "br")).passed).toBe(true);
  });

  it("reads Accept-Encoding with weights", () => {
    expect(pickEncoding("gzip, br")).toBe("br");
    expect(pickEncoding("br;q=0, gzip;q=0.5")).toBe("gzip");
    expect(pickEncoding("*")).toBe("br");
    expect(pickEncoding("identity")).toBeNull();
    expect(pickEncoding(undefined)).toBeNull();
  });
});
