// Pure rules of the marketing outbox (docs/decisions/032): the services and what each row does, what an
// answer from a service means for the row (sent, retry later, park), the per-service rate limits, the
// lifecycle events the server sends itself, and the shapes the seed's marketing calls accept.
import { z } from "zod";
import { backoffMs } from "~/domain/jobs";
import { marketingStatus, type MarketingFlags, type MarketingStatus } from "~/domain/marketing/marketing-status";

/** "analytics" is PostHog (the name the outbox used before delivery existed). */
export const OUTBOX_SERVICES = ["analytics", "klaviyo", "hyros", "anytrack"] as const;
export type OutboxService = (typeof OUTBOX_SERVICES)[number];

export const OUTBOX_OPERATIONS = ["capture", "profile", "event", "profile-deletion", "lead", "conversion"] as const;
export type OutboxOperation = (typeof OUTBOX_OPERATIONS)[number];

export const OUTBOX_STATUSES = ["pending", "sent", "parked"] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

/** Failed attempts before a row is parked for an operator (`npm run outbox -- list|retry`). */
export const OUTBOX_MAX_ATTEMPTS = 8;
/** First retry after ~5 s, doubling, never more than an hour apart (8 attempts span ~20 minutes). */
export const OUTBOX_BACKOFF = { baseMs: 5_000, maxMs: 60 * 60_000 };
/** A 429 without Retry-After pauses the service this long. */
export const DEFAULT_RETRY_AFTER_MS = 10_000;
/** Retry-After values past this are capped (a misbehaving server cannot stop delivery for a day). */
export const MAX_RETRY_AFTER_MS = 60 * 60_000;

/** A token bucket per service and operation: `perSecond` steady, up to `burst` at once. */
export interface RateLimit {
  perSecond: number;
  burst: number;
}

/**
 * Under each service's published limits: Klaviyo's profile import allows 75/s burst and 700/min
 * steady, Create Event 350/s burst and 3,500/min; Hyros 30/s and 1,000/min; PostHog's capture is not
 * limited per request for our volume (each request is a batch of up to 100 events); AnyTrack publishes
 * none, so it gets Hyros's.
 */
export const DEFAULT_RATE_LIMITS: Record<string, RateLimit> = {
  "analytics:capture": { perSecond: 20, burst: 20 },
  "klaviyo:profile": { perSecond: 10, burst: 20 },
  "klaviyo:event": { perSecond: 50, burst: 100 },
  "klaviyo:profile-deletion": { perSecond: 1, burst: 5 },
  "hyros:lead": { perSecond: 10, burst: 20 },
  "anytrack:conversion": { perSecond: 10, burst: 20 },
};

export class TokenBucket {
  private tokens: number;
  private last: number;
  constructor(
    private readonly limit: RateLimit,
    now: number,
  ) {
    this.tokens = limit.burst;
    this.last = now;
  }
  /** Milliseconds until a token is free (0 = take it now; the token is then spent). */
  take(now: number): number {
    this.tokens = Math.min(this.limit.burst, this.tokens + ((now - this.last) / 1000) * this.limit.perSecond);
    this.last = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - this.tokens) / this.limit.perSecond) * 1000);
  }
}

/** What a service's answer means for the row. */
export type DeliveryOutcome =
  | { kind: "sent" }
  /** Try again: after the row's own backoff, or at least `afterMs`; `pauseServiceMs` holds every row of the service. */
  | { kind: "retry"; reason: string; afterMs?: number; pauseServiceMs?: number; countsAsAttempt: boolean }
  /** Retrying cannot help (the service refused the request itself): parked at once, for an operator. */
  | { kind: "park"; reason: string };

/** Retry-After as seconds or an HTTP date, in ms from `now`; null when absent or unreadable. */
export function retryAfterMs(header: string | null | undefined, now: number): number | null {
  if (!header) return null;
  const text = header.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.min(Math.round(Number(text) * 1000), MAX_RETRY_AFTER_MS);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.min(Math.max(0, at - now), MAX_RETRY_AFTER_MS);
}

