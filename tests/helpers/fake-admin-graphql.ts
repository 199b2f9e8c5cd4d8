// A stand-in for Shopify's Admin GraphQL API on 127.0.0.1 (node:http), speaking its documented
// shapes: POST /admin/api/{version}/graphql.json with X-Shopify-Access-Token; 401 with
// { errors: "[API] Invalid API key or access token ..." } for a wrong token; answers carry
// extensions.cost { requestedQueryCost, actualQueryCost, throttleStatus { maximumAvailable,
// currentlyAvailable, restoreRate } }; a throttled call answers HTTP 200 with
// errors[{ message: "Throttled", extensions: { code: "THROTTLED" } }] and actualQueryCost null.
// It understands the productSet mutation: checks the input as Shopify's schema would (required
// fields, enum values, Money strings, option values that exist), keeps the products it made, and
// answers { product { id handle status }, userErrors }. Every request is recorded; a script can make
// the next calls throttle, fail over HTTP or answer userErrors. It also answers Shopify's Billing API
// and serves its confirmation pages (tests/helpers/fake-shopify-billing.ts).
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { answerBilling, confirmationPage, confirmCharge, createFakeBillingState, type FakeBillingState } from "./fake-shopify-billing";

export interface RecordedAdminRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  query: string;
  variables: Record<string, unknown>;
  /** When the request arrived (ms since the epoch). */
  at: number;
}

export type AdminStep =
  | { kind: "throttled"; currentlyAvailable: number; restoreRate: number; requestedQueryCost?: number }
  | { kind: "http"; status: number; retryAfter?: string }
  | { kind: "userErrors"; errors: { field: string[] | null; message: string; code?: string }[] };

export interface StoredProduct {
  id: string;
  handle: string;
  input: Record<string, unknown>;
}

export interface FakeAdminGraphql {
  /** The base URL the adapter uses instead of https://{shop}. */
  url: string;
  apiVersion: string;
  accessToken: string;
  requests: RecordedAdminRequest[];
  products: Map<string, StoredProduct>;
  /** Billing API state: subscriptions, one-time purchases, whether the shop is frozen. */
  billing: FakeBillingState;
  script(...steps: AdminStep[]): void;
  close(): Promise<void>;
}

