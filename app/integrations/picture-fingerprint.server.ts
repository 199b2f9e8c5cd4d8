// Picture fingerprints for the measured catalogue (docs/decisions/046): sharp decodes the bytes (JPEG, PNG, WebP,
// GIF, AVIF; the first frame of an animation) on libuv's thread pool, and sharp-phash reduces the picture to the
// classic 64-bit DCT perceptual hash (grey 32x32, the lowest 8x8 frequencies, each bit: above the median). Near
// pictures have near hashes: re-encoding, resizing and colour shifts move a few bits; crops and badges more.
// The decoder is bounded: at most IMAGE_FETCH_LIMITS.maxPixels pixels (a decompression bomb is refused before it
// is decoded) and truncated or damaged data is an error, never a half-read picture.
import sharp from "sharp";
import phash from "sharp-phash";
import type { PictureFingerprinter } from "~/domain/catalogue/hash";
import { IMAGE_FETCH_LIMITS } from "~/integrations/image-fetch.server";

export class PictureFingerprintError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PictureFingerprintError";
  }
}

/** 64 characters of "0"/"1", most significant first -> 16 hex digits. */
function bitsToHex(bits: string): string {
  if (!/^[01]{64}$/.test(bits)) throw new PictureFingerprintError("The picture could not be fingerprinted.");
  let hex = "";
  for (let i = 0; i < 64; i += 4) hex += Number.parseInt(bits.slice(i, i + 4), 2).toString(16);
  return hex;
}

export function createPictureFingerprinter(limits = { maxPixels: IMAGE_FETCH_LIMITS.maxPixels }): PictureFingerprinter {
  // One decode at a time per worker thread of libuv is sharp's default; caching decoded files is useless here.
  sharp.cache(false);
  return {
    async fingerprint(bytes) {
      if (bytes.length === 0) throw new PictureFingerprintError("The picture is an empty file.");
      try {
        return bitsToHex(await phash(bytes, { limitInputPixels: limits.maxPixels, failOn: "error", pages: 1 }));
      } catch (error) {
        if (error instanceof PictureFingerprintError) throw error;
        const message = error instanceof Error ? error.message : String(error);
        if (/pixel limit/i.test(message)) throw new PictureFingerprintError(`The picture has more than ${limits.maxPixels / 1_000_000} megapixels.`);
        if (/unsupported image format/i.test(message)) throw new PictureFingerprintError("The file is not a picture we can read.");
        throw new PictureFingerprintError("The picture is damaged or cut short and could not be read.");
      }
    },
  };
}
