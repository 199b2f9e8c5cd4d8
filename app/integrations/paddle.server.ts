// Paddle Billing. Two implementations of one port:
// - the real adapter (@paddle/paddle-node-sdk) when PADDLE_API_KEY is set; its base URL can point at a
//   local server in tests;
// - the local default, which acts as Paddle would and reports every change by sending correctly signed,
//   Paddle-shaped webhooks through our own webhook handler (the production code path). It is refused in
//   production unless PADDLE_LOCAL_CHECKOUT=true (docs/decisions/009).
// Both verify and parse webhooks with the SDK (webhooks.unmarshal) and normalise them here, so the
// billing service never sees provider-specific shapes.
import { createHmac, randomUUID } from "node:crypto";
import { Environment, Paddle, Webhooks, type EventEntity, type IEvents } from "@paddle/paddle-node-sdk";
import { parseMinorUnits, type SubscriptionStatus } from "~/domain/billing/billing";
import { exactTime, toDate, type ExactTime } from "~/domain/event-time";

// ---------- the port ----------

export interface PricePreview {
  priceId: string;
  /** As Paddle formats it for the buyer's country, e.g. "CA$40.99". */
  formattedTotal: string;
  currencyCode: string;
}

export interface PaddlePort {
  readonly mode: "paddle" | "local";
  previewPrices(input: { priceIds: string[]; customerIp: string | null; countryCode: string | null }): Promise<PricePreview[]>;
  previewDiscount(input: { subscriptionId: string; discountId: string }): Promise<{ currencyCode: string; formattedTotal: string }>;
  cancelAtPeriodEnd(subscriptionId: string): Promise<void>;
  /**
   * Withdraws a scheduled cancellation before it takes effect (PATCH /subscriptions/{id} with
   * scheduled_change: null); billing carries on as before. Paddle then sends subscription.updated.
   */
  resumeScheduledCancel(subscriptionId: string): Promise<void>;
  /** Ends the subscription now (account deletion): Paddle stops billing and sends subscription.canceled. */
  cancelNow(subscriptionId: string): Promise<void>;
  applyDiscountNextCycle(input: { subscriptionId: string; discountId: string }): Promise<void>;
  /**
   * Switches a subscription to another monthly price (Basic <-> Pro): PATCH /subscriptions/{id} with the
   * new items. During a trial nothing is billed (do_not_bill; the first charge is the new price); after
   * it the difference is prorated and charged at once (prorated_immediately). Paddle then sends
   * subscription.updated with the new price.
   */
  changePlan(input: { subscriptionId: string; priceId: string; trialing: boolean }): Promise<void>;
  /** Moves the first charge of a trialing subscription later. */
  extendTrial(input: { subscriptionId: string; nextBilledAt: Date }): Promise<void>;
  /** A transaction to open in Paddle's checkout so the buyer can change card. */
  paymentMethodChangeTransaction(subscriptionId: string): Promise<{ transactionId: string }>;
}

// ---------- normalised webhook events ----------

export interface NormalizedSubscription {
  id: string;
  status: SubscriptionStatus;
  customerId: string | null;
  priceId: string | null;
  recurringTotalCents: number | null;
  currencyCode: string | null;
  billingInterval: string | null;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  nextBilledAt: Date | null;
  scheduledChange: "cancel" | "pause" | "resume" | null;
  scheduledChangeAt: Date | null;
  discountId: string | null;
}

export interface NormalizedTransaction {
  id: string;
  status: string;
  customerId: string | null;
  subscriptionId: string | null;
  origin: string | null;
  priceIds: string[];
  totalCents: number | null;
  currencyCode: string | null;
  /** Start of the billing period a subscription charge pays for; null for one-time purchases. */
  billingPeriodStart: Date | null;
  discountId: string | null;
}

