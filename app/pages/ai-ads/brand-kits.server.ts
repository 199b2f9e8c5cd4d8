// Brand kits over HTTP, for both surfaces and the JSON API (docs/decisions/033): reading a kit's fields
// and its logo upload from a JSON body or a form (multipart/form-data for the logo), the page's loader
// and action (/dashboard/brand-kits and /app/brand-kits run exactly this), and the logo response.
// The rules are the brand kits service's. Uploads are bounded twice: the server's body cap
// (MAX_BODY_BYTES, 1 MB, server/body-limit.mjs) stops anything larger while it streams, and a body whose
// Content-Length already says the logo cannot fit is refused here before it is read.
import { data } from "@remix-run/node";
import { z } from "zod";
import { BRAND_FONTS, KIT_LIMITS } from "~/domain/ai-ads/brand-kits";
import type { Surface } from "~/domain/shopify/embedded-paths";
import { AppError, type AppErrorStatus } from "~/domain/errors";
import { expectedFailure } from "~/pages/http/form-errors.server";
import { readForm, readJsonOrNull, toErrorResponse } from "~/pages/http/http.server";
import type { User } from "~/services/accounts/auth.server";
import type { LogoUpload } from "~/services/ai-ads/brand-kits.server";
import { brandKits } from "~/services/index.server";

/** Room for the form's other fields and the multipart framing around the largest logo. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

const TEXT_FIELDS = ["name", "primaryColour", "accentColour", "textColour", "font", "tagline", "tone"] as const;

export interface KitUpload {
  fields: Record<string, unknown>;
  /** New logo bytes, "remove", or undefined (keep). */
  logo: LogoUpload | "remove" | undefined;
}

function refuse(status: AppErrorStatus, message: string): Response {
  return toErrorResponse(new AppError(status, message));
}

function flag(value: FormDataEntryValue | null): boolean | undefined {
  if (value === null) return undefined;
  if (typeof value !== "string") return undefined;
  const v = value.trim().toLowerCase();
  if (["true", "on", "1", "yes"].includes(v)) return true;
  if (["false", "off", "0", "no", ""].includes(v)) return false;
  return undefined;
}

/**
 * A kit's fields and logo from a request: JSON (fields only), or a form whose `logo` entry is the file
 * (an unnamed empty entry is "no file chosen"; a named empty file is a zero-byte upload and is refused
 * by the service) and whose `removeLogo` asks to take the logo away.
 */
export async function readKitUpload(request: Request): Promise<KitUpload> {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  const length = Number(request.headers.get("content-length") ?? 0);
  if (Number.isFinite(length) && length > KIT_LIMITS.logoMaxBytes + FORM_OVERHEAD_BYTES)
    throw refuse(413, `The upload is ${Math.round(length / 1024)} KB; a logo may be at most ${KIT_LIMITS.logoMaxBytes / 1024} KB.`);
  if (type === "application/json") {
    const raw = await readJsonOrNull(request);
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) throw refuse(400, "The request body must be a JSON object.");
    return { fields: raw as Record<string, unknown>, logo: undefined };
  }
  return kitUploadFromForm(await readForm(request));
}

/** The kit's fields and logo from a form already read. */
async function kitUploadFromForm(form: FormData): Promise<KitUpload> {
  const fields: Record<string, unknown> = {};
  for (const name of TEXT_FIELDS) {
    const v = form.get(name);
    if (typeof v === "string") fields[name] = v;
  }
  const isDefault = flag(form.get("isDefault"));
  if (isDefault !== undefined) fields.isDefault = isDefault;
  const file = form.get("logo");
  let logo: KitUpload["logo"];
  if (file !== null && typeof file !== "string" && (file.size > 0 || file.name !== "")) {
    logo = new Uint8Array(await file.arrayBuffer());
  } else if (typeof file === "string" && file !== "") {
    throw refuse(400, "Send the logo as a file (multipart/form-data), not as text.");
  }
  if (logo === undefined && flag(form.get("removeLogo")) === true) logo = "remove";
  return { fields, logo };
}

/** A kit id from a URL; anything malformed names no kit of anyone's (404). */
export function parseKitId(raw: string | undefined): number {
  const id = /^[1-9]\d{0,9}$/.test(raw ?? "") ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id > 2_147_483_647) throw refuse(404, "No such brand kit.");
  return id;
}

