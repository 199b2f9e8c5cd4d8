// The AI ads editor (/dashboard/ai-ads?ad={id}) as a seller's browser first gets it: the route's own loader on the
// real database, the page rendered on the server inside the site's Polaris provider, read before any script runs.
// It pins what the editor shows for each state of an ad (a script to edit, rendering, rendered, failed; its free
// preview being made, failed, made, out of date; no previews left; a sample product; no plan; voices and music to
// pick) and what its forms send: the product picker's and the storyboard's fields, sent as a browser sends a form,
// create and save through the page's action, and the saved edit comes back in the fields.
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { action as pageAction, loader as pageLoader } from "~/routes/dashboard.ai-ads";
import type { AiAdView } from "~/services/ai-ads.server";
import * as credits from "~/services/billing/credits.server";
import { brandKits } from "~/services/index.server";
import { AiAdsPage, type AiAdsPageData } from "~/ui/ai-ads/ai-ads-page";
import { PolarisProvider } from "~/ui/shared/site-shell";
import { fixtureCatalogue, insertProducts } from "../../helpers/products";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

const [PRODUCT] = fixtureCatalogue(1, 53).map((p) => ({ ...p, objectID: "ads-editor-brush", orders: 4120 }));

beforeAll(async () => {
  await insertProducts(db, [PRODUCT]);
});

