// AI ads with a brand kit and the TikTok library (docs/decisions/033), through the AI ads service on the real
// database: the ad takes the default kit (or the one chosen; another user's kit is 404), the writer gets the
// kit's tone of voice and the product's saved TikTok hooks (the built-in writer opens on the saved hook; a
// model is sent both in its prompt), and the render job draws with the kit: its colours, font, tagline and logo.
import { mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { builtInWriter, createAiText } from "~/integrations/ai-text.server";
import { createBuiltInRenderer, type RenderSpec, type VideoRenderer } from "~/integrations/video-render.server";
import { createFileStorage } from "~/integrations/file-storage.server";
import { createAiAds } from "~/services/ai-ads.server";
import { createProductPages } from "~/services/product-pages.server";
import * as credits from "~/services/billing/credits.server";
import { brandKits, tiktoks } from "~/services/index.server";
import { createJobs } from "~/services/jobs.server";
import { startFakeAi, type FakeAi } from "../../helpers/fake-ai";
import { fixtureCatalogue, insertProducts } from "../../helpers/products";
import { createUser } from "../../helpers/site-users";
import { shopifyProductWriter } from "~/integrations/shopify-admin.server";

const [PRODUCT] = fixtureCatalogue(1, 91).map((p) => ({ ...p, objectID: "kit-ad-product", orders: 5120 }));
const { Resvg } = createRequire(import.meta.url)("@resvg/resvg-js") as typeof import("@resvg/resvg-js");
const logoPng = new Resvg(`<svg xmlns="http://www.w3.org/2000/svg" width="64" height="32"><rect width="64" height="32" fill="#ff7a00"/></svg>`).render().asPng();

const MODEL_AD = {
  title: "Brush ad",
  scenes: [
    { kind: "hook", text: "Fur on everything?", seconds: 3 },
    { kind: "problem", text: "Brushes clog after one stroke", seconds: 3 },
    { kind: "product", text: "This brush cleans itself", seconds: 4 },
    { kind: "cta", text: "Get yours today", seconds: 3 },
  ],
};

let ai: FakeAi;
beforeAll(async () => {
  await insertProducts(db, [PRODUCT]);
  ai = await startFakeAi();
});
afterAll(() => ai.close());

/** A renderer that records the spec each render was asked for, then renders it for real. */
function recording(): VideoRenderer & { specs: RenderSpec[] } {
  const real = createBuiltInRenderer();
  const specs: RenderSpec[] = [];
  return { name: real.name, specs, captionFits: real.captionFits, render: (spec, options) => (specs.push(spec), real.render(spec, options)) };
}

function service(writer = builtInWriter, renderer: VideoRenderer = createBuiltInRenderer()) {
  const jobs = createJobs({ db, ownerId: `kit-ads-${Math.random()}` });
  const ads = createAiAds({
    db,
    ai: writer,
    renderer,
    storage: createFileStorage(mkdtempSync(path.join(tmpdir(), "kit-ads-"))),
    urlSecret: "test",
    jobs,
    video: { width: 180, height: 320, fps: 5 },
    brandKits,
    references: (userId, objectID) => tiktoks.references(userId, objectID),
  });
  ads.registerJobs();
  return ads;
}

async function seller() {
  const user = await createUser({ userSubscribed: "yes" });
  await credits.applyAllowance(db, { userId: user.id, feature: "ai-ads", allowance: 10, idempotencyKey: `kit:${user.id}`, reason: "test", mode: "reset" });
  return { id: user.id, userSubscribed: "yes" as const, aiAdsFirstUse: false };
}

const KIT = { name: "Wombat Co", primaryColour: "#123a7a", accentColour: "#c2185b", font: "dejavu-serif", tagline: "Brushed with love", tone: "playful, short sentences, no hype" };

describe("AI ads with a brand kit", () => {
  it("write with the kit's voice and the saved TikTok hooks, and render with its colours, font, tagline and logo", async () => {
    const user = await seller();
    const kit = await brandKits.create(user.id, KIT, logoPng);
    // A TikTok saved for the product whose title came back from oEmbed.
    await db.tikTok.create({
      data: { userId: user.id, productObjectID: PRODUCT.objectID, url: "https://www.tiktok.com/@a/video/7300000000000000001", videoId: "7300000000000000001", metaStatus: "fetched", title: "POV: the dog finally loves brushing #fyp", authorName: "a shop" },
    });
    const renderer = recording();
    const ads = service(builtInWriter, renderer);
    const ad = await ads.create({ user, objectID: PRODUCT.objectID });
    // No kit chosen: the default kit applies when it renders.
    expect(ad.brandKitId).toBeNull();
    expect(ad.scenes[0]).toMatchObject({ kind: "hook", text: "POV: the dog finally loves brushing" });
    await ads.render(user, ad.id);
    await ads.idle();
    expect((await ads.get(user.id, ad.id)).status).toBe("completed");
    expect(renderer.specs[0].brand).toMatchObject({ primaryColour: "#123a7a", accentColour: "#c2185b", textColour: "#ffffff", fontFamily: "DejaVu Serif", tagline: "Brushed with love" });
    expect(renderer.specs[0].brand?.logoPng?.length).toBeGreaterThan(50);
    expect(kit.isDefault).toBe(true);
  }, 60_000);

  it("sends the tone of voice, tagline and references to a model in its prompt", async () => {
    const user = await seller();
    const kit = await brandKits.create(user.id, { ...KIT, name: "Second", tone: "calm and expert" });
    await db.tikTok.create({
      data: { userId: user.id, productObjectID: PRODUCT.objectID, url: "https://www.tiktok.com/@b/video/7300000000000000002", videoId: "7300000000000000002", metaStatus: "fetched", title: "Groomers hate this trick #pets", authorName: "b" },
    });
    ai.script({ kind: "content", content: JSON.stringify(MODEL_AD) });
    const ads = service(createAiText({ baseUrl: ai.url, apiKey: ai.apiKey, model: "test-model", retryDelayMs: 1 }));
    const before = ai.requests.length;
    const ad = await ads.create({ user, objectID: PRODUCT.objectID, brandKitId: kit.id });
    expect(ad.brandKitId).toBe(kit.id);
    const sent = ai.requests.slice(before).at(-1)!.body as { messages: { role: string; content: string }[] };
    const prompt = JSON.parse(sent.messages.find((m) => m.role === "user")!.content);
    expect(prompt.voice).toEqual({ toneOfVoice: "calm and expert", brandName: "Second", tagline: "Brushed with love" });
    expect(prompt.references).toEqual(["Groomers hate this trick"]);
    expect(sent.messages.find((m) => m.role === "system")!.content).toMatch(/tone of voice/);
  });

  it("refuses another user's kit (404) on create and edit, and changes nothing", async () => {
    const user = await seller();
    const stranger = await seller();
    const theirs = await brandKits.create(stranger.id, KIT);
    const ads = service();
    await expect(ads.create({ user, objectID: PRODUCT.objectID, brandKitId: theirs.id })).rejects.toMatchObject({ status: 404 });
    const ad = await ads.create({ user, objectID: PRODUCT.objectID });
    await expect(ads.update(user.id, ad.id, { brandKitId: theirs.id })).rejects.toMatchObject({ status: 404 });
    expect((await ads.get(user.id, ad.id)).brandKitId).toBeNull();
    // Deleting a kit an ad uses puts the ad back on the default kit.
    const own = await brandKits.create(user.id, { ...KIT, name: "Mine" });
    await ads.update(user.id, ad.id, { brandKitId: own.id });
    expect((await ads.get(user.id, ad.id)).brandKitId).toBe(own.id);
    await brandKits.remove(user.id, own.id);
    expect((await ads.get(user.id, ad.id)).brandKitId).toBeNull();
  });
});

describe("AI product pages with a brand kit", () => {
  it("send the default kit's tone of voice to the writer", async () => {
    const user = await seller();
    await credits.applyAllowance(db, { userId: user.id, feature: "product-pages", allowance: 5, idempotencyKey: `kit-pages:${user.id}`, reason: "test", mode: "reset" });
    await brandKits.create(user.id, { ...KIT, name: "Page voice", tone: "warm and plain-spoken" });
    const pages = createProductPages({
      db,
      ai: createAiText({ baseUrl: ai.url, apiKey: ai.apiKey, model: "test-model", retryDelayMs: 1 }),
      resolveStoreAccess: async () => {
        throw new Error("no store in this test");
      },
      writeProduct: shopifyProductWriter({ apiVersion: "2026-10" }),
      publicUrl: null,
      voiceFor: async (userId) => {
        const kit = await brandKits.applied(userId, null);
        return kit ? { tone: kit.style.tone, brandName: kit.style.name, tagline: kit.style.tagline } : null;
      },
    });
    const before = ai.requests.length;
    await pages.generate({ userId: user.id, objectID: PRODUCT.objectID });
    const sent = ai.requests.slice(before).at(-1)!.body as { messages: { role: string; content: string }[] };
    const prompt = JSON.parse(sent.messages.find((m) => m.role === "user")!.content);
    expect(prompt.voice).toEqual({ toneOfVoice: "warm and plain-spoken", brandName: "Page voice", tagline: "Brushed with love" });
  });
});