interface EventBase {
  eventId: string;
  eventType: string;
  /** occurred_at to the millisecond, for the DateTime columns. */
  occurredAt: Date;
  /** occurred_at at the precision Paddle sent (microseconds), which decides order (docs/decisions/043). */
  occurredAtExact: ExactTime;
  /** custom_data.userId set by our checkout; never matched by e-mail. */
  userId: string | null;
}

export type BillingEvent =
  | (EventBase & { kind: "subscription"; subscription: NormalizedSubscription })
  | (EventBase & { kind: "transaction"; transaction: NormalizedTransaction })
  | (EventBase & { kind: "other" });

export class WebhookSignatureError extends Error {
  /** Why, for our log only: the caller is told the one sentence above, whatever the reason. */
  readonly reason: string;
  constructor(reason: string) {
    super("Paddle-Signature is missing, expired, dated in the future or does not match the body.");
    this.name = "WebhookSignatureError";
    this.reason = reason;
  }
}

/** A correctly signed notification whose body the SDK cannot read: not a signature problem. */
export class WebhookPayloadError extends Error {
  constructor(cause: unknown) {
    super(`The notification is signed but cannot be read: ${String((cause as Error)?.message ?? cause)}`, { cause });
    this.name = "WebhookPayloadError";
  }
}

const paddleForWebhooks = new Paddle("webhook-verification-only");

/**
 * How far in the future a signature's ts= may be. The SDK (3.10, WebhooksValidator) refuses a ts more
 * than 5 s in the past but accepts any ts in the future, so a body signed for tomorrow would stay
 * replayable until tomorrow. Paddle's clock and ours are NTP-synchronised to well under a second;
 * 30 s leaves room for a virtual machine's clock that drifted after a suspend without refusing
 * authentic notifications (which Paddle would only retry minutes to hours later). A replay within
 * that window is harmless anyway: events are deduplicated by event id.
 */
export const MAX_SIGNATURE_FUTURE_SKEW_MS = 30_000;

/** The SDK's own limit on a signature's age (3.10, WebhooksValidator.MAX_VALID_TIME_DIFFERENCE), checked first for the log. */
const MAX_SIGNATURE_AGE_S = 5;

/** More h1= than Paddle sends while rotating a secret (two) is not a header Paddle wrote; each costs an HMAC of the body. */
const MAX_SIGNATURES = 4;

export interface SignatureHeader {
  /** ts= in seconds since the epoch. */
  ts: number;
  /** Every h1= (HMAC-SHA256, lowercase hex), in order: Paddle sends more than one while a secret is rotated. */
  h1: string[];
}

/**
 * Paddle-Signature read once, the SDK's way (3.10, WebhooksValidator.extractHeader: split on ";", each
 * part on "=", keys as written, no trimming), but strictly: every part is `ts=<digits>` or
 * `h1=<64 hex>`, ts= exactly once, h1= at least once. The SDK keeps the last ts= it sees, so a
 * header with two let our future bound read one ts and the SDK verify another (docs/decisions/043).
 * Throws WebhookSignatureError saying what is wrong.
 */
export function parseSignatureHeader(header: string): SignatureHeader {
  let ts: number | null = null;
  const h1: string[] = [];
  for (const part of header.split(";")) {
    const m = /^(ts|h1)=([^=]*)$/.exec(part);
    if (!m) throw new WebhookSignatureError(`malformed part ${JSON.stringify(part.slice(0, 40))}`);
    const [, key, value] = m;
    if (key === "ts") {
      if (ts !== null) throw new WebhookSignatureError("ts= given more than once");
      if (!/^\d{1,12}$/.test(value)) throw new WebhookSignatureError("ts= is not a whole number of seconds");
      ts = Number(value);
    } else {
      if (!/^[0-9a-f]{64}$/.test(value)) throw new WebhookSignatureError("h1= is not a SHA-256 in lowercase hex");
      h1.push(value);
    }
  }
  if (ts === null) throw new WebhookSignatureError("no ts=");
  if (h1.length === 0) throw new WebhookSignatureError("no h1=");
  if (h1.length > MAX_SIGNATURES) throw new WebhookSignatureError(`more than ${MAX_SIGNATURES} h1=`);
  return { ts, h1 };
}

