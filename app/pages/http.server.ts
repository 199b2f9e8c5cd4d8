// Small helpers for JSON routes: parse a body with zod (400 naming the field), and turn expected
// service errors into responses a person can read. Unexpected errors still reach the error handler.
import { AppError } from "~/domain/errors";
import type { z } from "zod";

export async function readJson<T extends z.ZodType>(request: Request, schema: T): Promise<z.infer<T>> {
  const text = await request.text();
  let raw: unknown = {};
  if (text.trim() !== "") {
    try {
      raw = JSON.parse(text);
    } catch {
      throw Response.json({ error: "The request body is not valid JSON." }, { status: 400 });
    }
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join(".") || "body";
    throw Response.json({ error: `${field}: ${issue?.message ?? "invalid"}` }, { status: 400 });
  }
  return parsed.data;
}

/** The one mapper from an expected failure to a JSON answer: its status, `{ error, ...details }`. */
export function toErrorResponse(error: AppError): Response {
  return Response.json(error.toJSON(), { status: error.status });
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

export { clientCountry, clientIp } from "~/services/client-address.server";