/** GET /brand-kits/{id}/logo.png: the owner's logo, or a signed link's (the embedded page's <img>). */
export async function logoResponse(request: Request, idParam: string | undefined, userOf: () => Promise<User>): Promise<Response> {
  const id = parseKitId(idParam);
  const url = new URL(request.url);
  const sig = url.searchParams.get("sig");
  const expires = Number(url.searchParams.get("expires"));
  let logo;
  try {
    logo =
      sig && Number.isSafeInteger(expires)
        ? await brandKits.signedLogo(id, expires, sig)
        : await brandKits.logo((await userOf()).id, id);
  } catch (error) {
    if (error instanceof AppError) throw toErrorResponse(error);
    throw error;
  }
  const headers = {
    "Content-Type": logo.type,
    "Cache-Control": "private, max-age=3600",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'",
    ETag: logo.etag,
  };
  if (request.headers.get("if-none-match") === logo.etag) return new Response(null, { status: 304, headers });
  return new Response(Buffer.from(logo.bytes), { headers: { ...headers, "Content-Length": String(logo.bytes.length) } });
}

// ---------- the page (both surfaces) ----------

export async function loadBrandKitsPage(user: User, surface: Surface) {
  const kits = await brandKits.list(user.id);
  return {
    kits: surface === "embedded" ? brandKits.withSignedUrls(user.id, kits) : kits,
    fonts: BRAND_FONTS.map((f) => ({ id: f.id, label: f.label, family: f.family })),
    limits: { logoMaxKb: KIT_LIMITS.logoMaxBytes / 1024, logoMinPx: KIT_LIMITS.logoMinPx, logoMaxPx: KIT_LIMITS.logoMaxPx, kitsMax: KIT_LIMITS.kitsMax },
  };
}

export interface BrandKitsActionResult {
  ok: boolean;
  message: string;
  fieldErrors: Record<string, string>;
  /** The kit the form was about (a new kit's id after create). */
  kitId: number | null;
  warnings: string[];
}

const Intent = z.enum(["create", "update", "default", "delete"], { error: "intent must be create, update, default or delete." });

function result(status: number, r: Partial<BrandKitsActionResult> & { ok: boolean; message: string }) {
  return data<BrandKitsActionResult>({ fieldErrors: {}, kitId: null, warnings: [], ...r }, { status });
}

/** Create, edit (with or without a new logo), make default, delete. */
export async function brandKitsPageAction(request: Request, user: User) {
  let upload: KitUpload;
  let intent: z.infer<typeof Intent>;
  let rawId: string | undefined;
  try {
    const length = Number(request.headers.get("content-length") ?? 0);
    if (Number.isFinite(length) && length > KIT_LIMITS.logoMaxBytes + FORM_OVERHEAD_BYTES)
      throw refuse(413, `The upload is ${Math.round(length / 1024)} KB; a logo may be at most ${KIT_LIMITS.logoMaxBytes / 1024} KB.`);
    const form = await readForm(request);
    const parsedIntent = Intent.safeParse(form.get("intent"));
    if (!parsedIntent.success) return result(400, { ok: false, message: parsedIntent.error.issues[0]?.message ?? "Unknown action." });
    intent = parsedIntent.data;
    const id = form.get("id");
    rawId = typeof id === "string" ? id : undefined;
    upload = await kitUploadFromForm(form);
  } catch (thrown) {
    if (thrown instanceof Response) {
      const body = (await thrown.json()) as { error?: string };
      return result(thrown.status, { ok: false, message: body.error ?? "The form could not be read." });
    }
    throw thrown;
  }
  try {
    if (intent === "create") {
      const kit = await brandKits.create(user.id, upload.fields, upload.logo === "remove" ? undefined : upload.logo);
      return result(201, { ok: true, message: `Brand kit "${kit.name}" saved.`, kitId: kit.id, warnings: kit.warnings.map((w) => w.message) });
    }
    const id = /^[1-9]\d{0,9}$/.test(rawId ?? "") ? Number(rawId) : null;
    if (id === null) return result(404, { ok: false, message: "No such brand kit." });
    if (intent === "update") {
      const kit = await brandKits.update(user.id, id, upload.fields, upload.logo);
      return result(200, { ok: true, message: "Saved.", kitId: kit.id, warnings: kit.warnings.map((w) => w.message) });
    }
    if (intent === "default") {
      const kit = await brandKits.update(user.id, id, { isDefault: true });
      return result(200, { ok: true, message: `"${kit.name}" is now your default kit.`, kitId: kit.id });
    }
    await brandKits.remove(user.id, id);
    return result(200, { ok: true, message: "Brand kit deleted." });
  } catch (error) {
    const failure = expectedFailure(error);
    const fieldErrors = (failure.details.fieldErrors as Record<string, string> | undefined) ?? {};
    return result(failure.status, { ok: false, message: failure.message, fieldErrors, kitId: rawId ? Number(rawId) || null : null });
  }
}
