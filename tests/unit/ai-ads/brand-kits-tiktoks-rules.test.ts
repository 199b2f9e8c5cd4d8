// The pure rules behind brand kits and the TikTok library: colour parsing and WCAG contrast (the warning a
// seller sees), and which links are TikTok videos (canonical form, short links, everything else refused).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BrandKitFieldsSchema, BrandKitPatchSchema, contrastRatio, contrastWarnings, parseHexColour } from "~/domain/ai-ads/brand-kits";
import { hookOf, parseTikTokUrl } from "~/domain/ai-ads/tiktoks";

describe("brand kit colours", () => {
  it("parses #rgb and #rrggbb in any case, and nothing else", () => {
    expect(parseHexColour("#0B6E4F")).toBe("#0b6e4f");
    expect(parseHexColour(" #FfF ")).toBe("#ffffff");
    for (const bad of ["0b6e4f", "#0b6e4", "#ggg", "red", "rgb(0,0,0)", ""]) expect(parseHexColour(bad)).toBeNull();
  });

  it("measures contrast as WCAG does: 21 for black on white, 1 for a colour on itself, symmetric", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    const hex = fc.integer({ min: 0, max: 0xffffff }).map((n) => `#${n.toString(16).padStart(6, "0")}`);
    fc.assert(
      fc.property(hex, hex, (a, b) => {
        const r = contrastRatio(a, b);
        expect(r).toBeGreaterThanOrEqual(1);
        expect(r).toBeLessThanOrEqual(21.0001);
        expect(contrastRatio(b, a)).toBeCloseTo(r, 9);
        expect(contrastRatio(a, a)).toBeCloseTo(1, 9);
      }),
    );
  });

  it("warns about each colour white text is hard to read on, and not about dark ones", () => {
    expect(contrastWarnings({ primaryColour: "#0b6e4f", accentColour: "#1d4ed8", textColour: "#ffffff" })).toEqual([]);
    const w = contrastWarnings({ primaryColour: "#fde047", accentColour: "#a3e635", textColour: "#ffffff" });
    expect(w.map((x) => x.field)).toEqual(["primaryColour", "accentColour"]);
    expect(w[0].message).toMatch(/^Text in #ffffff on the panels colour #fde047 has a contrast of 1\.\d:1/);
  });

  it("fills defaults for a new kit, but a patch never resets fields it does not name", () => {
    const kit = BrandKitFieldsSchema.parse({ name: " My  shop ", primaryColour: "#000", accentColour: "#111111" });
    expect(kit).toMatchObject({ name: "My shop", textColour: "#ffffff", font: "dejavu-sans", tagline: "", tone: "", isDefault: false });
    expect(BrandKitPatchSchema.parse({ tagline: "x" })).toEqual({ tagline: "x" });
    expect(BrandKitPatchSchema.safeParse({ logo: "x" }).success).toBe(false);
  });
});

describe("TikTok video links", () => {
  it("turns any form of a video link into https://www.tiktok.com/@user/video/ID", () => {
    const user = fc.stringMatching(/^[A-Za-z0-9._]{1,24}$/);
    const id = fc.bigInt({ min: 10n ** 17n, max: 10n ** 19n }).map(String);
    const host = fc.constantFrom("www.tiktok.com", "tiktok.com", "m.tiktok.com", "WWW.TikTok.com");
    const scheme = fc.constantFrom("https://", "http://", "");
    const tail = fc.constantFrom("", "?is_from_webapp=1&sender_device=pc", "#comments", "/");
    fc.assert(
      fc.property(user, id, host, scheme, tail, (u, i, h, s, t) => {
        const r = parseTikTokUrl(`${s}${h}/@${u}/video/${i}${t}`);
        expect(r).toEqual({ ok: true, link: { kind: "video", url: `https://www.tiktok.com/@${u}/video/${i}`, videoId: i, username: u } });
      }),
    );
  });

  it("keeps short links as short links to resolve later", () => {
    expect(parseTikTokUrl("https://vm.tiktok.com/ZMabc123/")).toMatchObject({ ok: true, link: { kind: "short", url: "https://vm.tiktok.com/ZMabc123/" } });
    expect(parseTikTokUrl("vt.tiktok.com/ZSxyz987")).toMatchObject({ ok: true, link: { kind: "short", url: "https://vt.tiktok.com/ZSxyz987/" } });
    expect(parseTikTokUrl("https://www.tiktok.com/t/ZT8abcDEF/")).toMatchObject({ ok: true, link: { kind: "short", url: "https://www.tiktok.com/t/ZT8abcDEF/" } });
  });

  it("refuses every other host, including look-alikes, with a sentence", () => {
    const label = fc.stringMatching(/^[a-z0-9]{1,12}$/);
    fc.assert(
      fc.property(label, label, (a, b) => {
        for (const host of [`${a}.${b}.example`, `tiktok.com.${a}.example`, `${a}tiktok.com`]) {
          const r = parseTikTokUrl(`https://${host}/@x/video/7300000000000000000`);
          expect(r.ok).toBe(false);
          if (!r.ok) expect(r.message).toMatch(/\.$/);
        }
      }),
    );
    expect(parseTikTokUrl("https://user:pw@www.tiktok.com/@a/video/7300000000000000000").ok).toBe(false);
    expect(parseTikTokUrl("https://www.tiktok.com:8443/@a/video/7300000000000000000").ok).toBe(false);
    expect(parseTikTokUrl("https://www.tiktok.com/@a/video/notanumber").ok).toBe(false);
    expect(parseTikTokUrl("https://www.tiktok.com/tag/gadgets").ok).toBe(false);
  });

  it("takes a hook from a caption without its hashtags", () => {
    expect(hookOf("POV: your mornings just got easier #fyp #tiktokmademebuyit")).toBe("POV: your mornings just got easier");
    expect(hookOf("word ".repeat(40)).length).toBeLessThanOrEqual(90);
  });
});
