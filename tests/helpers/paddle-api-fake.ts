// A stand-in for Paddle's REST API on 127.0.0.1 (node:http), speaking the documented shapes the SDK
// parses (response types from @paddle/paddle-node-sdk, so the compiler checks them): POST
// /pricing-preview, PATCH /subscriptions/{id}/preview, PATCH /subscriptions/{id} (discount,
// next_billed_at, items with proration_billing_mode, and scheduled_change: null, which removes a scheduled cancellation), POST
// /subscriptions/{id}/cancel and GET /subscriptions/{id}/update-payment-method-transaction. It records
// every request (method, path, headers, parsed JSON body) so tests can assert what our adapter sent,
// keeps a little subscription state so the answers follow from the requests, and can be told to fail.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import type {
  IPriceResponse,
  IPricingPreviewResponse,
  IProductResponse,
  ISubscriptionPreviewResponse,
  ISubscriptionResponse,
  ITransactionResponse,
} from "@paddle/paddle-node-sdk";

export interface RecordedRequest {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export interface FakePrice {
  id: string;
  name: string;
  interval: "month" | null;
  trialDays: number;
  /** Minor units per currency code; USD is required. */
  amounts: Record<string, number>;
}

export interface FakeSubscription {
  id: string;
  status: "active" | "trialing" | "past_due" | "paused" | "canceled";
  customerId: string;
  priceId: string;
  currencyCode: string;
  periodStart: Date;
  periodEnd: Date;
  nextBilledAt: Date | null;
  scheduledChange: { action: "cancel" | "pause" | "resume"; effectiveAt: Date } | null;
  discountId: string | null;
}

/** What a country's buyers pay in, as Paddle localises it. */
const COUNTRY_CURRENCY: Record<string, string> = { CA: "CAD", GB: "GBP", DE: "EUR", FR: "EUR", AU: "AUD" };
/** Where an IP address "is", for the customer_ip_address path (documentation ranges). */
const IP_COUNTRY: Record<string, string> = { "203.0.113.7": "CA", "198.51.100.9": "GB" };

export function formatMinor(minor: number, currency: string): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(minor / 100);
}

export interface PaddleApiFake {
  url: string;
  apiKey: string;
  requests: RecordedRequest[];
  subscriptions: Map<string, FakeSubscription>;
  addSubscription(sub: Partial<FakeSubscription> & { id: string; priceId: string }): FakeSubscription;
  /** Every request answers this status with Paddle's error shape until cleared (null). */
  failWith(status: number | null): void;
  close(): Promise<void>;
}

