// The Shopify Admin GraphQL API for one shop: POST https://{shop}/admin/api/{version}/graphql.json with
// the X-Shopify-Access-Token header. Rate limits are a leaky bucket of query cost: a THROTTLED answer
// (HTTP 200 with errors[].extensions.code, or HTTP 429) carries extensions.cost.throttleStatus, from
// which we compute how long until the bucket holds the requested cost, wait that long (growing on
// each attempt), and try again a bounded number of times. Tests point baseUrl at a local server.

export interface ShopifyAdminConfig {
  shop: string;
  accessToken: string;
  apiVersion: string;
  /** Instead of https://{shop}: a local server that answers Admin GraphQL (tests). */
  baseUrl?: string;
  /** Attempts in all, first one included; default 5. */
  maxAttempts?: number;
  /** The longest single wait; default 10 s. */
  maxWaitMs?: number;
  /** Per request; default 30 s. */
  timeoutMs?: number;
  /** Told about every retry (for logs and tests). */
  onRetry?: (info: { attempt: number; waitMs: number; reason: "throttled" | "http_429" | "server_error" }) => void;
  fetch?: typeof fetch;
}

export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

export interface QueryCost {
  requestedQueryCost: number;
  actualQueryCost: number | null;
  throttleStatus: ThrottleStatus;
}

interface GraphqlError {
  message: string;
  extensions?: { code?: string; [k: string]: unknown };
}

interface GraphqlResponse<T> {
  data?: T | null;
  errors?: GraphqlError[] | string;
  extensions?: { cost?: QueryCost };
}

export type ShopifyAdminErrorCode =
  "throttled" | "unauthorized" | "not_found" | "max_cost_exceeded" | "graphql" | "http" | "timeout" | "network";

export class ShopifyAdminError extends Error {
  constructor(
    readonly code: ShopifyAdminErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "ShopifyAdminError";
  }
}

export interface GraphqlResult<T> {
  data: T;
  cost: QueryCost | null;
  attempts: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How long until the bucket holds `requested` points: (requested - available) / restoreRate seconds.
 * Grows with each attempt (x1, x2, x4, …) in case other calls drain the same bucket meanwhile.
 */
export function throttleWaitMs(cost: QueryCost | null | undefined, attempt: number, fallbackMs = 1000): number {
  const status = cost?.throttleStatus;
  let base = fallbackMs;
  if (status && status.restoreRate > 0) {
    const missing = Math.max(0, (cost?.requestedQueryCost ?? 0) - status.currentlyAvailable);
    base = Math.max(1, Math.ceil((missing / status.restoreRate) * 1000));
  }
  return base * 2 ** Math.max(0, attempt - 1);
}

export function createShopifyAdmin(config: ShopifyAdminConfig) {
  const doFetch = config.fetch ?? fetch;
  const maxAttempts = config.maxAttempts ?? 5;
  const maxWaitMs = config.maxWaitMs ?? 10_000;
  const timeoutMs = config.timeoutMs ?? 30_000;
  const origin = (config.baseUrl ?? `https://${config.shop}`).replace(/\/+$/, "");
  const url = `${origin}/admin/api/${encodeURIComponent(config.apiVersion)}/graphql.json`;

  async function graphql<T>(query: string, variables: Record<string, unknown> = {}): Promise<GraphqlResult<T>> {
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      try {
        res = await doFetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json",
            "x-shopify-access-token": config.accessToken,
          },
          body: JSON.stringify({ query, variables }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        const name = (error as { name?: string }).name;
        if (name === "TimeoutError" || name === "AbortError") {
          throw new ShopifyAdminError(
            "timeout",
            `Shopify (${config.shop}) did not answer within ${Math.round(timeoutMs / 1000)} s.`,
          );
        }
        throw new ShopifyAdminError(
          "network",
          `Shopify (${config.shop}) could not be reached: ${(error as Error).message}.`,
        );
      }

      let body: GraphqlResponse<T> | null = null;
      const text = await res.text();
      try {
        body = text ? (JSON.parse(text) as GraphqlResponse<T>) : null;
      } catch {
        body = null;
      }
      const cost = body?.extensions?.cost ?? null;
      const errors = Array.isArray(body?.errors) ? body.errors : [];
      const throttled = res.status === 429 || errors.some((e) => e.extensions?.code === "THROTTLED");

      if (throttled || res.status >= 500) {
        const reason = res.status === 429 ? "http_429" : throttled ? "throttled" : "server_error";
        if (attempt >= maxAttempts) {
          if (throttled) {
            const again = Math.ceil(throttleWaitMs(cost, 1) / 1000);
            throw new ShopifyAdminError(
              "throttled",
              `Shopify is rate limiting this store's API calls (still throttled after ${maxAttempts} attempts). Try again in ${again} s.`,
              res.status,
            );
          }
          throw new ShopifyAdminError(
            "http",
            `Shopify answered ${res.status} ${maxAttempts} times in a row. Try again later.`,
            res.status,
          );
        }
        const retryAfter = Number(res.headers.get("retry-after"));
        const waitMs = Math.min(
          maxWaitMs,
          res.status === 429 && Number.isFinite(retryAfter) && retryAfter > 0
            ? retryAfter * 1000 * 2 ** (attempt - 1)
            : throttleWaitMs(cost, attempt, 500),
        );
        config.onRetry?.({ attempt, waitMs, reason });
        await sleep(waitMs);
        continue;
      }
      if (res.status === 401 || res.status === 403) {
        throw new ShopifyAdminError(
          "unauthorized",
          `Shopify refused the store's access token (${res.status}). Reconnect ${config.shop} to the app.`,
          res.status,
        );
      }
      if (res.status === 404)
        throw new ShopifyAdminError("not_found", `Shopify has no store at ${config.shop} (404).`, 404);
      if (!res.ok) {
        const message = typeof body?.errors === "string" ? body.errors : text.slice(0, 200);
        throw new ShopifyAdminError("http", `Shopify answered ${res.status}: ${message}`, res.status);
      }
      if (errors.length > 0) {
        if (errors.some((e) => e.extensions?.code === "MAX_COST_EXCEEDED")) {
          throw new ShopifyAdminError(
            "max_cost_exceeded",
            `The request costs more than Shopify allows in one call: ${errors[0].message}`,
          );
        }
        throw new ShopifyAdminError(
          "graphql",
          `Shopify refused the request: ${errors.map((e) => e.message).join("; ")}`,
        );
      }
      if (!body?.data) throw new ShopifyAdminError("graphql", "Shopify answered without data.");
      return { data: body.data, cost, attempts: attempt };
    }
  }

