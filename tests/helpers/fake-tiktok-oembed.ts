// A stand-in for TikTok's oEmbed endpoint on 127.0.0.1 (GET /oembed?url=…), answering in its documented
// shape (https://developers.tiktok.com/doc/embed-videos). What it answers is decided per video by `mode`;
// every request is recorded so tests can assert what was sent.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type OEmbedMode = "ok" | "not-found" | "server-error" | "hang" | "not-json";

export interface FakeTikTokOEmbed {
  url: string;
  port: number;
  requests: { url: string | null; userAgent: string | undefined }[];
  /** How a video URL (as sent) is answered; "ok" when not set. */
  mode: Map<string, OEmbedMode>;
  /** Short link -> the canonical video it stands for. */
  shortLinks: Map<string, { user: string; id: string }>;
  close(): Promise<void>;
}

export async function startFakeTikTokOEmbed(): Promise<FakeTikTokOEmbed> {
  const requests: FakeTikTokOEmbed["requests"] = [];
  const mode = new Map<string, OEmbedMode>();
  const shortLinks = new Map<string, { user: string; id: string }>();
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? "/", "http://local");
    const video = u.searchParams.get("url");
    requests.push({ url: video, userAgent: req.headers["user-agent"] });
    if (u.pathname !== "/oembed" || !video) {
      res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ code: 400, message: "Something went wrong" }));
      return;
    }
    const m = mode.get(video) ?? "ok";
    if (m === "hang") return; // never answers
    if (m === "not-found") return void res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ code: 404, message: "Not found" }));
    if (m === "server-error") return void res.writeHead(503).end("busy");
    if (m === "not-json") return void res.writeHead(200, { "content-type": "text/html" }).end("<html>captcha</html>");
    const short = shortLinks.get(video);
    const match = /@([^/]+)\/video\/(\d+)/.exec(video);
    const user = short?.user ?? match?.[1] ?? "someone";
    const id = short?.id ?? match?.[2] ?? "0";
    const canonical = `https://www.tiktok.com/@${user}/video/${id}`;
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        version: "1.0",
        type: "video",
        title: `This gadget changed my mornings #fyp #tiktokmademebuyit (${id})`,
        author_url: `https://www.tiktok.com/@${user}`,
        author_name: `${user} shop`,
        width: "100%",
        height: "100%",
        html: `<blockquote class="tiktok-embed" cite="${canonical}" data-video-id="${id}"><section></section></blockquote> <script async src="https://www.tiktok.com/embed.js"></script>`,
        thumbnail_width: 576,
        thumbnail_height: 1024,
        thumbnail_url: `https://p16-sign.tiktokcdn-us.com/obj/${id}.jpeg`,
        provider_url: "https://www.tiktok.com",
        provider_name: "TikTok",
        embed_product_id: id,
        embed_type: "video",
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/oembed`,
    port,
    requests,
    mode,
    shortLinks,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
