// GET /product-images/{objectID}-{n}.svg: the generated picture of a product (a resource route).
// The same name always draws the same picture, so browsers and CDNs may keep it for a year.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { productImages } from "~/services/index.server";

const IMAGE_HEADERS = {
  "Content-Type": "image/svg+xml; charset=utf-8",
  "Cache-Control": "public, max-age=31536000, immutable",
  // An SVG opened on its own must not run anything.
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
  "X-Content-Type-Options": "nosniff",
};

export async function loader({ params, request }: LoaderFunctionArgs) {
  const image = await productImages.get(params.file ?? "");
  if (!image) {
    return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  }
  const headers = { ...IMAGE_HEADERS, ETag: image.etag };
  if (request.headers.get("if-none-match") === image.etag) return new Response(null, { status: 304, headers });
  return new Response(image.svg, { headers });
}