/**
 * An HTTP answer (or none: a network error or timeout, status null) as an outcome. 2xx sent; 429 waits
 * for Retry-After without spending an attempt; 408, 5xx and no answer are retried with backoff and
 * pause the service briefly; 401/403 (a wrong or revoked key) are retried, since an operator can fix
 * the key; any other 4xx is a request the service will never accept: parked.
 */
export function classifyAnswer(status: number | null, retryAfter: string | null | undefined, now: number, detail = ""): DeliveryOutcome {
  const suffix = detail ? `: ${detail.slice(0, 300)}` : "";
  if (status === null) return { kind: "retry", reason: `no answer${suffix}`, pauseServiceMs: 2_000, countsAsAttempt: true };
  if (status >= 200 && status < 300) return { kind: "sent" };
  if (status === 429) {
    const wait = retryAfterMs(retryAfter, now) ?? DEFAULT_RETRY_AFTER_MS;
    return { kind: "retry", reason: `429 rate limited, retry after ${Math.round(wait / 1000)} s${suffix}`, afterMs: wait, pauseServiceMs: wait, countsAsAttempt: false };
  }
  if (status === 408 || status >= 500) {
    const wait = retryAfterMs(retryAfter, now);
    return { kind: "retry", reason: `${status}${suffix}`, afterMs: wait ?? undefined, pauseServiceMs: wait ?? 2_000, countsAsAttempt: true };
  }
  if (status === 401 || status === 403) return { kind: "retry", reason: `${status}: the service refused our key${suffix}`, pauseServiceMs: 30_000, countsAsAttempt: true };
  return { kind: "park", reason: `${status}: the service refused the request${suffix}` };
}

/** After a failed attempt: parked once the attempts are used up, else the time of the next one. */
export function nextAttempt(
  input: { attempts: number; maxAttempts: number; afterMs?: number; random: number },
): { park: true } | { park: false; inMs: number } {
  if (input.attempts >= input.maxAttempts) return { park: true };
  const backoff = backoffMs(input.attempts, input.random, OUTBOX_BACKOFF);
  return { park: false, inMs: Math.max(backoff, input.afterMs ?? 0) };
}

// ---------- what the server sends without the browser asking ----------

/** Klaviyo metric names the server owns; the browser's marketingEvent may not send them. */
export const LIFECYCLE_EVENTS = {
  signedUp: "Signed Up",
  trialStarted: "Trial Started",
  subscriptionStarted: "Subscription Started",
  subscriptionCancelled: "Subscription Cancelled",
  paymentDeclined: "Payment Declined",
  courseCompleted: "Course Completed",
} as const;
export type LifecycleEvent = (typeof LIFECYCLE_EVENTS)[keyof typeof LIFECYCLE_EVENTS];

/** Profile properties the server keeps in sync (seed updateProfile properties); the browser cannot set them. */
export const SERVER_PROFILE_PROPERTIES = ["status", "courseProgress", "discordMember", "userId", "lastLogin"] as const;

export interface BillingFlags extends MarketingFlags {
  trialing?: boolean | null;
}

/**
 * The lifecycle events one billing change means, from the user's flags before and after it: a trial
 * began, a paid subscription began (a trial converting counts), a cancellation was set, a charge was
 * declined; and whether the marketing status changed (then the profile is updated).
 */
export function billingLifecycle(before: BillingFlags, after: BillingFlags): { events: LifecycleEvent[]; status: MarketingStatus; statusChanged: boolean } {
  const events: LifecycleEvent[] = [];
  const on = (f: BillingFlags) => f.userSubscribed === "yes";
  if (after.trialing && !before.trialing) events.push(LIFECYCLE_EVENTS.trialStarted);
  if (on(after) && !after.trialing && (!on(before) || before.trialing)) events.push(LIFECYCLE_EVENTS.subscriptionStarted);
  if (after.subscriptionCancelled && !before.subscriptionCancelled) events.push(LIFECYCLE_EVENTS.subscriptionCancelled);
  if (after.chargeDeclined && !before.chargeDeclined) events.push(LIFECYCLE_EVENTS.paymentDeclined);
  const status = marketingStatus(after);
  return { events, status, statusChanged: status !== marketingStatus(before) };
}

