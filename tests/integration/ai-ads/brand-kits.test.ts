// Brand kits through their routes on the real database: JSON and multipart (logo) creation, the rules a
// kit's fields follow (422 naming fields, nothing saved), the contrast warning, one default per user, the
// logo checks (type from the bytes whatever the name, size and pixel limits, SVG with script or external
// references, zero bytes) and the owner-only logo URL (another user's kit or logo: 404).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createRequire } from "node:module";
import { db } from "~/db.server";
import { loader as logoRoute } from "~/routes/brand-kits.$id.logo[.]png";
import { action as kitAction, loader as kitLoader } from "~/routes/api.brand-kits.$id";
import { action as createRoute, loader as listRoute } from "~/routes/api.brand-kits";
import { action as pageAction, loader as pageLoader } from "~/routes/dashboard.brand-kits";
import type { BrandKitView } from "~/services/ai-ads/brand-kits.server";
import { call } from "../../helpers/routes";
import { TEST_APP_URL } from "../../helpers/test-env";
import { createSignedInUser } from "../../helpers/site-users";

const require = createRequire(import.meta.url);
const { Resvg } = require("@resvg/resvg-js") as typeof import("@resvg/resvg-js");

/** A real PNG of w x h in one colour. */
function png(w: number, h: number, fill = "#0b6e4f"): Uint8Array {
  return new Resvg(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="${w}" height="${h}" fill="${fill}"/></svg>`).render().asPng();
}
const JPEG = readFileSync(path.join(__dirname, "../../fixtures/brand-logo.jpg"));
const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
const CLEAN_SVG = `<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50" width="200" height="100"><defs><linearGradient id="g"><stop offset="0" stop-color="#e11d48"/><stop offset="1" stop-color="#f59e0b"/></linearGradient></defs><rect width="100" height="50" rx="8" fill="url(#g)"/><text x="50" y="32" font-size="18" text-anchor="middle" fill="#fff">Brand</text></svg>`;

const FIELDS = { name: "Summer shop", primaryColour: "#0B6E4F", accentColour: "#1d4ed8", font: "dejavu-serif", tagline: "Sun all year", tone: "warm, short sentences" };

type Upload = { bytes: Uint8Array | Buffer; name: string; type?: string };

/** A multipart request like a browser's form with a file input. */
function multipart(pathname: string, cookie: string, fields: Record<string, string>, logo?: Upload, method = "POST"): Request {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (logo) form.set("logo", new File([new Uint8Array(logo.bytes)], logo.name, { type: logo.type ?? "application/octet-stream" }));
  return new Request(new URL(pathname, TEST_APP_URL), { method, body: form, headers: { cookie, origin: TEST_APP_URL } });
}

async function run(handler: (args: never) => unknown, request: Request, params: Record<string, string> = {}): Promise<Response> {
  try {
    const out = await handler({ request, params, context: {} } as never);
    if (out instanceof Response) return out;
    const d = out as { type?: string; data?: unknown; init?: ResponseInit };
    if (d?.type === "DataWithResponseInit") return Response.json(d.data, d.init);
    return Response.json(out);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

async function createKit(cookie: string, fields: Record<string, unknown> = FIELDS): Promise<BrandKitView> {
  const res = await call(createRoute, "/api/brand-kits", { cookie, json: fields });
  expect(res.status).toBe(201);
  return res.json();
}

const kitCount = (userId: string) => db.brandKit.count({ where: { userId } });

async function uploadLogo(cookie: string, logo: Upload) {
  return run(createRoute as never, multipart("/api/brand-kits", cookie, { ...FIELDS, name: "With logo" }, logo));
}

describe("brand kits: fields", () => {
  it("saves a kit from JSON, normalises colours, makes the first kit the default and lists it", async () => {
    const user = await createSignedInUser();
    const kit = await createKit(user.cookie);
    expect(kit).toMatchObject({ name: "Summer shop", primaryColour: "#0b6e4f", textColour: "#ffffff", font: "dejavu-serif", isDefault: true, logoUrl: null, warnings: [] });
    const second = await createKit(user.cookie, { ...FIELDS, name: "Winter", primaryColour: "#fde047" });
    expect(second.isDefault).toBe(false);
    // Yellow under white text is hard to read: saved, with a warning naming the colour and the ratio.
    expect(second.warnings).toHaveLength(1);
    expect(second.warnings[0]).toMatchObject({ field: "primaryColour" });
    expect(second.warnings[0].message).toMatch(/#fde047 has a contrast of 1\.\d:1; 4\.5:1 or more/);
    const list = await (await call(listRoute, "/api/brand-kits", { cookie: user.cookie })).json();
    expect(list.kits.map((k: BrandKitView) => k.name)).toEqual(["Summer shop", "Winter"]);
    expect(list.fonts.map((f: { id: string }) => f.id)).toContain("dejavu-sans-mono");
  });

  it("refuses bad fields with 422 naming each one, and saves nothing", async () => {
    const user = await createSignedInUser();
    const res = await call(createRoute, "/api/brand-kits", {
      cookie: user.cookie,
      json: { name: "  ", primaryColour: "green", accentColour: "#12345", font: "Comic Sans", tone: "x".repeat(201) },
    });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(Object.keys(body.fieldErrors).sort()).toEqual(["accentColour", "font", "name", "primaryColour", "tone"]);
    expect(body.fieldErrors.font).toMatch(/DejaVu Sans/);
    expect(await kitCount(user.id)).toBe(0);
  });

  it("moves the default with PATCH, refuses to un-default the default, and hands it on when the default is deleted", async () => {
    const user = await createSignedInUser();
    const a = await createKit(user.cookie, { ...FIELDS, name: "A" });
    const b = await createKit(user.cookie, { ...FIELDS, name: "B" });
    const patched = await call(kitAction, `/api/brand-kits/${b.id}`, { method: "PATCH", cookie: user.cookie, json: { isDefault: true, tagline: "New line" }, params: { id: String(b.id) } });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ isDefault: true, tagline: "New line", name: "B" });
    expect((await (await call(kitLoader, `/api/brand-kits/${a.id}`, { cookie: user.cookie, params: { id: String(a.id) } })).json()).isDefault).toBe(false);
    const undefault = await call(kitAction, `/api/brand-kits/${b.id}`, { method: "PATCH", cookie: user.cookie, json: { isDefault: false }, params: { id: String(b.id) } });
    expect(undefault.status).toBe(409);
    const del = await call(kitAction, `/api/brand-kits/${b.id}`, { method: "DELETE", cookie: user.cookie, params: { id: String(b.id) } });
    expect(await del.json()).toEqual({ deleted: true });
    const left = await db.brandKit.findMany({ where: { userId: user.id }, select: { name: true, isDefault: true } });
    expect(left).toEqual([{ name: "A", isDefault: true }]);
  });

  it("keeps other users out: their kit is 404 to read, edit, delete or fetch the logo of, and stays as it was", async () => {
    const owner = await createSignedInUser();
    const other = await createSignedInUser();
    const res = await uploadLogo(owner.cookie, { bytes: png(64, 32), name: "logo.png", type: "image/png" });
    const kit = (await res.json()) as BrandKitView;
    const params = { id: String(kit.id) };
    expect((await call(kitLoader, `/api/brand-kits/${kit.id}`, { cookie: other.cookie, params })).status).toBe(404);
    expect((await call(kitAction, `/api/brand-kits/${kit.id}`, { method: "PATCH", cookie: other.cookie, json: { name: "Mine now" }, params })).status).toBe(404);
    expect((await call(kitAction, `/api/brand-kits/${kit.id}`, { method: "DELETE", cookie: other.cookie, params })).status).toBe(404);
    expect((await call(logoRoute, kit.logoUrl!, { cookie: other.cookie, params })).status).toBe(404);
    expect((await call(logoRoute, kit.logoUrl!, { params })).status).toBe(401);
    expect(await db.brandKit.findUnique({ where: { id: kit.id }, select: { name: true } })).toEqual({ name: "With logo" });
    // A malformed id names no kit of anyone's.
    expect((await call(kitLoader, "/api/brand-kits/abc", { cookie: owner.cookie, params: { id: "abc" } })).status).toBe(404);
  });
});

describe("brand kits: logos", () => {
  it("keeps a PNG, serves it to its owner as a PNG of the same size", async () => {
    const user = await createSignedInUser();
    const res = await uploadLogo(user.cookie, { bytes: png(120, 40), name: "logo.png", type: "image/png" });
    expect(res.status).toBe(201);
    const kit = (await res.json()) as BrandKitView;
    expect(kit.logo).toMatchObject({ source: "png", width: 120, height: 40 });
    const served = await call(logoRoute, kit.logoUrl!, { cookie: user.cookie, params: { id: String(kit.id) } });
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect(bytes.readUInt32BE(16)).toBe(120);
  });

  it("takes a JPEG by its bytes and an SVG drawn into a PNG (never served as SVG)", async () => {
    const user = await createSignedInUser();
    const jpeg = await (await uploadLogo(user.cookie, { bytes: JPEG, name: "photo.JPG", type: "image/jpeg" })).json();
    expect(jpeg.logo).toMatchObject({ source: "jpeg", width: 64, height: 48 });
    const svg = await uploadLogo(user.cookie, { bytes: Buffer.from(CLEAN_SVG), name: "logo.svg", type: "image/svg+xml" });
    expect(svg.status).toBe(201);
    const kit = (await svg.json()) as BrandKitView;
    expect(kit.logo).toMatchObject({ source: "svg", width: 200, height: 100 });
    const served = await call(logoRoute, kit.logoUrl!, { cookie: user.cookie, params: { id: String(kit.id) } });
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await served.arrayBuffer()).includes("<svg")).toBe(false);
  });

  it.each([
    ["a GIF named logo.png", { bytes: GIF, name: "logo.png", type: "image/png" }, 415, /is a GIF, whatever its name says/],
    ["a text file named logo.png", { bytes: Buffer.from("hello, this is not an image at all"), name: "logo.png", type: "image/png" }, 415, /not a PNG, JPEG or SVG image/],
    ["a zero-byte logo.png", { bytes: Buffer.alloc(0), name: "logo.png", type: "image/png" }, 422, /empty \(0 bytes\)/],
    ["a PNG over 512 KB", { bytes: Buffer.concat([Buffer.from(png(32, 32)), Buffer.alloc(530 * 1024)]), name: "big.png", type: "image/png" }, 413, /at most 512 KB/],
    ["a PNG of 8x8 pixels", { bytes: png(8, 8), name: "tiny.png", type: "image/png" }, 422, /8x8 pixels; use one from 16 to 4096/],
    [
      "an SVG with a script",
      { bytes: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="50" height="50"><script>alert(1)</script><rect width="50" height="50"/></svg>`), name: "logo.svg" },
      422,
      /contains a script/,
    ],
    [
      "an SVG with an onload handler",
      { bytes: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="50" height="50" onload="alert(1)"><rect width="50" height="50"/></svg>`), name: "logo.svg" },
      422,
      /event handler/,
    ],
    [
      "an SVG that reads a local file",
      { bytes: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="50" height="50"><image href="/etc/hostname" width="50" height="50"/><rect width="5" height="5"/></svg>`), name: "logo.svg" },
      422,
      /refers to something outside the file \(\/etc\/hostname\)/,
    ],
    [
      "an SVG that loads a remote image",
      { bytes: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="50" height="50"><image xlink:href="http://169.254.169.254/latest" width="50" height="50"/></svg>`), name: "logo.svg" },
      422,
      /outside the file/,
    ],
    [
      "an SVG with a remote url() in its style",
      { bytes: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="50" height="50"><rect width="50" height="50" style="fill: url('https://evil.example/p.svg#x')"/></svg>`), name: "logo.svg" },
      422,
      /outside the file/,
    ],
    [
      "an SVG with an entity",
      { bytes: Buffer.from(`<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg" width="50" height="50"><text>&x;</text></svg>`), name: "logo.svg" },
      422,
      /DOCTYPE or entities/,
    ],
  ])("refuses %s with a sentence and saves nothing", async (_label, logo, status, message) => {
    const user = await createSignedInUser();
    const res = await uploadLogo(user.cookie, logo);
    expect(res.status).toBe(status);
    const body = await res.json();
    expect(body.error).toMatch(message);
    expect(body.fieldErrors.logo).toBe(body.error);
    expect(await kitCount(user.id)).toBe(0);
  });

  it("refuses an upload whose Content-Length is past the limit before reading it", async () => {
    const user = await createSignedInUser();
    const request = new Request(new URL("/api/brand-kits", TEST_APP_URL), {
      method: "POST",
      headers: { cookie: user.cookie, "content-type": "multipart/form-data; boundary=x", "content-length": String(900 * 1024) },
      body: "--x--",
    });
    const res = await run(createRoute as never, request);
    expect(res.status).toBe(413);
    expect((await res.json()).error).toMatch(/a logo may be at most 512 KB/);
  });

  it("replaces and removes a logo with PATCH (multipart), with a new link each time", async () => {
    const user = await createSignedInUser();
    const kit = (await (await uploadLogo(user.cookie, { bytes: png(40, 40), name: "a.png" })).json()) as BrandKitView;
    await new Promise((r) => setTimeout(r, 5));
    const replaced = await run(kitAction as never, multipart(`/api/brand-kits/${kit.id}`, user.cookie, { tagline: "Again" }, { bytes: png(80, 40), name: "b.png" }, "PATCH"), { id: String(kit.id) });
    const after = (await replaced.json()) as BrandKitView;
    expect(after.logo).toMatchObject({ width: 80, height: 40 });
    expect(after.logoUrl).not.toBe(kit.logoUrl);
    expect(after.tagline).toBe("Again");
    const removed = await run(kitAction as never, multipart(`/api/brand-kits/${kit.id}`, user.cookie, { removeLogo: "true" }, undefined, "PATCH"), { id: String(kit.id) });
    expect(await removed.json()).toMatchObject({ logoUrl: null, logo: null });
    expect((await call(logoRoute, `/brand-kits/${kit.id}/logo.png`, { cookie: user.cookie, params: { id: String(kit.id) } })).status).toBe(404);
  });
});

describe("the brand kits page", () => {
  it("creates a kit with a logo from the page's form and lists it; the form's errors come back as sentences", async () => {
    const user = await createSignedInUser();
    const created = await run(pageAction as never, multipart("/dashboard/brand-kits", user.cookie, { intent: "create", ...FIELDS, isDefault: "true" }, { bytes: png(48, 48), name: "logo.png" }));
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ ok: true, message: 'Brand kit "Summer shop" saved.' });
    const bad = await run(pageAction as never, multipart("/dashboard/brand-kits", user.cookie, { intent: "create", ...FIELDS }, { bytes: GIF, name: "logo.png" }));
    expect(bad.status).toBe(415);
    expect(await bad.json()).toMatchObject({ ok: false, fieldErrors: { logo: expect.stringMatching(/GIF/) } });
    const page = await (await call(pageLoader, "/dashboard/brand-kits", { cookie: user.cookie })).json();
    expect(page.kits).toHaveLength(1);
    expect(page.kits[0]).toMatchObject({ name: "Summer shop", isDefault: true, logo: { width: 48, height: 48 } });
  });
});
