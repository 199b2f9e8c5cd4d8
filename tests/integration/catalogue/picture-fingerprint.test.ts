// The picture fingerprint adapter (app/integrations/picture-fingerprint.server.ts, docs/decisions/046) on real
// bytes drawn by the market simulator's pictures (scripts/lib/market-pictures.ts): what stores do to a supplier
// photo keeps the fingerprint near, another product's is far, and bad bytes (not a picture, cut short, a
// decompression bomb) are refused with a sentence.
import { describe, expect, it } from "vitest";
import { hammingDistance, parseHash } from "~/domain/catalogue/hash";
import { MATCH } from "~/domain/catalogue/match";
import { createPictureFingerprinter, PictureFingerprintError } from "~/integrations/picture-fingerprint.server";
import { drawPicture, randomDesign, variantPicture } from "../../../scripts/lib/market-pictures";
import { png } from "../../helpers/png";

const fingerprinter = createPictureFingerprinter({ maxPixels: 4_000_000 });
const hashOf = async (bytes: Buffer) => parseHash(await fingerprinter.fingerprint(bytes))!;

describe("picture fingerprints", () => {
  it("a re-encoded, resized or colour-shifted copy stays near; another product is far", async () => {
    const design = randomDesign(11);
    const original = await hashOf(await drawPicture(design));
    for (const kind of ["reencode", "resize", "colour-shift"] as const) {
      expect(hammingDistance(original, await hashOf(await variantPicture(design, kind, 3))), kind).toBeLessThanOrEqual(MATCH.strongDistance);
    }
    expect(hammingDistance(original, await hashOf(await drawPicture(randomDesign(12))))).toBeGreaterThan(MATCH.maxDistance);
  });

  it("refuses what is not a picture, a cut-short file and a decompression bomb, with sentences", async () => {
    await expect(fingerprinter.fingerprint(Buffer.from("<html>not a picture</html>"))).rejects.toThrow(new PictureFingerprintError("The file is not a picture we can read."));
    await expect(fingerprinter.fingerprint(Buffer.alloc(0))).rejects.toThrow("The picture is an empty file.");
    const photo = await drawPicture(randomDesign(13));
    await expect(fingerprinter.fingerprint(photo.subarray(0, photo.length >> 1))).rejects.toThrow("The picture is damaged or cut short and could not be read.");
    // 3000 x 3000 of one colour compresses to a few KB and would decode to 27 MB.
    await expect(fingerprinter.fingerprint(png(3000, 3000, [250, 250, 250]))).rejects.toThrow("The picture has more than 4 megapixels.");
  });
});