/** The Klaviyo metric an in-app alert is sent as, so a Klaviyo flow can e-mail it. */
export function alertMetricName(kind: string): string {
  const known: Record<string, string> = {
    "competitor.launch": "Competitor Launch Alert",
    "competitor.price-drop": "Competitor Price Drop Alert",
  };
  if (known[kind]) return known[kind];
  const words = kind
    .split(/[.\-_\s]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1));
  return `${words.join(" ") || "App"} Alert`.slice(0, 80);
}

// ---------- the seed's calls ----------

const email = z.string({ error: "is required" }).trim().toLowerCase().email("must be an e-mail address").max(254);
/** Accepted for the seed's shape; the server uses the id Klaviyo gave it, never one from the browser. */
const klaviyoId = z.string().max(64).nullish();

export const UpdateProfileSchema = z.object({
  email,
  klaviyoId,
  countryCode: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, "must be a two-letter country code, like CA")
    .transform((v) => v.toUpperCase())
    .nullish(),
  phoneNumber: z
    .string()
    .trim()
    .regex(/^\+[1-9]\d{6,14}$/, "must be in international format, like +14165550123")
    .nullish(),
  // The server fills these from its own records; the browser's values are checked for shape only.
  properties: z
    .object({
      status: z.enum(["declined", "unactive", "active", "canceled"]).nullish(),
      courseProgress: z.number().min(0).max(100).nullish(),
      discordMember: z.boolean().nullish(),
      userId: z.string().max(64).nullish(),
      lastLogin: z.union([z.string().max(40), z.number()]).nullish(),
    })
    .strict()
    .optional(),
});
export type UpdateProfileInput = z.infer<typeof UpdateProfileSchema>;

const RESERVED_EVENT_NAMES = new Set<string>(Object.values(LIFECYCLE_EVENTS).map((n) => n.toLowerCase()));

export const MarketingEventSchema = z.object({
  email,
  event_name: z
    .string({ error: "is required" })
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9 _.:'-]{0,79}$/, "must be 1-80 letters, digits, spaces or _.:'-")
    .refine((n) => !RESERVED_EVENT_NAMES.has(n.toLowerCase()) && !/ alert$/i.test(n), {
      message: "is sent by the server itself and cannot be sent from the browser",
    }),
});
export type MarketingEventInput = z.infer<typeof MarketingEventSchema>;

export const AttributeUpdateSchema = z.object({
  email,
  klaviyoId,
  attribute: z
    .string({ error: "is required" })
    .trim()
    .regex(/^[A-Za-z][A-Za-z0-9_ ]{0,63}$/, "must be 1-64 letters, digits, spaces or _, starting with a letter")
    .refine((a) => !(SERVER_PROFILE_PROPERTIES as readonly string[]).includes(a), {
      message: "is kept in sync by the server and cannot be set from the browser",
    }),
  value: z.union([z.string().max(500), z.number().finite(), z.boolean(), z.null()], {
    error: "must be text (up to 500 characters), a number, true/false or null",
  }),
});
export type AttributeUpdateInput = z.infer<typeof AttributeUpdateSchema>;

const pageUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((u) => u === "" || URL.canParse(u), { message: "must be an absolute URL" })
  .optional();

export const HyrosLeadSchema = z.object({ email, currentUrl: pageUrl, referer: pageUrl });
export type HyrosLeadInput = z.infer<typeof HyrosLeadSchema>;

/** AnyTrack's standard server-side events (its "Standard Events" list); anything else is refused. */
export const ANYTRACK_EVENTS = ["Lead", "CompleteRegistration", "Purchase", "AddToCart", "InitiateCheckout", "AddPaymentInfo"] as const;

export const AnyTrackSchema = z.object({
  event: z.enum(ANYTRACK_EVENTS, { error: `must be one of ${ANYTRACK_EVENTS.join(", ")}` }),
  id: z
    .string({ error: "is required" })
    .trim()
    .regex(/^[A-Za-z0-9_.-]{4,128}$/, "must be AnyTrack's click id: 4-128 letters, digits or _.-"),
});
export type AnyTrackInput = z.infer<typeof AnyTrackSchema>;

/** Rows one user may cause through the browser's calls per minute; more answer 429. */
export const CLIENT_ROWS_PER_MINUTE = 30;
