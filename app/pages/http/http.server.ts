// Small helpers for JSON and form routes: read a body (refused with a 4xx and a sentence when it was sent
// by another site, cannot be read, or does not match the zod schema), and turn expected service errors
// into responses a person can read. Unexpected errors still reach the error handler.
import { AppError } from "~/domain/errors";
import { refuseCrossSite } from "~/pages/http/origin-guard.server";
import type { z } from "zod";

/** Deeper than this, a JSON body is refused: no form or API of ours nests more than a few levels. */
export const MAX_JSON_DEPTH = 32;

// String.prototype.isWellFormed (Node 20+; not yet in the ES2023 lib the project compiles against).
const wellFormed = (text: string) => (text as string & { isWellFormed(): boolean }).isWellFormed();

const refuse = (status: number, error: string) => Response.json({ error }, { status });

/**
 * What no schema of ours can use and some would pass on to the database: text that is not valid Unicode
 * (a lone surrogate, from a `\ud800` escape), nesting past MAX_JSON_DEPTH, numbers past 2^53. Null when
 * the value is fine. Walks without recursion, so a deep body cannot exhaust the stack.
 */
export function jsonBodyProblem(value: unknown): string | null {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const next = stack.pop()!;
    const v = next.value;
    if (typeof v === "string") {
      if (!wellFormed(v)) return "The request body contains text that is not valid Unicode.";
    } else if (typeof v === "number") {
      if (Math.abs(v) > Number.MAX_SAFE_INTEGER) return "The request body contains a number too large to use.";
    } else if (v !== null && typeof v === "object") {
      if (next.depth >= MAX_JSON_DEPTH) return `The request body is nested more than ${MAX_JSON_DEPTH} levels deep.`;
      for (const [key, child] of Object.entries(v)) {
        if (!wellFormed(key)) return "The request body contains text that is not valid Unicode.";
        stack.push({ value: child, depth: next.depth + 1 });
      }
    }
  }
  return null;
}

/** The first zod issue as "field: message" (400). */
function invalid(error: z.ZodError): Response {
  const issue = error.issues[0];
  const field = issue?.path.join(".") || "body";
  return refuse(400, `${field}: ${issue?.message ?? "invalid"}`);
}

/**
 * The JSON body as a value: `empty` for an empty body, `invalid` when it is not JSON. Refused first:
 * a request sent by another site (403); then a body holding what jsonBodyProblem names (400).
 */
async function readJsonValue(request: Request, empty: unknown, invalid: () => unknown): Promise<unknown> {
  refuseCrossSite(request);
  const text = await request.text().catch(() => {
    throw refuse(400, "The request body could not be read.");
  });
  if (text.trim() === "") return empty;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return invalid();
  }
  const problem = jsonBodyProblem(raw);
  if (problem) throw refuse(400, problem);
  return raw;
}

/** For routes that answer a body that is not JSON in their own words: the value, or null. */
export function readJsonOrNull(request: Request): Promise<unknown> {
  return readJsonValue(request, null, () => null);
}

export async function readJson<T extends z.ZodType>(request: Request, schema: T): Promise<z.infer<T>> {
  const raw = await readJsonValue(request, {}, () => {
    throw refuse(400, "The request body is not valid JSON.");
  });
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw invalid(parsed.error);
  return parsed.data;
}

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

/**
 * A form's fields. Refused: a request sent by another site (403), a body that is not a form (415), a
 * form that cannot be read, e.g. multipart without its boundary (400), text that is not valid Unicode
 * (400). A request with no body and no content type is an empty form.
 */
export async function readForm(request: Request): Promise<FormData> {
  refuseCrossSite(request);
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (!FORM_TYPES.includes(type)) {
    if (type === "" && request.body === null) return new FormData();
    throw refuse(415, "Send this form as application/x-www-form-urlencoded or multipart/form-data.");
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw refuse(400, "The form could not be read: its body does not match its content type.");
  }
  for (const [key, value] of form) {
    if (!wellFormed(key) || (typeof value === "string" && !wellFormed(value))) {
      throw refuse(400, "The form contains text that is not valid Unicode.");
    }
  }
  return form;
}

/** A form's fields for a zod schema: the first value of each, as FormData.get reads it (a missing field is absent). */
export function formFields(form: FormData): Record<string, unknown> {
  return Object.fromEntries([...new Set(form.keys())].map((key) => [key, form.get(key)]));
}

/** A 429's Retry-After (details.retryAfterSeconds, set by every service that refuses with 429). */
export function errorHeaders(error: AppError): Record<string, string> | undefined {
  const seconds = error.details.retryAfterSeconds;
  return typeof seconds === "number" ? { "Retry-After": String(seconds) } : undefined;
}

/** The one mapper from an expected failure to a JSON answer: its status, `{ error, ...details }`. */
export function toErrorResponse(error: AppError): Response {
  return Response.json(error.toJSON(), { status: error.status, headers: errorHeaders(error) });
}

/** Runs a service call; an AppError is thrown as its JSON answer (toErrorResponse). Anything else is a defect. */
export async function handleServiceErrors<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof AppError) throw toErrorResponse(error);
    throw error;
  }
}

export function methodNotAllowed(allowed: string) {
  return Response.json({ error: `Use ${allowed}.` }, { status: 405, headers: { Allow: allowed } });
}

export { clientCountry, clientIp } from "~/pages/http/client-address.server";