/** The page at `url` as the server renders it, before any script runs. */
async function render(data: AiAdsPageData, url: string): Promise<string> {
  const Component = () => createElement(PolarisProvider, null, createElement(AiAdsPage, { data, surface: "site" }));
  const handler = createStaticHandler([{ path: "/dashboard/ai-ads", Component }]);
  const context = await handler.query(new Request(new URL(url, "http://localhost")));
  if (context instanceof Response) throw new Error(`the router answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(createElement(StaticRouterProvider, { router, context, hydrate: false }));
}

function decode(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&");
}

function attributes(tag: string): Record<string, string> {
  return Object.fromEntries([...tag.matchAll(/([\w:-]+)(?:="([^"]*)")?/g)].slice(1).map(([, name, value]) => [name, decode(value ?? "")]));
}

/** What a seller reads: the page's text without its tags, one space between words. */
function textOf(html: string): string {
  const words = html.replace(/<!--[\s\S]*?-->/g, "").replace(/<(script|style)\b[\s\S]*?<\/\1>/g, " ");
  return decode(words.replace(/<[^>]+>/g, " ")).replace(/\s+/g, " ").trim();
}

/**
 * Each <button> by its text: whether it can be pressed (Polaris marks a disabled button aria-disabled) and whether it
 * shows its spinner (aria-busy; the spinner's "Loading" is not part of the name used here).
 */
function buttons(html: string): Map<string, { disabled: boolean; busy: boolean; type: string }> {
  const found = new Map<string, { disabled: boolean; busy: boolean; type: string }>();
  for (const [, tag, inner] of html.matchAll(/(<button\b[^>]*>)([\s\S]*?)<\/button>/g)) {
    const a = attributes(tag);
    const busy = a["aria-busy"] === "true";
    const name = busy ? textOf(inner).replace(/^Loading /, "") : textOf(inner);
    found.set(name, { disabled: "disabled" in a || a["aria-disabled"] === "true", busy, type: a.type ?? "submit" });
  }
  return found;
}

/** The page's <form>s: their attributes and what each sends when submitted as it is, as a browser builds its body. */
function forms(html: string) {
  return [...html.matchAll(/(<form\b[^>]*>)([\s\S]*?)<\/form>/g)].map(([, tag, inner]) => {
    const fields: [string, string][] = [];
    for (const [, open, kind, body] of inner.matchAll(/(<(input|textarea|select)\b[^>]*>)(?:([\s\S]*?)<\/\2>)?/g)) {
      const a = attributes(open);
      if (!a.name || "disabled" in a) continue;
      if (kind === "input" && (a.type === "checkbox" || a.type === "radio") && !("checked" in a)) continue;
      if (kind === "input") fields.push([a.name, a.type === "checkbox" && !("value" in a) ? "on" : (a.value ?? "")]);
      else if (kind === "textarea") fields.push([a.name, decode(body ?? "")]);
      else {
        const options = [...(body ?? "").matchAll(/<option\b[^>]*>/g)].map(([o]) => attributes(o));
        const chosen = options.find((o) => "selected" in o) ?? options[0];
        if (chosen) fields.push([a.name, chosen.value ?? ""]);
      }
    }
    return { attributes: attributes(tag), fields, send: Object.fromEntries(fields) };
  });
}

function formFor(html: string, intent: string) {
  const form = forms(html).find((f) => f.send.intent === intent);
  if (!form) throw new Error(`no form sends intent=${intent}`);
  return form;
}

async function seller(balance: number) {
  const user = await createSignedInUser({ userSubscribed: "yes" });
  await credits.applyAllowance(db, { userId: user.id, feature: "ai-ads", allowance: balance, idempotencyKey: `editor:${user.id}`, reason: "test", mode: "reset" });
  return user;
}

async function load(cookie: string, url: string): Promise<AiAdsPageData> {
  const res = await call(pageLoader, url, { cookie });
  expect(res.status).toBe(200);
  return res.json();
}

/** A seller with a brand kit and an ad written from the product through the picker's form, and the editor's data. */
async function sellerWithAd() {
  const user = await seller(10);
  const kit = await brandKits.create(user.id, { name: "Brush Co", primaryColour: "#123a7a", accentColour: "#c2185b", font: "dejavu-serif", tagline: "Brushed", tone: "warm" });
  const picker = await render(await load(user.cookie, `/dashboard/ai-ads?product=${PRODUCT.objectID}`), `/dashboard/ai-ads?product=${PRODUCT.objectID}`);
  const create = formFor(picker, "create");
  expect(create.attributes.method).toBe("post");
  expect(create.send).toEqual({ intent: "create", objectID: PRODUCT.objectID, brandKitId: "" });
  const created = await call(pageAction, "/dashboard/ai-ads", { cookie: user.cookie, form: { ...create.send, brandKitId: String(kit.id) } });
  expect(created.status).toBe(201);
  const { adId } = (await created.json()) as { adId: number };
  const url = `/dashboard/ai-ads?ad=${adId}`;
  const data = await load(user.cookie, url);
  const ad = data.ads.find((a) => a.id === adId)!;
  return { user, kit, url, data, ad };
}

/** The page's data with the open ad changed (its state as the service reports it at other moments). */
function withAd(data: AiAdsPageData, id: number, change: Partial<AiAdView>, page: Partial<AiAdsPageData> = {}): AiAdsPageData {
  return { ...data, ...page, ads: data.ads.map((a) => (a.id === id ? { ...a, ...change } : a)) };
}

describe("the product picker", () => {
  it("offers the product a product page sent, with the brand kits and the seller's own free-shipping promise", async () => {
    const user = await seller(10);
    await brandKits.create(user.id, { name: "Picker Kit", primaryColour: "#123a7a", accentColour: "#c2185b", font: "dejavu-serif", tagline: "", tone: "" });
    const url = `/dashboard/ai-ads?product=${PRODUCT.objectID}`;
    const html = await render(await load(user.cookie, url), url);
    const text = textOf(html);
    expect(text).toContain("New ad");
    expect(text).toContain(PRODUCT.title);
    expect(text).toContain("4,120 orders in 30 days");
    expect(text).toContain("10 left");
    expect(text).toContain("My store ships this product free");
    expect(html).toMatch(/<option value="" selected="">Default kit \(Picker Kit\)<\/option><option value="\d+">Picker Kit<\/option>/);
    expect(buttons(html).get("Write the ad script")).toEqual({ disabled: false, busy: false, type: "submit" });
    const create = formFor(html, "create");
    expect(create.send).toEqual({ intent: "create", objectID: PRODUCT.objectID, brandKitId: "" });
    // Ticked, the box sends what the action reads as the seller's promise.
    expect(html).toMatch(/<input type="checkbox" name="freeShipping"\/>/);
    expect(text).toContain("No AI ads yet");
  });
});

describe("the editor", () => {
  it("shows the script to edit, and its form sent as it is saves the seller's edits", async () => {
    const { user, kit, url, data, ad } = await sellerWithAd();
    expect(ad.status).toBe("preview");
    expect(ad.hookOptions.length).toBeGreaterThan(1);
    const html = await render(data, url);
    const text = textOf(html);

    expect(text).toContain(`${ad.title} Preview built-in writer From ${PRODUCT.title}`);
    expect(text).toContain(`${data.previews.limit} of ${data.previews.limit} free previews left today`);
    const shown = buttons(html);
    expect(shown.get("Preview video (free)")).toEqual({ disabled: false, busy: false, type: "submit" });
    expect(shown.get("Render video (5 credits)")).toEqual({ disabled: false, busy: false, type: "submit" });
    expect(shown.get("Delete")).toEqual({ disabled: false, busy: false, type: "button" });
    expect(shown.get("Save script")).toEqual({ disabled: false, busy: false, type: "submit" });
    expect(formFor(html, "preview").send).toEqual({ intent: "preview", id: String(ad.id) });
    expect(formFor(html, "render").send).toEqual({ intent: "render", id: String(ad.id) });

    const seconds = ad.scenes.reduce((s, x) => s + x.durationMs, 0) / 1000;
    expect(text).toContain(`Storyboard ${seconds} s of 12-20 s`);
    expect(text).toContain("Scene 1: Hook");
    expect(text).toContain(`Scene ${ad.scenes.length}: Call to action`);
    expect(text).toContain("Pick a hook:");
    expect([...shown.keys()].filter((b) => b.endsWith(" (in use)"))).toEqual([`${ad.scenes[0].text} (in use)`]);
    expect(shown.get(`${ad.scenes[0].text} (in use)`)?.disabled).toBe(true);
    for (const hook of ad.hookOptions.slice(1)) expect(shown.get(hook)).toEqual({ disabled: false, busy: false, type: "button" });
    expect(text).toContain("Voice-over is not available here yet: videos are made without a voice.");
    expect(text).not.toContain("Video of");
    expect(text).not.toContain("Download MP4");

    // What the storyboard's form sends as rendered: every field the action reads, with the saved values.
    const save = formFor(html, "update");
    expect(save.attributes.method).toBe("post");
    expect(save.fields.map(([name]) => name)).toEqual([
      "intent",
      "id",
      "brandKitId",
      "format",
      "sound",
      ...(data.sound.musicTracks.length > 0 ? ["musicTrack"] : []),
      "title",
      ...ad.scenes.flatMap((_, i) => [`text${i}`, `seconds${i}`]),
    ]);
    expect(save.send).toMatchObject({ intent: "update", id: String(ad.id), brandKitId: String(kit.id), format: "9:16", sound: "1", title: ad.title });
    ad.scenes.forEach((scene, i) => {
      expect(save.send[`text${i}`]).toBe(scene.text);
      expect(save.send[`seconds${i}`]).toBe(String(scene.durationMs / 1000));
    });
    expect(html).toContain('<option value="9:16" selected="">9:16 vertical (TikTok, Reels, Stories)</option>');

    // The seller edits the hook, a duration, the title, the shape and the kit, and saves.
    const edited = { ...save.send, text0: "Pet hair on everything?", seconds1: "3.5", title: "Brush ad, square", format: "1:1", brandKitId: "" };
    const saved = await call(pageAction, url, { cookie: user.cookie, form: edited });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toMatchObject({ ok: true, message: "Saved." });
    const again = formFor(await render(await load(user.cookie, url), url), "update");
    expect(again.send).toMatchObject({ text0: "Pet hair on everything?", seconds1: "3.5", title: "Brush ad, square", format: "1:1", brandKitId: "" });
  });

  it("shows each state of an ad, and offers only what can be done in it", async () => {
    const { url, data, ad } = await sellerWithAd();
    const at = (change: Partial<AiAdView>, page: Partial<AiAdsPageData> = {}) => render(withAd(data, ad.id, change, page), url);

    const rendering = await at({ status: "rendering", progress: 40 });
    expect(textOf(rendering)).toContain("Rendering 40%");
    expect(rendering).toMatch(/<progress [^>]*value="40" max="100">/);
    expect(textOf(rendering)).toContain("The script can be edited again if this render fails.");
    expect(buttons(rendering).get("Render video (5 credits)")).toEqual({ disabled: true, busy: true, type: "submit" });
    expect(buttons(rendering).get("Delete")?.disabled).toBe(true);
    expect(buttons(rendering).has("Preview video (free)")).toBe(false);
    expect(buttons(rendering).has("Save script")).toBe(false);
    expect(formFor(rendering, "update").fields.map(([n]) => n)).toEqual(["intent", "id", "sound"]);

    const completed = await at({
      status: "completed",
      progress: 100,
      storageUrl: `/ai-ads/videos/${ad.id}.mp4`,
      downloadUrl: `/ai-ads/videos/${ad.id}.mp4?download=1`,
      width: 540,
      height: 960,
      durationMs: 15_000,
      bytes: 2_300_000,
    });
    expect(completed).toContain(`<video src="/ai-ads/videos/${ad.id}.mp4" controls="" playsinline="" preload="metadata" aria-label="Video of ${ad.title}"`);
    expect(completed).toMatch(new RegExp(`<a href="/ai-ads/videos/${ad.id}\\.mp4\\?download=1" download="ai-ad-${ad.id}\\.mp4" class="Polaris-Button[^"]*">`));
    expect(textOf(completed)).toContain("Download MP4 540x960 · 15 s · 2246 KB");
    expect(textOf(completed)).toContain("Completed");
    expect(textOf(completed)).toContain("This ad is rendered; its script stays as it is. Create a new ad to change it.");
    expect([...buttons(completed).keys()].filter((b) => /Preview video|Render video|Save script/.test(b))).toEqual([]);
    expect(buttons(completed).get("Delete")?.disabled).toBe(false);

    const failed = await at({ status: "failed", errors: ["The renderer stopped.", "Your 5 credits were refunded."] });
    expect(textOf(failed)).toContain("Failed");
    expect(textOf(failed)).toContain("The last render failed The renderer stopped. Your 5 credits were refunded.");
    expect(buttons(failed).get("Render video (5 credits)")?.disabled).toBe(false);
    expect(buttons(failed).get("Save script")?.disabled).toBe(false);

    const preview = { progress: 0, error: null, url: null, current: true, width: null, height: null, durationMs: null, renderedAt: null };
    const making = await at({ previewVideo: { ...preview, status: "rendering", progress: 30 } });
    expect(textOf(making)).toContain("Making the free preview 30%");
    expect(buttons(making).get("Preview video (free)")).toEqual({ disabled: true, busy: true, type: "submit" });

    const refused = await at({ previewVideo: { ...preview, status: "failed", error: "The frame could not be drawn." } });
    expect(textOf(refused)).toContain("The preview could not be made The frame could not be drawn. Previews are free: try again.");
    expect(buttons(refused).get("Preview video (free)")?.disabled).toBe(false);

    const made = { ...preview, status: "completed" as const, url: `/ai-ads/videos/${ad.id}-preview.mp4?v=7`, width: 540, height: 960, durationMs: 15_000 };
    const current = await at({ previewVideo: made, voiceOver: true }, { previews: { ...data.previews, used: 1, left: data.previews.limit - 1 } });
    expect(current).toContain(`<video src="/ai-ads/videos/${ad.id}-preview.mp4?v=7" controls="" playsinline="" preload="metadata" aria-label="Free preview of ${ad.title}"`);
    expect(textOf(current)).toContain(
      `Free preview: 540x960, marked “Preview”. The rendered video (${data.sizes.video.width}x${data.sizes.video.height}) without the mark is what you post. The preview reads only the hook aloud; the rendered video reads every scene.`,
    );
    expect(textOf(current)).toContain(`The preview shows the saved script. ${data.previews.limit - 1} of ${data.previews.limit} free previews left today`);
    expect(buttons(current).get("Preview video (free)")?.disabled).toBe(true);
    expect(textOf(current)).not.toContain("Download MP4");

    const outOfDate = await at({ previewVideo: { ...made, current: false } });
    expect(textOf(outOfDate)).toContain("This preview shows an earlier version of the script: make a new one to see your changes.");
    expect(buttons(outOfDate).get("Preview video (free)")?.disabled).toBe(false);

    const noneLeft = await at({}, { previews: { limit: data.previews.limit, used: data.previews.limit, left: 0, nextAt: "2026-12-08T09:41:00.000Z" } });
    expect(textOf(noneLeft)).toContain(`0 of ${data.previews.limit} free previews left today (the next from 09:41 UTC)`);
    expect(buttons(noneLeft).get("Preview video (free)")?.disabled).toBe(true);

    // The fixture product is sample data: labelled, with a warning until the video is made; a real product is neither.
    const sampleWarning = "This product is sample data: its figures (such as the orders quoted in the social-proof scene) are not real sales.";
    const sample = await at({});
    expect(ad.product?.sample).toBe(true);
    expect(textOf(sample)).toContain(`From ${PRODUCT.title} Attention Sample data ${sampleWarning}`);
    expect(textOf(completed)).not.toContain(sampleWarning);
    const real = await at({ product: { ...ad.product!, sample: false } });
    expect(textOf(real)).not.toContain("Sample data");
    expect(textOf(real)).not.toContain(sampleWarning);

    const locked = await at({}, { access: { create: false, lockedReason: "AI ads come with a paid plan." } });
    expect(textOf(locked)).toContain("Upgrade to make AI ads AI ads come with a paid plan.");
    expect(buttons(locked).get("Preview video (free)")?.disabled).toBe(true);
    expect(buttons(locked).get("Render video (5 credits)")?.disabled).toBe(true);
    expect(buttons(locked).get("Save script")?.disabled).toBe(false);
  });

  it("offers the server's voices and music tracks, and sends the seller's picks", async () => {
    const { url, data, ad } = await sellerWithAd();
    const sound = { voice: "tts-test", voices: ["alloy", "verse"], musicTracks: ["calm-bed.wav"], musicDir: "/srv/music" };
    const html = await render(withAd(data, ad.id, { voiceOver: true, voice: "verse", musicTrack: "calm-bed.wav" }, { sound }), url);
    const text = textOf(html);
    expect(text).toContain("Each scene is read aloud on the rendered video.");
    expect(text).toContain("Save, then make the free preview to hear it read your hook.");
    expect(text).toContain("Played quietly under the voice, faded out at the end, on the rendered video.");
    expect(html).toContain('<option value="alloy">alloy (default)</option><option value="verse" selected="">verse</option>');
    expect(html).toContain('<option value="">No music</option><option value="calm-bed.wav" selected="">calm-bed.wav</option>');
    expect(formFor(html, "update").send).toMatchObject({ sound: "1", voiceOver: "on", voice: "verse", musicTrack: "calm-bed.wav" });

    const none = await render(withAd(data, ad.id, {}, { sound: { voice: null, voices: [], musicTracks: [], musicDir: "/srv/music" } }), url);
    expect(textOf(none)).toContain("No music tracks on this server: the operator can put audio files whose licence allows use in ads in /srv/music.");
    expect(formFor(none, "update").send).not.toHaveProperty("voiceOver");
    expect(formFor(none, "update").send).not.toHaveProperty("musicTrack");
  });
});
