// GET /product-images/stored/{sha256}.{jpg|png|webp|gif}: a product image fetched from the URL an import gave
// (docs/decisions/028). The name is the hash of the bytes, so a name never changes content: cached for a year.
// The bytes come through the file-storage port: a folder, or an S3-compatible bucket (decision 097).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { handleServiceErrors } from "~/pages/http/http.server";
import { productImages } from "~/services/index.server";

export async function loader({ params, request }: LoaderFunctionArgs) {
  // A store that cannot be read (a bucket that does not answer) is a 503 with a sentence (decision 097).
  const image = await handleServiceErrors(() => productImages.getStored(params.file ?? ""));
  if (!image) {
    return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  }
  const headers = {
    "Content-Type": image.contentType,
    "Cache-Control": "public, max-age=31536000, immutable",
    "Content-Security-Policy": "default-src 'none'",
    "X-Content-Type-Options": "nosniff",
    ETag: image.etag,
  };
  if (request.headers.get("if-none-match") === image.etag) return new Response(null, { status: 304, headers });
  return new Response(new Uint8Array(image.bytes), { headers: { ...headers, "Content-Length": String(image.bytes.length) } });
}