export async function startPaddleApiFake(options: {
  prices: FakePrice[];
  /** Discount id -> what the next cycle costs with it, in minor units of the subscription's currency. */
  discounts?: Record<string, Record<string, number>>;
  apiKey?: string;
}): Promise<PaddleApiFake> {
  const apiKey = options.apiKey ?? `pdl_sdbx_apikey_${randomUUID().replace(/-/g, "")}`;
  const prices = new Map(options.prices.map((p) => [p.id, p]));
  const discounts = options.discounts ?? {};
  const subscriptions = new Map<string, FakeSubscription>();
  const requests: RecordedRequest[] = [];
  let failure: number | null = null;
  const iso = (d: Date) => d.toISOString();

  function productJson(price: FakePrice): IProductResponse {
    return {
      id: `pro_${price.id.replace(/^pri_/, "")}`,
      name: price.name,
      type: "standard",
      description: null,
      tax_category: "standard",
      image_url: null,
      custom_data: null,
      status: "active",
      created_at: "2025-01-01T00:00:00.000Z",
      updated_at: "2025-01-01T00:00:00.000Z",
      import_meta: null,
    };
  }

  function priceJson(price: FakePrice): IPriceResponse {
    return {
      id: price.id,
      product_id: `pro_${price.id.replace(/^pri_/, "")}`,
      description: price.name,
      type: "standard",
      name: price.name,
      billing_cycle: price.interval ? { interval: price.interval, frequency: 1 } : null,
      trial_period:
        price.trialDays > 0 ? { interval: "day", frequency: price.trialDays, requires_payment_method: true } : null,
      tax_mode: "account_setting",
      unit_price: { amount: String(price.amounts.USD), currency_code: "USD" },
      unit_price_overrides: [],
      quantity: { minimum: 1, maximum: 1 },
      status: "active",
      created_at: "2025-01-01T00:00:00.000Z",
      updated_at: "2025-01-01T00:00:00.000Z",
      custom_data: null,
      import_meta: null,
    };
  }

  const totals = (minor: number) => ({ subtotal: String(minor), discount: "0", tax: "0", total: String(minor) });

  function subscriptionJson(s: FakeSubscription): ISubscriptionResponse {
    const price = prices.get(s.priceId)!;
    return {
      id: s.id,
      status: s.status,
      customer_id: s.customerId,
      address_id: `add_${s.customerId.replace(/^ctm_/, "")}`,
      business_id: null,
      currency_code: s.currencyCode as ISubscriptionResponse["currency_code"],
      created_at: iso(s.periodStart),
      updated_at: new Date().toISOString(),
      started_at: iso(s.periodStart),
      first_billed_at: s.status === "trialing" ? null : iso(s.periodStart),
      next_billed_at: s.nextBilledAt ? iso(s.nextBilledAt) : null,
      paused_at: null,
      canceled_at: null,
      discount: s.discountId ? { id: s.discountId, starts_at: iso(s.periodEnd), ends_at: null } : null,
      collection_mode: "automatic",
      billing_details: null,
      current_billing_period: { starts_at: iso(s.periodStart), ends_at: iso(s.periodEnd) },
      billing_cycle: { interval: "month", frequency: 1 },
      scheduled_change: s.scheduledChange
        ? { action: s.scheduledChange.action, effective_at: iso(s.scheduledChange.effectiveAt), resume_at: null }
        : null,
      management_urls: { update_payment_method: null, cancel: "https://sandbox-customer-portal.paddle.com/cancel" },
      items: [
        {
          status: "active",
          quantity: 1,
          recurring: true,
          created_at: iso(s.periodStart),
          updated_at: iso(s.periodStart),
          previously_billed_at: null,
          next_billed_at: s.nextBilledAt ? iso(s.nextBilledAt) : null,
          trial_dates: null,
          price: priceJson(price),
          product: productJson(price),
        },
      ],
      custom_data: null,
      import_meta: null,
    };
  }

  function nextTransaction(s: FakeSubscription, minor: number) {
    const price = prices.get(s.priceId)!;
    const end = new Date(s.periodEnd.getTime() + 30 * 24 * 3600_000);
    return {
      billing_period: { starts_at: iso(s.periodEnd), ends_at: iso(end) },
      details: {
        tax_rates_used: [],
        totals: {
          ...totals(minor),
          credit: "0",
          credit_to_balance: "0",
          balance: "0",
          grand_total: String(minor),
          grand_total_tax: "0",
          fee: null,
          earnings: null,
          currency_code: s.currencyCode as ISubscriptionResponse["currency_code"],
        },
        line_items: [
          {
            price_id: price.id,
            quantity: 1,
            tax_rate: "0",
            unit_totals: totals(minor),
            totals: totals(minor),
            product: productJson(price),
            proration: null,
          },
        ],
      },
      adjustments: [],
    };
  }

  function transactionJson(s: FakeSubscription): ITransactionResponse {
    const price = prices.get(s.priceId)!;
    const now = new Date().toISOString();
    return {
      id: `txn_${randomUUID().replace(/-/g, "").slice(0, 26)}`,
      status: "ready",
      customer_id: s.customerId,
      address_id: `add_${s.customerId.replace(/^ctm_/, "")}`,
      business_id: null,
      custom_data: null,
      currency_code: s.currencyCode as ITransactionResponse["currency_code"],
      origin: "subscription_payment_method_change",
      subscription_id: s.id,
      invoice_id: null,
      invoice_number: null,
      collection_mode: "automatic",
      discount_id: null,
      billing_details: null,
      billing_period: null,
      items: [{ price: priceJson(price), quantity: 1, proration: null }],
      details: {
        tax_rates_used: [],
        totals: {
          ...totals(0),
          credit: "0",
          credit_to_balance: "0",
          balance: "0",
          grand_total: "0",
          grand_total_tax: "0",
          fee: null,
          earnings: null,
          currency_code: s.currencyCode as ITransactionResponse["currency_code"],
        },
        adjusted_totals: null,
        payout_totals: null,
        adjusted_payout_totals: null,
        line_items: [],
      },
      payments: [],
      checkout: { url: `https://checkout.example.test/?_ptxn=${s.id}` },
      created_at: now,
      updated_at: now,
      billed_at: null,
      revised_at: null,
    };
  }

  function pricingPreview(body: {
    items?: { price_id?: string; quantity?: number }[];
    address?: { country_code?: string } | null;
    customer_ip_address?: string | null;
  }): IPricingPreviewResponse | ApiFailure {
    const country =
      body.address?.country_code ?? (body.customer_ip_address ? IP_COUNTRY[body.customer_ip_address] : undefined);
    const currency = (country && COUNTRY_CURRENCY[country]) || "USD";
    const lineItems = [];
    for (const item of body.items ?? []) {
      const price = item.price_id ? prices.get(item.price_id) : undefined;
      if (!price) return notFound(`price ${item.price_id}`);
      const minor = price.amounts[currency] ?? price.amounts.USD;
      const qty = item.quantity ?? 1;
      const formatted = {
        subtotal: formatMinor(minor * qty, currency),
        discount: formatMinor(0, currency),
        tax: formatMinor(0, currency),
        total: formatMinor(minor * qty, currency),
      };
      lineItems.push({
        price: priceJson(price),
        quantity: qty,
        tax_rate: "0",
        unit_totals: totals(minor),
        formatted_unit_totals: formatted,
        totals: totals(minor * qty),
        formatted_totals: formatted,
        product: productJson(price),
        discounts: [],
      });
    }
    return {
      customer_id: null,
      address_id: null,
      business_id: null,
      currency_code: currency as IPricingPreviewResponse["currency_code"],
      discount_id: null,
      address: country ? { postal_code: null, country_code: country as never } : null,
      customer_ip_address: body.customer_ip_address ?? null,
      items: (body.items ?? []).map((i) => ({ price_id: i.price_id, quantity: i.quantity ?? 1 })),
      details: { line_items: lineItems },
      available_payment_methods: ["card", "paypal"],
    };
  }

  interface ApiFailure {
    status: number;
    error: { type: string; code: string; detail: string; documentation_url: string };
  }
  const notFound = (what: string): ApiFailure => ({
    status: 404,
    error: {
      type: "request_error",
      code: "not_found",
      detail: `Entity ${what} not found`,
      documentation_url: "https://developer.paddle.com/v1/errors/shared/not_found",
    },
  });
  const isFailure = (x: unknown): x is ApiFailure =>
    Boolean(x && typeof x === "object" && "error" in x && "status" in x);

  function route(method: string, path: string, body: Record<string, unknown>): unknown {
    if (method === "POST" && path === "/pricing-preview") return pricingPreview(body);
    const m = /^\/subscriptions\/([^/]+)(\/.*)?$/.exec(path);
    if (!m) return notFound(path);
    const sub = subscriptions.get(decodeURIComponent(m[1]));
    if (!sub) return notFound(`subscription ${m[1]}`);
    const rest = m[2] ?? "";
    const discount = body.discount as { id?: string; effective_from?: string } | null | undefined;

    if (method === "PATCH" && rest === "/preview") {
      const preview: FakeSubscription = { ...sub };
      let next = prices.get(sub.priceId)!.amounts[sub.currencyCode] ?? 0;
      if (discount?.id) {
        const amount = discounts[discount.id]?.[sub.currencyCode];
        if (amount === undefined) return notFound(`discount ${discount.id}`);
        preview.discountId = discount.id;
        next = amount;
      }
      const { id: _id, ...withoutId } = subscriptionJson(preview);
      const out: ISubscriptionPreviewResponse = {
        ...withoutId,
        immediate_transaction: null,
        next_transaction: nextTransaction(preview, next),
        recurring_transaction_details: nextTransaction(preview, prices.get(sub.priceId)!.amounts[sub.currencyCode] ?? 0)
          .details,
        update_summary: null,
      };
      return out;
    }
    if (method === "PATCH" && rest === "") {
      // Paddle refuses changes to a subscription that has ended (code subscription_update_when_canceled).
      if (sub.status === "canceled") {
        return {
          status: 400,
          error: {
            type: "request_error",
            code: "subscription_update_when_canceled",
            detail: "Subscription cannot be updated when canceled",
            documentation_url: "https://developer.paddle.com/v1/errors/subscriptions/subscription_update_when_canceled",
          },
        };
      }
      if ("scheduled_change" in body && body.scheduled_change === null) {
        // Removing a scheduled cancel: billing resumes at the period end as before.
        if (sub.scheduledChange?.action === "cancel") sub.nextBilledAt = sub.periodEnd;
        sub.scheduledChange = null;
      }
      if (discount?.id) {
        if (!discounts[discount.id]) return notFound(`discount ${discount.id}`);
        sub.discountId = discount.id;
      }
      if (typeof body.next_billed_at === "string") {
        sub.nextBilledAt = new Date(body.next_billed_at);
        if (sub.status === "trialing") sub.periodEnd = sub.nextBilledAt;
      }
      // A change of items (a plan switch) needs a proration_billing_mode, and a price Paddle knows.
      const items = body.items as { price_id?: string; quantity?: number }[] | undefined;
      if (items) {
        if (typeof body.proration_billing_mode !== "string") {
          return { status: 400, error: { type: "request_error", code: "invalid_field", detail: "proration_billing_mode is required when items change", documentation_url: "https://developer.paddle.com/v1/errors/shared/invalid_field" } };
        }
        const price = items[0]?.price_id;
        if (!price || !prices.has(price)) return notFound(`price ${price}`);
        sub.priceId = price;
      }
      return subscriptionJson(sub);
    }
    if (method === "POST" && rest === "/cancel") {
      if (body.effective_from === "immediately") {
        sub.status = "canceled";
        sub.scheduledChange = null;
      } else {
        // As Paddle does: nothing more is billed once a cancel is scheduled.
        sub.scheduledChange = { action: "cancel", effectiveAt: sub.periodEnd };
        sub.nextBilledAt = null;
      }
      return subscriptionJson(sub);
    }
    if (method === "GET" && rest === "/update-payment-method-transaction") return transactionJson(sub);
    return notFound(path);
  }

  function send(res: ServerResponse, status: number, payload: unknown) {
    res.writeHead(status, { "content-type": "application/json", "request-id": randomUUID() });
    res.end(JSON.stringify(payload));
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    requests.push({ method: req.method ?? "GET", path: url.pathname, query: url.search, headers: req.headers, body });
    const meta = { request_id: randomUUID() };
    if (failure !== null) {
      return send(res, failure, {
        error: {
          type: "api_error",
          code: "internal_error",
          detail: "Paddle is having a bad day (fake).",
          documentation_url: "https://developer.paddle.com/errors/shared/internal_error",
        },
        meta,
      });
    }
    if (req.headers.authorization !== `Bearer ${apiKey}` && req.headers.authorization !== `bearer ${apiKey}`) {
      return send(res, 403, {
        error: {
          type: "request_error",
          code: "forbidden",
          detail: "You aren't permitted to perform this request.",
          documentation_url: "https://developer.paddle.com/errors/shared/forbidden",
        },
        meta,
      });
    }
    const result = route(req.method ?? "GET", url.pathname, (body ?? {}) as Record<string, unknown>);
    if (isFailure(result)) return send(res, result.status, { error: result.error, meta });
    return send(res, 200, { data: result, meta });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error) =>
      send(res, 500, { error: { type: "api_error", code: "internal_error", detail: String(error) } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    requests,
    subscriptions,
    addSubscription(partial) {
      const start = partial.periodStart ?? new Date();
      const end = partial.periodEnd ?? new Date(start.getTime() + 30 * 24 * 3600_000);
      const sub: FakeSubscription = {
        status: "active",
        customerId: `ctm_${randomUUID().replace(/-/g, "").slice(0, 26)}`,
        currencyCode: "USD",
        periodStart: start,
        periodEnd: end,
        nextBilledAt: end,
        scheduledChange: null,
        discountId: null,
        ...partial,
      };
      subscriptions.set(sub.id, sub);
      return sub;
    },
    failWith(status) {
      failure = status;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
