// Brand kits (seed brand-kits / brand_kits; docs/decisions/033): a seller's name, logo, colours, font,
// tagline and tone of voice, applied to AI ads (logo on the end card, colours on panels and buttons, font
// on captions, tone in the script) and to AI product page copy (tone). This service owns the kits, the
// one default per user, and the logo bytes (checked and redrawn as PNG by app/integrations/logo-image).
// Every query is scoped to the owner; another user's kit is 404. Nothing here knows HTTP.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Prisma } from "@prisma/client";
import type { Db } from "~/db.server";
import {
  brandStyleOf,
  BrandKitFieldsSchema,
  BrandKitPatchSchema,
  contrastWarnings,
  KIT_LIMITS,
  kitFieldErrors,
  type BrandKitLook,
  type BrandStyle,
  type ContrastWarning,
} from "~/domain/ai-ads/brand-kits";
import { AppError, type AppErrorStatus } from "~/domain/errors";
import { LogoError, type DrawingBudget, type Logo } from "~/integrations/logo-image.server";

export interface BrandKitsDeps {
  db: Db;
  /** Signs logo links for pages inside Shopify admin (an <img> there carries no cookie). */
  urlSecret: string;
  signedUrlTtlMs?: number;
  /** The logo adapter's check and drawing (decision 040): `inspectLogo` from logo-image.server. */
  inspectLogo: (bytes: LogoUpload, budget?: DrawingBudget) => Promise<Logo>;
  /** The time and memory a logo's drawing may take (decision 040); the adapter's defaults otherwise. */
  logoDrawing?: DrawingBudget;
}

