// Product images from the web (docs/decisions/028): an image URL an import carries is fetched once through the
// SSRF-safe fetcher (safe-fetch.server.ts: public addresses only, redirects re-checked, the body capped while it
// is read), then judged from its bytes, never its name or Content-Type: JPEG, PNG, WebP or GIF (file-type),
// with its pixel size read from the header (image-size) and capped. Every refusal is a sentence for the import
// summary; the product keeps its category drawing.
import { createRequire } from "node:module";
import { fileTypeFromBuffer } from "file-type";
import { imageSize } from "image-size";
import type { PictureFetchFailure } from "~/domain/catalogue/picture-failures";
import { SafeFetchError, type SafeFetcher } from "~/integrations/safe-fetch.server";

export interface ImageFetchLimits {
  maxBytes: number;
  maxSide: number;
  maxPixels: number;
  timeoutMs: number;
}

export const IMAGE_FETCH_LIMITS: ImageFetchLimits = {
  maxBytes: 5 * 1024 * 1024,
  /** Longest side and total pixels: a small file can still claim a huge canvas (a decompression bomb). */
  maxSide: 8000,
  maxPixels: 40_000_000,
  timeoutMs: 15_000,
};

/** What we keep, by the type the bytes show. */
export const IMAGE_TYPES = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "image/gif": "gif",
} as const;

export type StoredImageType = keyof typeof IMAGE_TYPES;

export interface FetchedImage {
  bytes: Buffer;
  contentType: StoredImageType;
  ext: (typeof IMAGE_TYPES)[StoredImageType];
  width: number;
  height: number;
}

export class ImageFetchError extends Error {
  constructor(
    message: string,
    /** What failed, for callers that retry (the catalogue's pictures: app/domain/catalogue/picture-failures.ts). */
    readonly failure: PictureFetchFailure = { kind: "not-an-image" },
  ) {
    super(message);
    this.name = "ImageFetchError";
  }
}

export interface ImageFetcher {
  fetch(url: string): Promise<FetchedImage>;
  /** A kept photo drawn as an SVG an ad frame can embed (photoAsSvg); null for a type it cannot draw. */
  photoAsSvg(bytes: Uint8Array, contentType: string): string | null;
}

const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** The type and size of an image from its bytes, or the reason it is not one we keep. */
export async function inspectImage(bytes: Buffer, limits: ImageFetchLimits = IMAGE_FETCH_LIMITS): Promise<Omit<FetchedImage, "bytes">> {
  if (bytes.length === 0) throw new ImageFetchError("The address answered with an empty file.");
  const type = await fileTypeFromBuffer(bytes);
  if (!type || !(type.mime in IMAGE_TYPES)) {
    const what = type ? `${type.mime} (.${type.ext})` : "not an image we can read";
    throw new ImageFetchError(`The file is not a JPEG, PNG, WebP or GIF image: its contents are ${what}.`, { kind: "not-an-image" });
  }
  let size: { width?: number; height?: number };
  try {
    size = imageSize(bytes);
  } catch {
    throw new ImageFetchError("The image's header could not be read: the file is damaged or cut short.");
  }
  const width = size.width ?? 0;
  const height = size.height ?? 0;
  if (width < 1 || height < 1) throw new ImageFetchError("The image has no width or height.");
  if (width > limits.maxSide || height > limits.maxSide || width * height > limits.maxPixels) {
    throw new ImageFetchError(
      `The image is ${width}x${height} pixels; at most ${limits.maxSide} pixels a side and ${limits.maxPixels / 1_000_000} megapixels are kept.`,
      { kind: "too-many-pixels" },
    );
  }
  const contentType = type.mime as StoredImageType;
  return { contentType, ext: IMAGE_TYPES[contentType], width, height };
}

export function createImageFetcher(options: { fetcher: SafeFetcher; limits?: Partial<ImageFetchLimits> }): ImageFetcher {
  const limits = { ...IMAGE_FETCH_LIMITS, ...options.limits };
  return {
    photoAsSvg: (bytes, contentType) => photoAsSvg(bytes, contentType),
    async fetch(url) {
      let response;
      try {
        response = await options.fetcher.fetch(url, {
          headers: { accept: "image/avif,image/webp,image/png,image/jpeg,image/gif;q=0.9,*/*;q=0.1" },
          maxBytes: limits.maxBytes,
          timeoutMs: limits.timeoutMs,
        });
      } catch (error) {
        if (!(error instanceof SafeFetchError)) throw error;
        switch (error.kind) {
          case "too-large":
            throw new ImageFetchError(`The image is larger than ${mb(limits.maxBytes)}, the most we keep.`, { kind: "too-large" });
          case "timeout":
            throw new ImageFetchError(`The image's server did not answer within ${limits.timeoutMs / 1000} s.`, { kind: "timeout" });
          default:
            throw new ImageFetchError(error.message, { kind: error.kind });
        }
      }
      if (response.status !== 200) {
        throw new ImageFetchError(
          response.status === 404 || response.status === 410
            ? `The image is not there any more (the server answered ${response.status}).`
            : `The image's server answered ${response.status} instead of the image.`,
          { kind: "status", status: response.status, retryAfter: response.headers["retry-after"] },
        );
      }
      return { bytes: response.body, ...(await inspectImage(response.body, limits)) };
    },
  };
}

const require = createRequire(import.meta.url);
const { Resvg } = require("@resvg/resvg-js") as typeof import("@resvg/resvg-js");

/**
 * A stored photo as a standalone SVG document for the ad renderer (video-render.server.ts nests it): drawn
 * once at `size` px on white by resvg (so frames embed a small PNG, not a 5 MB original decoded 450 times)
 * and fitted whole (no crop). resvg cannot decode WebP: null, and the ad keeps the category drawing.
 */
export function photoAsSvg(bytes: Uint8Array, contentType: string, size = 840): string | null {
  if (contentType === "image/webp") return null;
  const source = `data:${contentType};base64,${Buffer.from(bytes).toString("base64")}`;
  const png = new Resvg(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><rect width="${size}" height="${size}" rx="${size / 20}" fill="#ffffff"/><image href="${source}" x="${size / 20}" y="${size / 20}" width="${size * 0.9}" height="${size * 0.9}" preserveAspectRatio="xMidYMid meet"/></svg>`,
    { fitTo: { mode: "original" }, font: { loadSystemFonts: false } },
  )
    .render()
    .asPng();
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" width="${size}" height="${size}"><image href="data:image/png;base64,${Buffer.from(png).toString("base64")}" width="${size}" height="${size}"/></svg>`;
}
