// SVG logos that cost too much to draw (issue 21, decision 040), through the real routes and service on the
// real database: a 567-byte logo of filter effects copied 10 times with <use> (6.9 s of drawing before) and
// a nested-<use> "billion laughs" (10^5 nodes in 1.4 KB, +356 MB before) are refused with a sentence before
// anything is drawn, and change nothing; an ordinary logo is still drawn and served. What the static check
// lets through is drawn in a separate process that is killed past its time or memory budget.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { AppError } from "~/domain/errors";
import { inspectLogo } from "~/integrations/logo-image.server";
import { loader as logoRoute } from "~/routes/brand-kits.$id.logo[.]png";
import { action as kitAction } from "~/routes/api.brand-kits.$id";
import { action as createRoute } from "~/routes/api.brand-kits";
import { createBrandKits, type BrandKitView } from "~/services/ai-ads/brand-kits.server";
import { call } from "../../helpers/routes";
import { TEST_APP_URL } from "../../helpers/test-env";
import { createSignedInUser } from "../../helpers/site-users";

const { Resvg } = createRequire(import.meta.url)("@resvg/resvg-js") as typeof import("@resvg/resvg-js");

const FIELDS = { name: "Summer shop", primaryColour: "#0B6E4F", accentColour: "#1d4ed8", font: "dejavu-serif" };
const NS = `xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"`;

/** The report's logo: turbulence and a wide blur over the whole canvas, drawn 10 times with <use>. */
const FILTER_BOMB = `<svg ${NS} width="512" height="512"><defs><filter id="f" x="-50%" y="-50%" width="200%" height="200%"><feTurbulence baseFrequency="0.01" numOctaves="10"/><feGaussianBlur stdDeviation="40"/></filter><g id="a"><rect width="512" height="512" filter="url(#f)"/></g></defs>${'<use xlink:href="#a"/>'.repeat(10)}</svg>`;

/** Ten copies of ten copies ... five levels deep: 10^5 rectangles in 1.4 KB. */
function nestedUseBomb(levels = 5): string {
  let defs = `<rect id="a0" width="1" height="1"/>`;
  for (let i = 1; i <= levels; i++) defs += `<g id="a${i}">${`<use xlink:href="#a${i - 1}"/>`.repeat(10)}</g>`;
  return `<svg ${NS} width="100" height="100"><defs>${defs}</defs><use xlink:href="#a${levels}"/></svg>`;
}

const CLEAN_SVG = `<svg ${NS} viewBox="0 0 100 50" width="200" height="100"><defs><linearGradient id="g"><stop offset="0" stop-color="#e11d48"/><stop offset="1" stop-color="#f59e0b"/></linearGradient><path id="dot" d="M0 0h4v4h-4z"/></defs><rect width="100" height="50" rx="8" fill="url(#g)"/><use xlink:href="#dot" x="6" y="6"/><use xlink:href="#dot" x="90" y="6"/><text x="50" y="32" font-size="18" text-anchor="middle" fill="#fff">Brand</text></svg>`;

/**
 * Allowed by the static check (no filter, few elements, no copies) but slow: 1,500 circles, each dashed into
 * ~16,000 dots and drawn through its own half-transparent layer.
 */
const SLOW_BUT_ALLOWED = `<svg ${NS} width="512" height="512">${Array.from({ length: 1500 }, (_, i) => `<circle cx="256" cy="256" r="${20 + (i % 230)}" fill="none" stroke="#${(i * 97).toString(16).padStart(3, "0").slice(-3)}" stroke-width="3" stroke-dasharray="0.05 0.05" opacity="0.5"/>`).join("")}</svg>`;