/**
 * Verifies Paddle-Signature on the raw body, then parses the event. The header is parsed once
 * (parseSignatureHeader); our bounds (at most 5 s old, at most MAX_SIGNATURE_FUTURE_SKEW_MS in the
 * future) apply to its one ts=, and the SDK verifies the HMAC on a header rebuilt from that same ts=
 * and each h1= in turn, so the SDK cannot read a different ts= than the one we bounded. The two steps
 * fail differently: a bad signature is WebhookSignatureError (401), an authentic body the SDK cannot
 * parse is WebhookPayloadError, so the logs do not blame the signature for a parsing problem.
 */
export async function unmarshalWebhook(rawBody: string, secret: string, signature: string | null): Promise<EventEntity> {
  if (!signature) throw new WebhookSignatureError("no Paddle-Signature header");
  const { ts, h1 } = parseSignatureHeader(signature);
  const now = Date.now();
  if (ts * 1000 > now + MAX_SIGNATURE_FUTURE_SKEW_MS) throw new WebhookSignatureError("ts= is in the future");
  if (now > (ts + MAX_SIGNATURE_AGE_S) * 1000) throw new WebhookSignatureError("ts= is too old");
  let valid = false;
  for (const hash of h1) {
    if (await paddleForWebhooks.webhooks.isSignatureValid(rawBody, secret, `ts=${ts};h1=${hash}`)) {
      valid = true;
      break;
    }
  }
  if (!valid) throw new WebhookSignatureError("no h1= matches the body");
  try {
    return Webhooks.fromJson(JSON.parse(rawBody) as IEvents);
  } catch (error) {
    throw new WebhookPayloadError(error);
  }
}

/**
 * The port billing-events reads Paddle's notifications through: the signature verified (unmarshalWebhook),
 * then the event in our terms (normalizeEvent). Throws WebhookSignatureError or WebhookPayloadError.
 */
export type PaddleNotificationReader = (rawBody: string, secret: string, signature: string | null) => Promise<BillingEvent>;

export const readPaddleNotification: PaddleNotificationReader = async (rawBody, secret, signature) =>
  normalizeEvent(await unmarshalWebhook(rawBody, secret, signature));

function date(value: string | null | undefined): Date | null {
  return value ? new Date(value) : null;
}

function userIdFrom(customData: unknown): string | null {
  const value = (customData as { userId?: unknown } | null)?.userId;
  return typeof value === "string" && value.length > 0 ? value : null;
}

/**
 * The event in our terms. Throws WebhookPayloadError for an occurred_at that names no instant (no zone,
 * not a date): its order against other events could not be decided.
 */
