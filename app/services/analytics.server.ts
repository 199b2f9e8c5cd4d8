// Page views and page leaves from both surfaces (seed §2), with person properties only for a
// signed-in user (identify), never for an anonymous visitor.
import { z } from "zod";
import { analyticsPersonProperties } from "~/domain/analytics-properties";
import type { Analytics } from "~/integrations/analytics.server";
import type { User } from "~/services/auth.server";

export const PageEventSchema = z.object({
  event: z.enum(["$pageview", "$pageleave"]),
  path: z.string().min(1).max(2000).regex(/^\/(?![/\\])/, "must be a path on this site, like /dashboard"),
  anonymousId: z.string().regex(/^[A-Za-z0-9-]{8,64}$/, "anonymousId must be 8-64 letters, digits or dashes"),
  referrer: z.string().max(2000).optional(),
});
export type PageEvent = z.infer<typeof PageEventSchema>;

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
