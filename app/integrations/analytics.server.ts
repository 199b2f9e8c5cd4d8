// Product analytics (PostHog's capture API when POSTHOG_KEY is set). With no key, every event is
// recorded in the outbox table and logged, never sent, so development and tests see exactly what
// would have gone out.
import type { Db } from "~/db.server";
import type { Env } from "~/env.server";
import { childLogger } from "~/logger.server";

export interface AnalyticsEvent {
  event: string;
  distinctId: string;
  properties?: Record<string, unknown>;
  /** Person properties; only set for signed-in users (identify). */
  personProperties?: Record<string, unknown>;
  userId?: string | null;
}

export interface Analytics {
  capture(event: AnalyticsEvent): Promise<void>;
}

const log = childLogger("analytics");

export function createAnalytics(deps: { db: Db; env: Env; fetch?: typeof fetch }): Analytics {
  const { db, env } = deps;
  const doFetch = deps.fetch ?? fetch;
  return {
    async capture(e) {
      const payload = {
        event: e.event,
        distinct_id: e.distinctId,
        properties: { ...e.properties, ...(e.personProperties ? { $set: e.personProperties } : {}) },
        timestamp: new Date().toISOString(),
      };
      if (!env.POSTHOG_KEY) {
        await db.outboxEvent.create({
          data: { service: "analytics", name: e.event, userId: e.userId ?? null, payload: JSON.stringify(payload) },
          select: { id: true },
        });
        log.debug({ event: e.event, distinctId: e.distinctId }, "analytics event recorded (no POSTHOG_KEY)");
        return;
      }
      try {
        const res = await doFetch(new URL("/capture/", env.POSTHOG_HOST), {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ api_key: env.POSTHOG_KEY, ...payload }),
          signal: AbortSignal.timeout(5000),
        });
        if (!res.ok) log.warn({ status: res.status, event: e.event }, "analytics capture failed");
      } catch (error) {
        // Seed §8: analytics failures are only logged.
        log.warn({ err: error, event: e.event }, "analytics capture failed");
      }
    },
  };
}
