// The landed-cost JSON calls (decision 052): GET /api/products/{objectID}/profit and
// POST /api/products/{objectID}/tariff. Parses the query or body into the service's words, with a 400 and a
// sentence for anything malformed.
import { z } from "zod";
import { AppError } from "~/domain/errors";
import { FEE_PRESET_IDS, type FeePresetId } from "~/domain/landed-cost/landed-cost";
import type { ResearchAccess } from "~/domain/products/research-access";
import { handleServiceErrors, readJson, toErrorResponse } from "~/pages/http/http.server";
import type { ProfitQuery } from "~/services/landed-cost.server";
import { landedCost } from "~/services/index.server";

const MAX_CENTS = 100_000_000;

function cents(name: string, min = 0) {
  return z
    .string()
    .regex(/^\d{1,9}$/, `${name} must be a whole number of cents, like 2999`)
    .transform(Number)
    .refine((n) => n >= min && n <= MAX_CENTS, `${name} must be between ${min} and ${MAX_CENTS} cents`);
}

function basisPoints(name: string, max: number) {
  return z
    .string()
    .regex(/^\d{1,5}$/, `${name} must be whole basis points (100 = 1%)`)
    .transform(Number)
    .refine((n) => n <= max, `${name} must be at most ${max} (${max / 100}%)`);
}

const ProfitQuerySchema = z
  .object({
    priceCents: cents("priceCents", 1),
    cpaCents: cents("cpaCents"),
    costCents: cents("costCents"),
    shippingCents: cents("shippingCents"),
    hts: z.string().max(20, "hts is too long"),
    origin: z.string().max(10, "origin is too long"),
    entry: z.enum(["commercial", "postal"], { error: "entry must be commercial or postal" }),
    fees: z.enum(FEE_PRESET_IDS as [FeePresetId, ...FeePresetId[]], { error: `fees must be one of ${FEE_PRESET_IDS.join(", ")}` }),
    feeRateBp: basisPoints("feeRateBp", 5000),
    feeFixedCents: cents("feeFixedCents").refine((n) => n <= 10_000, "feeFixedCents must be at most 10000"),
    refundRateBp: basisPoints("refundRateBp", 10000),
    chargebackRateBp: basisPoints("chargebackRateBp", 10000),
    targetMarginBps: basisPoints("targetMarginBps", 9999),
  })
  .partial()
  .strict();

/** The query string as a ProfitQuery; 400 naming the first bad parameter. */
export function parseProfitQuery(url: URL): ProfitQuery {
  const raw: Record<string, string> = {};
  for (const [key, value] of url.searchParams) {
    if (key in raw) throw toErrorResponse(new AppError(400, `${key} is given twice.`));
    if (value !== "") raw[key] = value;
  }
  const parsed = ProfitQuerySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const message = issue.code === "unrecognized_keys" ? `Unknown parameter: ${issue.keys.join(", ")}.` : `${issue.message}.`;
    throw toErrorResponse(new AppError(400, message));
  }
  return parsed.data;
}

export async function productProfitAnswer(input: { request: Request; userId: string; objectID: string; access: ResearchAccess }) {
  const query = parseProfitQuery(new URL(input.request.url));
  return handleServiceErrors(() => landedCost.productProfit({ userId: input.userId, objectID: input.objectID, access: input.access, query }));
}

/** Each field: a value sets it, null puts the guess back, left out keeps what the seller had (decision 081). */
const TariffBody = z
  .object({
    htsCode: z.string().max(20).nullable().optional(),
    origin: z.string().max(10).nullable().optional(),
  })
  .strict()
  .refine((b) => b.htsCode !== undefined || b.origin !== undefined, "send htsCode, origin or both");

export async function setTariffAnswer(input: { request: Request; userId: string; objectID: string }) {
  const body = await readJson(input.request, TariffBody);
  return handleServiceErrors(() => landedCost.setTariffChoice({ userId: input.userId, objectID: input.objectID, htsCode: body.htsCode, origin: body.origin }));
}