  return { graphql, url };
}
export type ShopifyAdmin = ReturnType<typeof createShopifyAdmin>;

// ---- productSet ------------------------------------------------------------------------------------

/** ProductSetInput (Admin API 2026-10), the parts we send. */
export interface ProductSetInput {
  title: string;
  descriptionHtml: string;
  status: "ACTIVE" | "ARCHIVED" | "DRAFT";
  seo: { title: string; description: string };
  productOptions: { name: string; position?: number; values: { name: string }[] }[];
  variants: {
    optionValues: { optionName: string; name: string }[];
    price: string;
    compareAtPrice?: string | null;
  }[];
  files?: { originalSource: string; alt?: string; contentType: "IMAGE" }[];
  tags?: string[];
  vendor?: string;
}

export const PRODUCT_SET_MUTATION = `#graphql
mutation PushProductPage($input: ProductSetInput!, $identifier: ProductSetIdentifiers, $synchronous: Boolean!) {
  productSet(input: $input, identifier: $identifier, synchronous: $synchronous) {
    product {
      id
      handle
      status
    }
    userErrors {
      field
      message
      code
    }
  }
}`;

export interface ProductSetResult {
  product: { id: string; handle: string; status: string } | null;
  userErrors: { field: string[] | null; message: string; code: string | null }[];
}

/**
 * Creates (or, with productId, updates) one product synchronously. userErrors come back as data:
 * the caller decides what a refused product means.
 */
export async function productSet(admin: ShopifyAdmin, input: ProductSetInput, productId?: string | null) {
  const result = await admin.graphql<{ productSet: ProductSetResult }>(PRODUCT_SET_MUTATION, {
    input,
    identifier: productId ? { id: productId } : null,
    synchronous: true,
  });
  return { ...result.data.productSet, attempts: result.attempts, cost: result.cost };
}

/** The Admin API settings a product writer uses for every store (the shop and its token come with each call). */
export type ShopifyProductWriterConfig = Pick<ShopifyAdminConfig, "apiVersion" | "baseUrl" | "maxAttempts" | "maxWaitMs" | "onRetry" | "timeoutMs">;

/** One product created or updated (productSet) in a store, on a client made for that store's token. */
export type ShopifyProductWriter = (
  store: { shop: string; accessToken: string },
  input: ProductSetInput,
  productId: string | null,
) => Promise<ProductSetResult>;

/** The port product pages push through (the composition root builds it; tests point baseUrl at a local server). */
export function shopifyProductWriter(config: ShopifyProductWriterConfig): ShopifyProductWriter {
  return (store, input, productId) => productSet(createShopifyAdmin({ ...config, shop: store.shop, accessToken: store.accessToken }), input, productId);
}
