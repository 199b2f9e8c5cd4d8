// HTTP helpers of the competitor tracking JSON routes (api.competitors.*): the ids in the path, and the 429
// of "check now" with its Retry-After header. The service (app/services/competitors.server.ts) owns the rules.
import { AppError } from "~/domain/errors";
import { toErrorResponse } from "~/pages/http/http.server";

const notFollowed = () => Response.json({ error: "You do not follow that store." }, { status: 404 });

/** The follow id of /api/competitors/{id}: a positive whole number, else 404 (no such store of yours). */
export function competitorIdParam(value: string | undefined): number {
  if (!value || !/^\d{1,9}$/.test(value) || Number(value) < 1) throw notFollowed();
  return Number(value);
}

/** A Shopify product id of the path: digits, else 404. */
export function productIdParam(value: string | undefined): string {
  if (!value || !/^\d{1,30}$/.test(value)) {
    throw Response.json({ error: "That product is not in this store's catalogue." }, { status: 404 });
  }
  return value;
}

/** Runs a service call; an AppError becomes its JSON answer, a 429 with Retry-After. */
export async function competitorCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const response = toErrorResponse(error);
    const retryAfter = error.details.retryAfterSeconds;
    if (error.status === 429 && typeof retryAfter === "number") response.headers.set("Retry-After", String(retryAfter));
    throw response;
  }
}
