// Product analytics (PostHog). Every event is written to the outbox (docs/decisions/032) in PostHog's
// capture shape and delivered by the outbox's job with posthog-node when POSTHOG_KEY is set; with no key
// it stays in the table and is logged, never sent, so development and tests see exactly what would go out.
// Page views and page leaves from both surfaces (seed §2) are recorded with person properties only for a
// signed-in user (identify), never for an anonymous visitor.
import { randomUUID } from "node:crypto";
import type { Db } from "~/db.server";
import { analyticsPersonProperties, PageEventSchema, type PageEvent } from "~/domain/marketing/analytics-properties";
import type { Env } from "~/env.server";
import { childLogger } from "~/logger.server";
import type { User } from "~/services/accounts/auth.server";

export { PageEventSchema, type PageEvent };

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

export function createAnalytics(deps: { db: Db; env: Pick<Env, "POSTHOG_KEY">; onRecorded?: () => void }): Analytics {
  const { db, env } = deps;
  return {
    async capture(e) {
      const payload = {
        event: e.event,
        distinct_id: e.distinctId,
        properties: { ...e.properties, ...(e.personProperties ? { $set: e.personProperties } : {}) },
        timestamp: new Date().toISOString(),
      };
      try {
        await db.outboxEvent.create({
          data: {
            service: "analytics",
            operation: "capture",
            name: e.event,
            userId: e.userId ?? null,
            payload: JSON.stringify(payload),
            dedupeKey: randomUUID(),
          },
          select: { id: true },
        });
      } catch (error) {
        // Seed §8: analytics failures are only logged.
        log.warn({ err: error, event: e.event }, "analytics event not recorded");
        return;
      }
      if (!env.POSTHOG_KEY) log.debug({ event: e.event, distinctId: e.distinctId }, "analytics event kept, not sent (no POSTHOG_KEY)");
      deps.onRecorded?.();
    },
  };
}

export async function recordPageEvent(analytics: Analytics, event: PageEvent, user: User | null): Promise<void> {
  await analytics.capture({
    event: event.event,
    distinctId: user?.id ?? event.anonymousId,
    userId: user?.id ?? null,
    properties: {
      $current_url: event.path,
      $referrer: event.referrer,
      ...(user ? { $anon_distinct_id: event.anonymousId } : {}),
    },
    personProperties: user ? { email: user.email, ...analyticsPersonProperties(user) } : undefined,
  });
}
