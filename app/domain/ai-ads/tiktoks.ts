// TikTok library rules (seed tiktoks; docs/decisions/033): which links are TikTok videos, their canonical
// form, what a saved link may carry, and how the oEmbed answer is read. Pure: no I/O.
//
// Accepted:  https://www.tiktok.com/@user/video/1234567890123456789 (also m.tiktok.com, no scheme, query
//            and fragment dropped) -> canonical https://www.tiktok.com/@user/video/ID;
//            short links https://vm.tiktok.com/CODE/, https://vt.tiktok.com/CODE/, https://www.tiktok.com/t/CODE/
//            -> kept as https://vm.tiktok.com/CODE/ (…) and resolved by the oEmbed fetch, whose answer names the
//            video (its id and author); until then the link is saved as it was given.
// Refused with a sentence: other hosts (including look-alikes such as tiktok.com.evil.example), TikTok pages
// that are not one video (a profile, a photo post, a tag), and anything that is not a web address.
import { z } from "zod";

export const TIKTOK_LIMITS = { noteMax: 500, urlMax: 500, perProductMax: 50 } as const;

export type TikTokLink =
  | { kind: "video"; url: string; videoId: string; username: string }
  | { kind: "short"; url: string; videoId: string; code: string };

export type TikTokLinkResult = { ok: true; link: TikTokLink } | { ok: false; message: string };

const VIDEO_HOSTS = new Set(["www.tiktok.com", "tiktok.com", "m.tiktok.com"]);
const SHORT_HOSTS = new Set(["vm.tiktok.com", "vt.tiktok.com"]);
const USERNAME = /^@([A-Za-z0-9._]{1,32})$/;
const VIDEO_ID = /^\d{8,25}$/;
const SHORT_CODE = /^[A-Za-z0-9]{5,20}$/;

/** A TikTok video link, canonical; or the sentence saying why it is not one. */
export function parseTikTokUrl(input: string): TikTokLinkResult {
  const raw = input.trim();
  if (raw === "") return { ok: false, message: "Paste the link of a TikTok video." };
  if (raw.length > TIKTOK_LIMITS.urlMax) return { ok: false, message: "That link is too long to be a TikTok video link." };
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return { ok: false, message: "That is not a web address. Paste a link like https://www.tiktok.com/@user/video/1234567890." };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return { ok: false, message: "Only https links to TikTok videos can be saved." };
  if (url.username || url.password || (url.port && url.port !== "443" && url.port !== "80"))
    return { ok: false, message: "That is not a TikTok link: TikTok links have no user name, password or port." };
  const host = url.hostname.toLowerCase();
  const parts = url.pathname.split("/").filter(Boolean);
  if (SHORT_HOSTS.has(host)) {
    const code = parts[0] ?? "";
    if (parts.length !== 1 || !SHORT_CODE.test(code))
      return { ok: false, message: `That ${host} link has no video code (it should look like https://${host}/ZMabc123/).` };
    return { ok: true, link: { kind: "short", url: `https://${host}/${code}/`, videoId: `short:${host.slice(0, 2)}:${code}`, code } };
  }
  if (!VIDEO_HOSTS.has(host)) {
    if (host.endsWith(".tiktok.com")) return { ok: false, message: `That TikTok address (${host}) is not a video link.` };
    return { ok: false, message: `Only TikTok video links can be saved; ${host} is not TikTok.` };
  }
  if (parts[0] === "t" && parts.length === 2 && SHORT_CODE.test(parts[1]))
    return { ok: true, link: { kind: "short", url: `https://www.tiktok.com/t/${parts[1]}/`, videoId: `short:t:${parts[1]}`, code: parts[1] } };
  const user = USERNAME.exec(parts[0] ?? "");
  if (user && parts[1] === "video" && VIDEO_ID.test(parts[2] ?? "") && parts.length === 3) {
    return {
      ok: true,
      link: { kind: "video", url: `https://www.tiktok.com/@${user[1]}/video/${parts[2]}`, videoId: parts[2], username: user[1] },
    };
  }
  if (user && parts[1] === "photo") return { ok: false, message: "That is a TikTok photo post, not a video." };
  if (user && parts.length === 1) return { ok: false, message: `That is the profile of @${user[1]}; open one of their videos and copy its link.` };
  return { ok: false, message: "That TikTok link is not a video. A video link looks like https://www.tiktok.com/@user/video/1234567890." };
}

/** TikTok's oEmbed answer, the fields we keep (https://developers.tiktok.com/doc/embed-videos). */
export const OEmbedSchema = z.object({
  type: z.string().optional(),
  title: z.string().max(5000).optional().default(""),
  author_name: z.string().max(200).optional(),
  author_url: z.string().max(500).optional(),
  thumbnail_url: z.string().max(2000).optional(),
  html: z.string().max(20000).optional(),
  embed_product_id: z.string().max(40).optional(),
});
export type OEmbed = z.infer<typeof OEmbedSchema>;

export interface TikTokMeta {
  title: string;
  authorName: string | null;
  authorUrl: string | null;
  thumbnailUrl: string | null;
  /** The video the answer names (id and canonical URL), when it does: how a short link is resolved. */
  video: { videoId: string; url: string } | null;
}

const httpsOnly = (v: string | undefined) => (v && /^https:\/\/[^\s"'<>]+$/i.test(v) ? v : null);

/** What we keep from an oEmbed answer: plain text, https links only, the video it names (from its embed html). */
export function readOEmbed(o: OEmbed): TikTokMeta {
  const cite = /cite="([^"]+)"/.exec(o.html ?? "")?.[1];
  const fromCite = cite ? parseTikTokUrl(cite) : null;
  let video: TikTokMeta["video"] = null;
  if (fromCite?.ok && fromCite.link.kind === "video") video = { videoId: fromCite.link.videoId, url: fromCite.link.url };
  const title = o.title.replace(/\s+/g, " ").trim().slice(0, 300);
  return {
    title,
    authorName: o.author_name?.trim().slice(0, 100) || null,
    authorUrl: httpsOnly(o.author_url),
    thumbnailUrl: httpsOnly(o.thumbnail_url),
    video,
  };
}

/** The first words of a saved video's caption, as a hook the ad writer may take after. */
export function hookOf(title: string): string {
  const t = title.replace(/#[\p{L}\p{N}_]+/gu, "").replace(/\s+/g, " ").trim();
  return t.length <= 90 ? t : `${t.slice(0, 87).replace(/\s+\S*$/, "")}…`;
}
