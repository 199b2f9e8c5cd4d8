// Adapters to the marketing and tracking services the outbox delivers to (docs/decisions/032). Each call
// makes exactly one HTTP request and reports the answer (status, Retry-After, a short detail); retrying,
// backing off and rate limiting are the outbox's job, so the SDKs' own retries are switched off.
// - Klaviyo through its SDK (klaviyo-api): profile import (create or update), Create Event, and the
//   data-privacy deletion job. The SDK's API classes take a base path, so KLAVIYO_BASE_URL points it at
//   a local server in tests. The SDK (38 MB of generated client, about a second to load) is loaded on the first
//   Klaviyo call, so a process without KLAVIYO_API_KEY (every CLI, most servers and tests) never loads it.
// - PostHog through its SDK (posthog-node): a client per batch, flushed once to /batch/.
// - Hyros (POST {base}/v1/api/v1.0/leads, header API-Key) and AnyTrack (POST {base}/{account}/collect/
//   {integration}) have no Node SDK: their documented HTTP shapes through fetch.
import type { DataPrivacyApi, EventsApi, ProfilesApi } from "klaviyo-api";
import { PostHog } from "posthog-node";

/** One HTTP answer: status null when none came (network error, timeout). */
export interface SendResult {
  status: number | null;
  retryAfter?: string | null;
  /** A short description of a failure, for the row's error. */
  detail?: string;
}

const REQUEST_TIMEOUT_MS = 10_000;

function errorDetail(error: unknown): string {
  const e = error as { message?: string; code?: string };
  return `${e.code ? `${e.code} ` : ""}${e.message ?? String(error)}`.slice(0, 300);
}

// ---------- Klaviyo ----------

export interface KlaviyoProfile {
  /** Klaviyo's profile id when we hold one (then the profile is updated in place). */
  id?: string | null;
  email: string;
  externalId: string;
  phoneNumber?: string | null;
  country?: string | null;
  properties: Record<string, unknown>;
}

export interface KlaviyoEvent {
  metric: string;
  profile: { email: string; externalId?: string | null };
  properties: Record<string, unknown>;
  time: Date;
  /** Klaviyo drops a second event with the same unique_id: an at-least-once redelivery counts once. */
  uniqueId: string;
}

export interface Klaviyo {
  upsertProfile(profile: KlaviyoProfile): Promise<SendResult & { profileId?: string }>;
  createEvent(event: KlaviyoEvent): Promise<SendResult>;
  /** Klaviyo's data-privacy deletion job: the profile and its data are deleted. */
  requestDeletion(person: { email: string; id?: string | null }): Promise<SendResult>;
}

interface KlaviyoApis {
  profiles: ProfilesApi;
  events: EventsApi;
  privacy: DataPrivacyApi;
}

let klaviyoSdk: Promise<typeof import("klaviyo-api")> | null = null;

/** The SDK's API classes for one key and base path, the SDK loaded first (once per process). */
async function klaviyoApis(config: { apiKey: string; baseUrl: string }): Promise<KlaviyoApis> {
  const { ApiKeySession, DataPrivacyApi, EventsApi, ProfilesApi, RetryWithExponentialBackoff } = await (klaviyoSdk ??= import("klaviyo-api"));
  /** The SDK's API-key session with a time limit per request (the SDK sets none). */
  class TimedSession extends ApiKeySession {
    applyToRequest(options: Parameters<InstanceType<typeof ApiKeySession>["applyToRequest"]>[0]): void {
      super.applyToRequest(options);
      options.timeout = REQUEST_TIMEOUT_MS;
    }
  }
  // numRetries 0: one request per call; the outbox decides when to try again (and honours Retry-After).
  const session = new TimedSession(config.apiKey, new RetryWithExponentialBackoff({ numRetries: 0 }));
  const apis = { profiles: new ProfilesApi(session), events: new EventsApi(session), privacy: new DataPrivacyApi(session) };
  const base = config.baseUrl.replace(/\/+$/, "");
  for (const api of Object.values(apis)) api.basePath = base;
  return apis;
}