function multipart(pathname: string, cookie: string, fields: Record<string, string>, logo: { bytes: Uint8Array; name: string }, method = "POST"): Request {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set("logo", new File([new Uint8Array(logo.bytes)], logo.name, { type: "image/svg+xml" }));
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

const svgBytes = (svg: string) => new TextEncoder().encode(svg);

async function kitWithLogo(cookie: string): Promise<BrandKitView> {
  const res = await run(createRoute as never, multipart("/api/brand-kits", cookie, FIELDS, { bytes: svgBytes(CLEAN_SVG), name: "logo.svg" }));
  expect(res.status).toBe(201);
  return res.json();
}

describe("SVG logos that would cost too much to draw", () => {
  it("draws an ordinary SVG logo (with a gradient and two <use> copies) and serves it as PNG", async () => {
    const user = await createSignedInUser();
    const kit = await kitWithLogo(user.cookie);
    expect(kit.logo).toMatchObject({ source: "svg", width: 200, height: 100 });
    const served = await call(logoRoute, kit.logoUrl!, { cookie: user.cookie, params: { id: String(kit.id) } });
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    const png = Buffer.from(await served.arrayBuffer());
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([200, 100]);
  });

  it.each([
    ["the 567-byte filter logo copied 10 times", FILTER_BOMB, /cannot be used as a logo: it uses filter effects/],
    ["nested <use> copies (10^5 nodes in 1.4 KB)", nestedUseBomb(), /<use> copies something that itself contains a <use>/],
  ])("refuses %s with 422 and a sentence, on create and on replace, and changes nothing", async (_label, svg, message) => {
    expect(svg.length).toBeLessThan(1500);
    const user = await createSignedInUser();
    const created = await run(createRoute as never, multipart("/api/brand-kits", user.cookie, { ...FIELDS, name: "Bomb" }, { bytes: svgBytes(svg), name: "logo.svg" }));
    expect(created.status).toBe(422);
    const body = await created.json();
    expect(body.error).toMatch(message);
    expect(body.fieldErrors.logo).toBe(body.error);
    expect(await db.brandKit.count({ where: { userId: user.id } })).toBe(0);

    const kit = await kitWithLogo(user.cookie);
    const before = await db.brandKit.findUniqueOrThrow({ where: { id: kit.id }, select: { logo: true, updatedAt: true, tagline: true } });
    const replaced = await run(kitAction as never, multipart(`/api/brand-kits/${kit.id}`, user.cookie, { tagline: "Changed" }, { bytes: svgBytes(svg), name: "new.svg" }, "PATCH"), { id: String(kit.id) });
    expect(replaced.status).toBe(422);
    expect((await replaced.json()).error).toMatch(message);
    const after = await db.brandKit.findUniqueOrThrow({ where: { id: kit.id }, select: { logo: true, updatedAt: true, tagline: true } });
    expect(after).toEqual(before);
  });

  it("cuts a logo the static check allows when drawing it takes longer than the time budget (422, nothing saved)", async () => {
    const user = await createSignedInUser();
    const kits = createBrandKits({ db, inspectLogo, urlSecret: "test", logoDrawing: { timeBudgetMs: 150 } });
    const error = await kits.create(user.id, FIELDS, svgBytes(SLOW_BUT_ALLOWED)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 422, message: expect.stringMatching(/^This logo takes too long to draw \(more than 0\.15 s\)/) });
    expect(await db.brandKit.count({ where: { userId: user.id } })).toBe(0);
  });

  it("cuts a logo the static check allows when drawing it uses more CPU time than the CPU budget (422, nothing saved)", async () => {
    const user = await createSignedInUser();
    const kits = createBrandKits({ db, inspectLogo, urlSecret: "test", logoDrawing: { cpuBudgetS: 1, timeBudgetMs: 60_000 } });
    const error = await kits.create(user.id, FIELDS, svgBytes(SLOW_BUT_ALLOWED)).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 422, message: expect.stringMatching(/^This logo takes too long to draw \(more than 1 s of drawing\)/) });
    expect(await db.brandKit.count({ where: { userId: user.id } })).toBe(0);
  }, 60_000);

  it("cuts a logo whose drawing needs more memory than the memory budget (422, nothing saved)", async () => {
    const user = await createSignedInUser();
    // A 4000x4000 PNG (allowed: up to 4096 px) decodes to 64 MB of pixels.
    const big = new Resvg(`<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="4000"><rect width="4000" height="4000" fill="#0b6e4f"/></svg>`).render().asPng();
    const kits = createBrandKits({ db, inspectLogo, urlSecret: "test", logoDrawing: { memoryBudgetMb: 96 } });
    const error = await kits.create(user.id, FIELDS, big).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 422, message: expect.stringMatching(/^This logo needs too much memory to draw \(more than 96 MB\)/) });
    expect(await db.brandKit.count({ where: { userId: user.id } })).toBe(0);
    const roomy = createBrandKits({ db, inspectLogo, urlSecret: "test" });
    expect((await roomy.create(user.id, FIELDS, big)).logo).toMatchObject({ source: "png", width: 512, height: 512 });
  });
});