const PRODUCT_SET_COST = 10;
const MONEY = /^\d{1,9}(\.\d{1,2})?$/;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** Schema-level problems Shopify reports as top-level errors (not userErrors) for a bad input. */
function inputProblems(input: Record<string, unknown> | undefined): string[] {
  const problems: string[] = [];
  if (!input || typeof input !== "object")
    return ["Variable $input of type ProductSetInput! was provided invalid value"];
  const allowed = new Set([
    "title",
    "descriptionHtml",
    "status",
    "seo",
    "productOptions",
    "variants",
    "files",
    "tags",
    "vendor",
    "handle",
    "productType",
  ]);
  for (const key of Object.keys(input)) if (!allowed.has(key)) problems.push(`ProductSetInput has no field ${key}`);
  if (typeof input.title !== "string") problems.push("title must be a String");
  if (input.status !== undefined && !["ACTIVE", "ARCHIVED", "DRAFT"].includes(input.status as string))
    problems.push("status must be a ProductStatus");
  const seo = input.seo as Record<string, unknown> | undefined;
  if (seo && (typeof seo.title !== "string" || typeof seo.description !== "string"))
    problems.push("seo must be an SEOInput");
  const options = (input.productOptions as { name: string; values: { name: string }[] }[] | undefined) ?? [];
  const variants =
    (input.variants as
      | { optionValues: { optionName: string; name: string }[]; price?: unknown; compareAtPrice?: unknown }[]
      | undefined) ?? [];
  if (variants.length > 0 && options.length === 0) problems.push("productOptions are required when variants are given");
  for (const [i, v] of variants.entries()) {
    if (!Array.isArray(v.optionValues) || v.optionValues.length === 0)
      problems.push(`variants.${i}.optionValues is required`);
    for (const ov of v.optionValues ?? []) {
      const option = options.find((o) => o.name === ov.optionName);
      if (!option || !option.values.some((val) => val.name === ov.name))
        problems.push(`variants.${i}: option value ${ov.optionName}/${ov.name} does not exist`);
    }
    if (v.price !== undefined && (typeof v.price !== "string" || !MONEY.test(v.price)))
      problems.push(`variants.${i}.price must be Money`);
    if (v.compareAtPrice != null && (typeof v.compareAtPrice !== "string" || !MONEY.test(v.compareAtPrice))) {
      problems.push(`variants.${i}.compareAtPrice must be Money`);
    }
  }
  for (const [i, f] of (
    (input.files as { originalSource?: unknown; contentType?: unknown }[] | undefined) ?? []
  ).entries()) {
    if (typeof f.originalSource !== "string" || !/^https:\/\//.test(f.originalSource))
      problems.push(`files.${i}.originalSource must be an https URL`);
    if (
      f.contentType !== undefined &&
      !["IMAGE", "FILE", "VIDEO", "EXTERNAL_VIDEO", "MODEL_3D"].includes(f.contentType as string)
    ) {
      problems.push(`files.${i}.contentType must be a FileContentType`);
    }
  }
  return problems;
}

export async function startFakeAdminGraphql(
  options: {
    accessToken?: string;
    apiVersion?: string;
    port?: number;
    /** Accept other tokens too (e.g. each installed shop's own offline token). */
    acceptToken?: (token: string) => boolean;
  } = {},
): Promise<FakeAdminGraphql> {
  const billing = createFakeBillingState();
  let baseUrl = "";
  const accessToken = options.accessToken ?? "shpat_fake_admin_token_0123456789";
  const apiVersion = options.apiVersion ?? "2026-10";
  const requests: RecordedAdminRequest[] = [];
  const products = new Map<string, StoredProduct>();
  let steps: AdminStep[] = [];
  let nextId = 9_000_000_001;

  const cost = (requested: number, actual: number | null, available: number, restoreRate = 100) => ({
    requestedQueryCost: requested,
    actualQueryCost: actual,
    throttleStatus: { maximumAvailable: 2000, currentlyAvailable: available, restoreRate },
  });

  const server = createServer(async (req, res) => {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(body));
    };
    const raw = await readBody(req);
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    let parsed: { query?: string; variables?: Record<string, unknown> } = {};
    try {
      parsed = JSON.parse(raw) as typeof parsed;
    } catch {
      // recorded as empty
    }
    requests.push({
      path,
      headers: req.headers,
      query: parsed.query ?? "",
      variables: parsed.variables ?? {},
      at: Date.now(),
    });

    const charge = /^\/admin\/charges\/(subscription|purchase)\/(\d+)\/confirm$/.exec(path);
    if (charge) {
      if (req.method === "GET") {
        const html = confirmationPage(billing, charge[1], charge[2]);
        res.writeHead(html ? 200 : 404, { "content-type": "text/html; charset=utf-8" });
        return res.end(html ?? "No such charge");
      }
      const answer = new URLSearchParams(raw).get("answer");
      const next = confirmCharge(billing, charge[1], charge[2], answer === "approve");
      if (!next) return send(409, { errors: "This charge was already answered" });
      res.writeHead(303, { location: next });
      return res.end();
    }
    if (req.method !== "POST" || path !== `/admin/api/${apiVersion}/graphql.json`)
      return send(404, { errors: "Not Found" });
    const token = String(req.headers["x-shopify-access-token"] ?? "");
    if (token !== accessToken && !options.acceptToken?.(token)) {
      return send(401, { errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" });
    }
    const step = steps.shift();
    if (step?.kind === "http")
      return send(
        step.status,
        { errors: "Internal Server Error" },
        step.retryAfter ? { "retry-after": step.retryAfter } : {},
      );
    if (step?.kind === "throttled") {
      return send(200, {
        errors: [
          {
            message: "Throttled",
            extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" },
          },
        ],
        extensions: {
          cost: cost(step.requestedQueryCost ?? PRODUCT_SET_COST, null, step.currentlyAvailable, step.restoreRate),
        },
      });
    }
    const billed = answerBilling(
      billing,
      baseUrl,
      parsed.query ?? "",
      parsed.variables ?? {},
      step?.kind === "userErrors" ? step.errors.map((e) => ({ field: e.field, message: e.message })) : null,
    );
    if (billed) return send(200, { ...(billed as object), extensions: { cost: cost(10, 10, 1990) } });
    if (
      !/mutation\s+\w*\s*\([^)]*\$input:\s*ProductSetInput!/.test(parsed.query ?? "") ||
      !/productSet\s*\(/.test(parsed.query ?? "")
    ) {
      return send(200, {
        errors: [{ message: "This fake only answers the productSet mutation", extensions: { code: "undefinedField" } }],
      });
    }
    const variables = parsed.variables ?? {};
    const input = variables.input as Record<string, unknown> | undefined;
    const problems = inputProblems(input);
    if (typeof variables.synchronous !== "boolean")
      problems.push("Variable $synchronous of type Boolean! was provided invalid value");
    if (problems.length > 0) {
      return send(200, { errors: problems.map((message) => ({ message, extensions: { code: "INVALID_VARIABLE" } })) });
    }
    const okCost = { extensions: { cost: cost(PRODUCT_SET_COST, PRODUCT_SET_COST, 2000 - PRODUCT_SET_COST) } };
    if (step?.kind === "userErrors") {
      return send(200, {
        data: {
          productSet: {
            product: null,
            userErrors: step.errors.map((e) => ({ field: e.field, message: e.message, code: e.code ?? "INVALID" })),
          },
        },
        ...okCost,
      });
    }
    const identifier = variables.identifier as { id?: string } | null | undefined;
    let product: StoredProduct;
    if (identifier?.id) {
      const existing = products.get(identifier.id);
      if (!existing) {
        return send(200, {
          data: {
            productSet: {
              product: null,
              userErrors: [
                { field: ["identifier", "id"], message: "Product does not exist", code: "PRODUCT_DOES_NOT_EXIST" },
              ],
            },
          },
          ...okCost,
        });
      }
      product = { ...existing, input: input! };
    } else {
      const id = `gid://shopify/Product/${nextId++}`;
      const handle = String(input!.title)
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, "");
      product = { id, handle, input: input! };
    }
    products.set(product.id, product);
    return send(200, {
      data: {
        productSet: {
          product: { id: product.id, handle: product.handle, status: input!.status ?? "ACTIVE" },
          userErrors: [],
        },
      },
      ...okCost,
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;
  return {
    billing,
    url: `http://127.0.0.1:${port}`,
    apiVersion,
    accessToken,
    requests,
    products,
    script: (...s) => {
      steps = s;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