/** An SDK call as one answer: its status, or the error's response status and Retry-After. */
async function klaviyoCall<T>(call: () => Promise<{ response: { status: number }; body?: T }>): Promise<SendResult & { body?: T }> {
  try {
    const { response, body } = await call();
    return { status: response.status, body };
  } catch (error) {
    const response = (error as { response?: { status?: number; headers?: Record<string, unknown>; data?: unknown } }).response;
    if (!response?.status) return { status: null, detail: errorDetail(error) };
    const errors = (response.data as { errors?: { detail?: string; code?: string }[] } | undefined)?.errors;
    const detail = errors?.map((e) => e.detail ?? e.code).filter(Boolean).join("; ") || `HTTP ${response.status}`;
    const retryAfter = response.headers?.["retry-after"];
    return { status: response.status, retryAfter: retryAfter === undefined ? null : String(retryAfter), detail };
  }
}

export function createKlaviyo(config: { apiKey: string; baseUrl: string }): Klaviyo {
  let apis: Promise<KlaviyoApis> | null = null;
  const ready = () => (apis ??= klaviyoApis(config));

  return {
    async upsertProfile(p) {
      const { profiles } = await ready();
      const result = await klaviyoCall(() =>
        profiles.createOrUpdateProfile({
          data: {
            type: "profile",
            ...(p.id ? { id: p.id } : {}),
            attributes: {
              email: p.email,
              externalId: p.externalId,
              ...(p.phoneNumber ? { phoneNumber: p.phoneNumber } : {}),
              ...(p.country ? { location: { country: p.country } } : {}),
              properties: p.properties,
            },
          },
        }),
      );
      const profileId = (result.body as { data?: { id?: string } } | undefined)?.data?.id;
      return { status: result.status, retryAfter: result.retryAfter, detail: result.detail, profileId };
    },
    async createEvent(e) {
      const { events } = await ready();
      return klaviyoCall(() =>
        events.createEvent({
          data: {
            type: "event",
            attributes: {
              properties: e.properties,
              time: e.time,
              uniqueId: e.uniqueId,
              metric: { data: { type: "metric", attributes: { name: e.metric } } },
              profile: {
                data: {
                  type: "profile",
                  attributes: { email: e.profile.email, ...(e.profile.externalId ? { externalId: e.profile.externalId } : {}) },
                },
              },
            },
          },
        }),
      );
    },
    async requestDeletion(person) {
      const { privacy } = await ready();
      return klaviyoCall(() =>
        privacy.requestProfileDeletion({
          data: {
            type: "data-privacy-deletion-job",
            attributes: {
              profile: { data: { type: "profile", ...(person.id ? { id: person.id } : {}), attributes: { email: person.email } } },
            },
          },
        }),
      );
    },
  };
}

// ---------- PostHog ----------

export interface CaptureEvent {
  event: string;
  distinct_id: string;
  properties?: Record<string, unknown>;
  timestamp: string;
  /** PostHog keeps one event per uuid: a redelivered batch is not counted twice. */
  uuid: string;
}

export interface PostHogBatch {
  send(events: CaptureEvent[]): Promise<SendResult>;
}

export function createPostHogBatch(config: { apiKey: string; host: string }): PostHogBatch {
  return {
    async send(events) {
      // A client per batch: the SDK keeps unsent events in memory, and the outbox, not the SDK, owns them.
      const client = new PostHog(config.apiKey, {
        host: config.host,
        flushAt: events.length + 1,
        flushInterval: 0,
        maxBatchSize: Math.max(events.length, 1),
        fetchRetryCount: 0,
        requestTimeout: REQUEST_TIMEOUT_MS,
      });
      for (const e of events) {
        client.capture({
          distinctId: e.distinct_id,
          event: e.event,
          properties: e.properties ?? {},
          timestamp: new Date(e.timestamp),
          uuid: e.uuid,
          disableGeoip: false,
        });
      }
      try {
        await client.flush();
        return { status: 200 };
      } catch (error) {
        const e = error as { status?: number; response?: { status?: number; headers?: Headers } ; name?: string };
        const status = e.response?.status ?? e.status;
        if (e.name === "PostHogFetchHttpError" && status) {
          return { status, retryAfter: e.response?.headers?.get?.("retry-after") ?? null, detail: `HTTP ${status}` };
        }
        return { status: null, detail: errorDetail(error) };
      }
    },
  };
}