export function normalizeEvent(event: EventEntity): BillingEvent {
  const occurredAtExact = exactTime(String(event.occurredAt));
  if (!occurredAtExact) throw new WebhookPayloadError(new Error(`occurred_at is not a time with a zone: ${String(event.occurredAt).slice(0, 40)}`));
  const base = {
    eventId: event.eventId,
    eventType: event.eventType,
    occurredAt: toDate(occurredAtExact),
    occurredAtExact,
  };
  if (event.eventType.startsWith("subscription.")) {
    const s = event.data as unknown as {
      id: string;
      status: SubscriptionStatus;
      customerId: string | null;
      currencyCode: string | null;
      nextBilledAt: string | null;
      currentBillingPeriod: { startsAt: string; endsAt: string } | null;
      billingCycle: { interval: string; frequency: number } | null;
      scheduledChange: { action: "cancel" | "pause" | "resume"; effectiveAt: string } | null;
      discount: { id: string } | null;
      customData: unknown;
      items: { price: { id: string; unitPrice: { amount: string; currencyCode?: string } } | null; quantity: number }[];
    };
    const item = s.items[0];
    return {
      ...base,
      kind: "subscription",
      userId: userIdFrom(s.customData),
      subscription: {
        id: s.id,
        status: s.status,
        customerId: s.customerId ?? null,
        priceId: item?.price?.id ?? null,
        // The price's base amount, in the price's own currency. What a buyer in another country really
        // pays arrives with the subscription's transactions, which take precedence (billing-events.server.ts).
        recurringTotalCents: item?.price ? (parseMinorUnits(item.price.unitPrice.amount) ?? 0) * (item.quantity || 1) : null,
        currencyCode: item?.price?.unitPrice.currencyCode ?? s.currencyCode ?? null,
        billingInterval: s.billingCycle?.interval ?? null,
        currentPeriodStart: date(s.currentBillingPeriod?.startsAt),
        currentPeriodEnd: date(s.currentBillingPeriod?.endsAt),
        nextBilledAt: date(s.nextBilledAt),
        scheduledChange: s.scheduledChange?.action ?? null,
        scheduledChangeAt: date(s.scheduledChange?.effectiveAt),
        discountId: s.discount?.id ?? null,
      },
    };
  }
  if (event.eventType.startsWith("transaction.")) {
    const t = event.data as unknown as {
      id: string;
      status: string;
      customerId: string | null;
      subscriptionId: string | null;
      origin: string | null;
      currencyCode: string | null;
      customData: unknown;
      items: { price: { id: string } | null }[];
      details: { totals: { grandTotal?: string; total: string } | null } | null;
      billingPeriod: { startsAt: string; endsAt: string } | null;
      discountId: string | null;
    };
    return {
      ...base,
      kind: "transaction",
      userId: userIdFrom(t.customData),
      transaction: {
        id: t.id,
        status: t.status,
        customerId: t.customerId ?? null,
        subscriptionId: t.subscriptionId ?? null,
        origin: t.origin ?? null,
        priceIds: t.items.map((i) => i.price?.id).filter((id): id is string => Boolean(id)),
        totalCents: parseMinorUnits(t.details?.totals?.grandTotal ?? t.details?.totals?.total),
        currencyCode: t.currencyCode ?? null,
        billingPeriodStart: date(t.billingPeriod?.startsAt),
        discountId: t.discountId ?? null,
      },
    };
  }
  return { ...base, kind: "other", userId: null };
}

/** `ts=…;h1=…` as Paddle sends it: HMAC-SHA256 of "ts:body" with the notification secret. */
export function signWebhook(rawBody: string, secret: string, at: Date = new Date()): string {
  const ts = Math.floor(at.getTime() / 1000);
  const h1 = createHmac("sha256", secret).update(`${ts}:${rawBody}`).digest("hex");
  return `ts=${ts};h1=${h1}`;
}

export function formatMoney(minorUnits: number, currencyCode: string): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: currencyCode }).format(minorUnits / 100);
}

// ---------- the real adapter ----------