const kitSelect = {
  id: true,
  name: true,
  primaryColour: true,
  accentColour: true,
  textColour: true,
  font: true,
  tagline: true,
  tone: true,
  isDefault: true,
  logoType: true,
  logoSource: true,
  logoWidth: true,
  logoHeight: true,
  logoBytes: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.BrandKitSelect;

type KitRow = Prisma.BrandKitGetPayload<{ select: typeof kitSelect }>;

export interface BrandKitView extends BrandKitLook {
  id: number;
  isDefault: boolean;
  /** Owner-only; null without a logo. */
  logoUrl: string | null;
  logo: { source: string; width: number; height: number; bytes: number } | null;
  /** Colours the text may be hard to read on (a warning, the kit is saved anyway). */
  warnings: ContrastWarning[];
  createdAt: string;
  updatedAt: string;
}

/** What a render or a writer takes from a kit. */
export interface AppliedBrand {
  kitId: number;
  style: BrandStyle;
  /** The logo as PNG bytes, or null. */
  logoPng: Uint8Array | null;
}

/** A logo upload as the caller got it: raw bytes (the name and declared type are not trusted). */
export type LogoUpload = Uint8Array;

export function logoPath(id: number, updatedAt: Date): string {
  return `/brand-kits/${id}/logo.png?v=${updatedAt.getTime().toString(36)}`;
}

function view(r: KitRow): BrandKitView {
  return {
    id: r.id,
    name: r.name,
    primaryColour: r.primaryColour,
    accentColour: r.accentColour,
    textColour: r.textColour,
    font: r.font,
    tagline: r.tagline,
    tone: r.tone,
    isDefault: r.isDefault,
    logoUrl: r.logoType ? logoPath(r.id, r.updatedAt) : null,
    logo: r.logoType
      ? { source: r.logoSource ?? "png", width: r.logoWidth ?? 0, height: r.logoHeight ?? 0, bytes: r.logoBytes ?? 0 }
      : null,
    warnings: contrastWarnings(r),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

function invalid(fieldErrors: Record<string, string>): AppError {
  return new AppError(422, `Some fields need attention: ${Object.values(fieldErrors).join(" ")}`, { fieldErrors });
}

/**
 * The logo upload checked, or the AppError a person reads (413 too large, 415 wrong type, 503 too many logos
 * being drawn at once, 422 otherwise: unsafe, too costly to draw, unreadable).
 */
async function checkLogo(deps: BrandKitsDeps, bytes: LogoUpload): Promise<Logo> {
  try {
    return await deps.inspectLogo(bytes, deps.logoDrawing);
  } catch (error) {
    if (!(error instanceof LogoError)) throw error;
    const status: AppErrorStatus =
      error.problem === "too-large" ? 413 : error.problem === "wrong-type" ? 415 : error.problem === "busy" ? 503 : 422;
    throw new AppError(status, error.message, { fieldErrors: { logo: error.message }, problem: error.problem });
  }
}

function logoData(logo: Logo) {
  return {
    logo: Buffer.from(logo.png),
    logoType: "image/png",
    logoSource: logo.source,
    logoWidth: logo.width,
    logoHeight: logo.height,
    logoBytes: logo.png.length,
  };
}

const NO_LOGO = { logo: null, logoType: null, logoSource: null, logoWidth: null, logoHeight: null, logoBytes: null };

export function createBrandKits(deps: BrandKitsDeps) {
  const { db } = deps;
  const ttl = deps.signedUrlTtlMs ?? 2 * 3600_000;

  async function ownRow(userId: string, id: number): Promise<KitRow> {
    const row = await db.brandKit.findFirst({ where: { id, userId }, select: kitSelect });
    if (!row) throw new AppError(404, "No such brand kit.");
    return row;
  }

  /** The user's kits, the default first, then newest first. */
  async function list(userId: string): Promise<BrandKitView[]> {
    const rows = await db.brandKit.findMany({
      where: { userId },
      orderBy: [{ isDefault: "desc" }, { createdAt: "desc" }, { id: "desc" }],
      select: kitSelect,
    });
    return rows.map(view);
  }

  async function get(userId: string, id: number): Promise<BrandKitView> {
    return view(await ownRow(userId, id));
  }

  /** Makes one kit the default (and no other) in one transaction. */
  async function setDefault(tx: Prisma.TransactionClient, userId: string, id: number) {
    await tx.brandKit.updateMany({ where: { userId, isDefault: true, id: { not: id } }, data: { isDefault: false } });
    await tx.brandKit.updateMany({ where: { userId, id }, data: { isDefault: true } });
  }

  /** A new kit (422 naming each field that breaks a rule; the logo as in checkLogo). The first kit is the default. */
  async function create(userId: string, input: unknown, logo?: LogoUpload | null): Promise<BrandKitView> {
    const parsed = BrandKitFieldsSchema.safeParse(input);
    if (!parsed.success) throw invalid(kitFieldErrors(parsed.error));
    const checkedLogo = logo ? await checkLogo(deps, logo) : null;
    const fields = parsed.data;
    const id = await db.$transaction(async (tx) => {
      const count = await tx.brandKit.count({ where: { userId } });
      if (count >= KIT_LIMITS.kitsMax)
        throw new AppError(409, `You have ${count} brand kits, the most one account keeps: delete one to add another.`);
      const row = await tx.brandKit.create({
        data: { userId, ...fields, isDefault: false, ...(checkedLogo ? logoData(checkedLogo) : {}) },
        select: { id: true },
      });
      if (fields.isDefault || count === 0) await setDefault(tx, userId, row.id);
      return row.id;
    });
    return get(userId, id);
  }

  /**
   * Changes some fields; `logo` replaces the logo, "remove" takes it away, undefined keeps it. Setting
   * isDefault true moves the default here; a default kit cannot be un-defaulted directly (choose another).
   */
  async function update(userId: string, id: number, input: unknown, logo?: LogoUpload | "remove"): Promise<BrandKitView> {
    await ownRow(userId, id);
    const parsed = BrandKitPatchSchema.safeParse(input);
    if (!parsed.success) throw invalid(kitFieldErrors(parsed.error));
    const { isDefault, ...fields } = parsed.data;
    const checkedLogo = logo instanceof Uint8Array ? await checkLogo(deps, logo) : null;
    await db.$transaction(async (tx) => {
      const data: Prisma.BrandKitUpdateManyMutationInput = {
        ...fields,
        ...(checkedLogo ? logoData(checkedLogo) : logo === "remove" ? NO_LOGO : {}),
      };
      // Always touch the row: the logo link carries updatedAt, so a new logo gets a new link.
      await tx.brandKit.updateMany({ where: { id, userId }, data: { ...data, updatedAt: new Date() } });
      if (isDefault === true) await setDefault(tx, userId, id);
      if (isDefault === false) {
        const row = await tx.brandKit.findFirst({ where: { id, userId }, select: { isDefault: true } });
        if (row?.isDefault) {
          throw new AppError(409, "This is your default kit: make another kit the default instead.", {
            fieldErrors: { isDefault: "Make another kit the default instead." },
          });
        }
      }
    });
    return get(userId, id);
  }

  /** Deletes a kit and its logo; ads that used it fall back to the default kit. The newest other kit becomes the default. */
  async function remove(userId: string, id: number): Promise<{ deleted: true }> {
    const row = await ownRow(userId, id);
    await db.$transaction(async (tx) => {
      await tx.brandKit.deleteMany({ where: { id, userId } });
      await tx.aiAd.updateMany({ where: { userId, brandKitId: id }, data: { brandKitId: null } });
      if (row.isDefault) {
        const next = await tx.brandKit.findFirst({ where: { userId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], select: { id: true } });
        if (next) await setDefault(tx, userId, next.id);
      }
    });
    return { deleted: true };
  }

  /** The owner's logo bytes (PNG); 404 for anyone else's kit or a kit without a logo. */
  async function logo(userId: string, id: number): Promise<{ bytes: Uint8Array; type: string; etag: string }> {
    const row = await db.brandKit.findFirst({ where: { id, userId }, select: { logo: true, logoType: true, updatedAt: true } });
    if (!row?.logo || !row.logoType) throw new AppError(404, "No such logo.");
    return { bytes: row.logo, type: row.logoType, etag: `"${id}-${row.updatedAt.getTime().toString(36)}"` };
  }

  function signature(id: number, userId: string, expires: number): string {
    return createHmac("sha256", deps.urlSecret).update(`brand-kit-logo:${id}:${userId}:${expires}`).digest("base64url");
  }

  /** The views with signed logo links, for pages inside Shopify admin. */
  function withSignedUrls(userId: string, kits: BrandKitView[], now = Date.now()): BrandKitView[] {
    const expires = Math.floor((now + ttl) / 1000);
    return kits.map((k) => ({
      ...k,
      logoUrl: k.logoUrl && `${k.logoUrl}&expires=${expires}&sig=${signature(k.id, userId, expires)}`,
    }));
  }

  /** The logo a signed link names, if the signature is right and not expired (else 404 / 403). */
  async function signedLogo(id: number, expires: number, sig: string, now = Date.now()) {
    const row = await db.brandKit.findUnique({ where: { id }, select: { userId: true } });
    const expected = row ? Buffer.from(signature(id, row.userId, expires)) : null;
    const given = Buffer.from(sig);
    if (!row || !expected || expected.length !== given.length || !timingSafeEqual(expected, given))
      throw new AppError(404, "No such logo.");
    if (expires * 1000 < now) throw new AppError(403, "This logo link has expired: reload the page for a new one.");
    return logo(row.userId, id);
  }

  /**
   * The kit a render or a writer applies: the given kit if it is the user's, else the user's default,
   * else null (the plain look). Never throws for a kit deleted since.
   */
  async function applied(userId: string, kitId: number | null): Promise<AppliedBrand | null> {
    const select = { ...kitSelect, logo: true } as const;
    const row =
      (kitId !== null ? await db.brandKit.findFirst({ where: { id: kitId, userId }, select }) : null) ??
      (await db.brandKit.findFirst({ where: { userId, isDefault: true }, select }));
    if (!row) return null;
    return { kitId: row.id, style: brandStyleOf(row), logoPng: row.logo ?? null };
  }

  /** A kit id the user may attach to an ad: theirs (404 otherwise), or null for "the default". */
  async function requireOwn(userId: string, kitId: number | null): Promise<number | null> {
    if (kitId === null) return null;
    await ownRow(userId, kitId);
    return kitId;
  }

  return { list, get, create, update, remove, logo, signedLogo, withSignedUrls, applied, requireOwn };
}

export type BrandKits = ReturnType<typeof createBrandKits>;