// ---------- Hyros and AnyTrack (no SDK: their documented HTTP shapes) ----------

async function postJson(url: string, headers: Record<string, string>, body: unknown): Promise<SendResult> {
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text().catch(() => "");
    return { status: res.status, retryAfter: res.headers.get("retry-after"), detail: res.ok ? undefined : text.slice(0, 300) || `HTTP ${res.status}` };
  } catch (error) {
    return { status: null, detail: errorDetail(error) };
  }
}

export interface HyrosLead {
  email: string;
  tags?: string[];
  leadIps?: string[];
}

export interface Hyros {
  createLead(lead: HyrosLead): Promise<SendResult>;
}

export function createHyros(config: { apiKey: string; baseUrl: string }): Hyros {
  const url = `${config.baseUrl.replace(/\/+$/, "")}/v1/api/v1.0/leads`;
  return { createLead: (lead) => postJson(url, { "API-Key": config.apiKey }, lead) };
}

export interface AnyTrackConversion {
  click_id: string;
  event_name: string;
  /** AnyTrack discards a second conversion of the same type with the same transaction_id. */
  transaction_id: string;
}

export interface AnyTrack {
  sendConversion(conversion: AnyTrackConversion): Promise<SendResult>;
}

export function createAnyTrack(config: { accountId: string; integration: string; baseUrl: string }): AnyTrack {
  const url = `${config.baseUrl.replace(/\/+$/, "")}/${encodeURIComponent(config.accountId)}/collect/${encodeURIComponent(config.integration)}`;
  return { sendConversion: (conversion) => postJson(url, {}, conversion) };
}

/** The adapters whose keys are set; a missing one means its rows are kept and logged, never sent. */
export interface MarketingSenders {
  klaviyo?: Klaviyo;
  analytics?: PostHogBatch;
  hyros?: Hyros;
  anytrack?: AnyTrack;
}

/** The adapters for the keys that are set (from app/env.server.ts's values). */
export function createMarketingSenders(env: {
  KLAVIYO_API_KEY?: string;
  KLAVIYO_BASE_URL: string;
  POSTHOG_KEY?: string;
  POSTHOG_HOST: string;
  HYROS_API_KEY?: string;
  HYROS_BASE_URL: string;
  ANYTRACK_ACCOUNT_ID?: string;
  ANYTRACK_INTEGRATION: string;
  ANYTRACK_BASE_URL: string;
}): MarketingSenders {
  return {
    klaviyo: env.KLAVIYO_API_KEY ? createKlaviyo({ apiKey: env.KLAVIYO_API_KEY, baseUrl: env.KLAVIYO_BASE_URL }) : undefined,
    analytics: env.POSTHOG_KEY ? createPostHogBatch({ apiKey: env.POSTHOG_KEY, host: env.POSTHOG_HOST }) : undefined,
    hyros: env.HYROS_API_KEY ? createHyros({ apiKey: env.HYROS_API_KEY, baseUrl: env.HYROS_BASE_URL }) : undefined,
    anytrack: env.ANYTRACK_ACCOUNT_ID
      ? createAnyTrack({ accountId: env.ANYTRACK_ACCOUNT_ID, integration: env.ANYTRACK_INTEGRATION, baseUrl: env.ANYTRACK_BASE_URL })
      : undefined,
  };
}