export function createPaddleApi(config: { apiKey: string; environment: "sandbox" | "production"; baseUrl?: string }): PaddlePort {
  // The SDK takes a base URL in place of an environment name (tests point it at 127.0.0.1).
  const environment = (config.baseUrl ?? (config.environment === "production" ? Environment.production : Environment.sandbox)) as Environment;
  const paddle = new Paddle(config.apiKey, { environment });
  return {
    mode: "paddle",
    async previewPrices({ priceIds, customerIp, countryCode }) {
      const preview = await paddle.pricingPreview.preview({
        items: priceIds.map((priceId) => ({ priceId, quantity: 1 })),
        ...(countryCode ? { address: { countryCode: countryCode as never } } : customerIp ? { customerIpAddress: customerIp } : {}),
      });
      return preview.details.lineItems.map((line) => ({
        priceId: line.price.id,
        formattedTotal: line.formattedTotals.total,
        currencyCode: preview.currencyCode,
      }));
    },
    async previewDiscount({ subscriptionId, discountId }) {
      const preview = await paddle.subscriptions.previewUpdate(subscriptionId, {
        discount: { id: discountId, effectiveFrom: "next_billing_period" },
      });
      const totals = preview.nextTransaction?.details.totals ?? preview.recurringTransactionDetails?.totals;
      const cents = parseMinorUnits(totals?.total);
      if (cents === null) throw new Error("Paddle's preview has no next transaction total");
      return { currencyCode: preview.currencyCode, formattedTotal: formatMoney(cents, preview.currencyCode) };
    },
    async cancelAtPeriodEnd(subscriptionId) {
      await paddle.subscriptions.cancel(subscriptionId, { effectiveFrom: "next_billing_period" });
    },
    async resumeScheduledCancel(subscriptionId) {
      await paddle.subscriptions.update(subscriptionId, { scheduledChange: null });
    },
    async cancelNow(subscriptionId) {
      await paddle.subscriptions.cancel(subscriptionId, { effectiveFrom: "immediately" });
    },
    async applyDiscountNextCycle({ subscriptionId, discountId }) {
      await paddle.subscriptions.update(subscriptionId, { discount: { id: discountId, effectiveFrom: "next_billing_period" } });
    },
    async changePlan({ subscriptionId, priceId, trialing }) {
      await paddle.subscriptions.update(subscriptionId, {
        items: [{ priceId, quantity: 1 }],
        prorationBillingMode: trialing ? "do_not_bill" : "prorated_immediately",
      });
    },
    async extendTrial({ subscriptionId, nextBilledAt }) {
      await paddle.subscriptions.update(subscriptionId, {
        nextBilledAt: nextBilledAt.toISOString(),
        prorationBillingMode: "do_not_bill",
      });
    },
    async paymentMethodChangeTransaction(subscriptionId) {
      const txn = await paddle.subscriptions.getPaymentMethodChangeTransaction(subscriptionId);
      return { transactionId: txn.id };
    },
  };
}

// ---------- Paddle-shaped payloads (local default and tests) ----------

export interface LocalPrice {
  id: string;
  name: string;
  unitAmountCents: number;
  currencyCode: string;
  interval: "month" | null;
  trialDays: number;
}

function priceJson(price: LocalPrice, at: string) {
  return {
    id: price.id,
    product_id: `pro_${price.id.replace(/^pri_/, "")}`,
    description: price.name,
    name: price.name,
    type: "standard",
    billing_cycle: price.interval ? { interval: price.interval, frequency: 1 } : null,
    trial_period: price.trialDays > 0 ? { interval: "day", frequency: price.trialDays } : null,
    tax_mode: "account_setting",
    unit_price: { amount: String(price.unitAmountCents), currency_code: price.currencyCode },
    unit_price_overrides: [],
    quantity: { minimum: 1, maximum: 1 },
    status: "active",
    created_at: at,
    updated_at: at,
    custom_data: null,
  };
}

function productJson(price: LocalPrice, at: string) {
  return {
    id: `pro_${price.id.replace(/^pri_/, "")}`,
    name: price.name,
    tax_category: "standard",
    status: "active",
    created_at: at,
    updated_at: at,
  };
}

export interface SubscriptionSnapshot {
  id: string;
  status: SubscriptionStatus;
  customerId: string;
  userId: string;
  price: LocalPrice;
  startedAt: Date;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  nextBilledAt: Date | null;
  scheduledChange: { action: "cancel" | "pause" | "resume"; effectiveAt: Date } | null;
  discountId: string | null;
  canceledAt?: Date | null;
}

