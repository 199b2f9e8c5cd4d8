// GET /ai-ads/videos/{id}.mp4: an AI ad's video (and /ai-ads/videos/{id}-preview.mp4 its newest free preview), streamed with HTTP Range support so a <video> can
// seek (206 Partial Content; 416 for a range outside the file); ?download=1 sends it as an attachment.
// Only its owner gets it: the site's session cookie or a Shopify session token (bearer), or a signed
// link (?expires=&sig=) that the embedded app's page hands its <video>, whose requests carry neither.
// Anyone else: 404. Anonymous without a link: 401. The bytes come from the file-storage port (decision 045).
import { Readable } from "node:stream";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { parseAdId } from "~/pages/ai-ads/ai-ads.server";
import { handleServiceErrors } from "~/pages/http/http.server";
import type { VideoFile } from "~/services/ai-ads.server";
import { requireApiUser } from "~/pages/http/site-session.server";
import { aiAds } from "~/services/index.server";

/** The byte range a Range header asks for, "unsatisfiable", or null for the whole file. */
function parseRange(header: string | null, size: number): { start: number; end: number } | "unsatisfiable" | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges, or another unit: answer with the whole file, as RFC 9110 allows.
  if (!m || (m[1] === "" && m[2] === "")) return null;
  let start: number;
  let end: number;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0) return "unsatisfiable";
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return "unsatisfiable";
  return { start, end };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const name = /^(\d+)(-preview)?\.mp4$/.exec(params.file ?? "");
  const id = parseAdId(name?.[1]);
  const kind = name?.[2] ? "preview" : "video";
  const url = new URL(request.url);
  const sig = url.searchParams.get("sig");
  const expires = Number(url.searchParams.get("expires"));
  let file: VideoFile;
  if (sig && Number.isSafeInteger(expires)) {
    file = await handleServiceErrors(() => aiAds.openSignedVideo(id, expires, sig, kind));
  } else {
    const user = await requireApiUser(request);
    file = await handleServiceErrors(() => aiAds.openVideo(user.id, id, kind));
  }
  const headers = new Headers({
    "Content-Type": file.contentType,
    "Accept-Ranges": "bytes",
    "Cache-Control": "private, max-age=3600",
    "X-Content-Type-Options": "nosniff",
  });
  if (url.searchParams.get("download") === "1") headers.set("Content-Disposition", `attachment; filename="${file.fileName}"`);
  const range = parseRange(request.headers.get("range"), file.bytes);
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${file.bytes}`);
    return new Response(`The range is outside the video (${file.bytes} bytes).`, { status: 416, headers });
  }
  const { start, end } = range ?? { start: 0, end: file.bytes - 1 };
  headers.set("Content-Length", String(end - start + 1));
  if (range) headers.set("Content-Range", `bytes ${start}-${end}/${file.bytes}`);
  if (request.method === "HEAD") return new Response(null, { status: range ? 206 : 200, headers });
  const stream = await handleServiceErrors(() => file.open({ start, end }));
  const body = Readable.toWeb(stream) as ReadableStream<Uint8Array>;
  return new Response(body, { status: range ? 206 : 200, headers });
}
