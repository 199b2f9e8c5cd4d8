// Page views and page leaves from both surfaces (seed §2), with person properties only for a
// signed-in user (identify), never for an anonymous visitor.
import { analyticsPersonProperties, PageEventSchema, type PageEvent } from "~/domain/analytics-properties";
import type { Analytics } from "~/integrations/analytics.server";
import type { User } from "~/services/auth.server";

export { PageEventSchema, type PageEvent };

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