export function subscriptionJson(s: SubscriptionSnapshot, at: Date) {
  const iso = at.toISOString();
  return {
    id: s.id,
    status: s.status,
    customer_id: s.customerId,
    address_id: `add_${s.customerId.replace(/^ctm_/, "")}`,
    business_id: null,
    currency_code: s.price.currencyCode,
    created_at: s.startedAt.toISOString(),
    updated_at: iso,
    started_at: s.startedAt.toISOString(),
    first_billed_at: s.status === "trialing" ? null : s.currentPeriodStart.toISOString(),
    next_billed_at: s.nextBilledAt?.toISOString() ?? null,
    paused_at: null,
    canceled_at: s.canceledAt?.toISOString() ?? null,
    discount: s.discountId ? { id: s.discountId, starts_at: s.currentPeriodEnd.toISOString(), ends_at: null } : null,
    collection_mode: "automatic",
    billing_details: null,
    current_billing_period: { starts_at: s.currentPeriodStart.toISOString(), ends_at: s.currentPeriodEnd.toISOString() },
    billing_cycle: { interval: s.price.interval ?? "month", frequency: 1 },
    scheduled_change: s.scheduledChange
      ? { action: s.scheduledChange.action, effective_at: s.scheduledChange.effectiveAt.toISOString(), resume_at: null }
      : null,
    management_urls: null,
    items: [
      {
        status: "active",
        quantity: 1,
        recurring: true,
        created_at: s.startedAt.toISOString(),
        updated_at: iso,
        previously_billed_at: null,
        next_billed_at: s.nextBilledAt?.toISOString() ?? null,
        trial_dates:
          s.status === "trialing"
            ? { starts_at: s.currentPeriodStart.toISOString(), ends_at: s.currentPeriodEnd.toISOString() }
            : null,
        price: priceJson(s.price, iso),
        product: productJson(s.price, iso),
      },
    ],
    custom_data: { userId: s.userId },
  };
}

export interface TransactionSnapshot {
  id: string;
  status: string;
  customerId: string;
  userId: string;
  subscriptionId: string | null;
  origin: "web" | "subscription_recurring" | "subscription_payment_method_change";
  price: LocalPrice;
  totalCents: number;
  /** The period a subscription charge pays for (Paddle's billing_period). */
  billingPeriod?: { startsAt: Date; endsAt: Date } | null;
  /** A discount applied to this transaction (Paddle's discount_id). */
  discountId?: string | null;
}

export function transactionJson(t: TransactionSnapshot, at: Date) {
  const iso = at.toISOString();
  const total = String(t.totalCents);
  const totals = {
    subtotal: total,
    discount: "0",
    tax: "0",
    total,
    credit: "0",
    credit_to_balance: "0",
    balance: "0",
    grand_total: total,
    grand_total_tax: "0",
    fee: null,
    earnings: null,
    currency_code: t.price.currencyCode,
  };
  return {
    id: t.id,
    status: t.status,
    customer_id: t.customerId,
    address_id: null,
    business_id: null,
    custom_data: { userId: t.userId },
    currency_code: t.price.currencyCode,
    origin: t.origin,
    subscription_id: t.subscriptionId,
    invoice_id: null,
    invoice_number: null,
    collection_mode: "automatic",
    discount_id: t.discountId ?? null,
    billing_details: null,
    billing_period: t.billingPeriod
      ? { starts_at: t.billingPeriod.startsAt.toISOString(), ends_at: t.billingPeriod.endsAt.toISOString() }
      : null,
    items: [{ price: priceJson(t.price, iso), quantity: 1, proration: null }],
    details: { tax_rates_used: [], totals, adjusted_totals: null, payout_totals: null, adjusted_payout_totals: null, line_items: [] },
    payments: [],
    checkout: { url: null },
    created_at: iso,
    updated_at: iso,
    billed_at: t.status === "completed" || t.status === "paid" || t.status === "billed" ? iso : null,
    revised_at: null,
  };
}

export function eventJson(eventType: string, data: unknown, occurredAt: Date) {
  return {
    event_id: `evt_${randomUUID().replace(/-/g, "")}`,
    event_type: eventType,
    occurred_at: occurredAt.toISOString(),
    notification_id: `ntf_${randomUUID().replace(/-/g, "")}`,
    data,
  };
}
