// The seed's marketing calls (Klaviyo profile, event and attribute; a Hyros lead; an AnyTrack
// conversion), made by the browser for the signed-in user (docs/decisions/032). Each is checked (the
// e-mail must be the user's own: nobody can push someone else's address into our marketing), capped per
// user, and written to the outbox; delivery, retries and failures are the outbox's, never the caller's.
// Profile facts the server owns (status, course progress, Discord, user id, last log-in) are filled
// from its own records when the profile is sent, whatever the browser said.
import type { Db } from "~/db.server";
import { AppError } from "~/domain/errors";
import {
  CLIENT_ROWS_PER_MINUTE,
  type AnyTrackInput,
  type AttributeUpdateInput,
  type HyrosLeadInput,
  type MarketingEventInput,
  type UpdateProfileInput,
} from "~/domain/marketing/outbox";
import type { Outbox, OutboxRowInput } from "~/services/outbox.server";

export interface MarketingDeps {
  db: Db;
  outbox: Pick<Outbox, "record">;
  now?: () => Date;
}

export interface MarketingUser {
  id: string;
  email: string;
}

export type Marketing = ReturnType<typeof createMarketing>;

export function createMarketing({ db, outbox, now = () => new Date() }: MarketingDeps) {
  function requireOwnEmail(user: MarketingUser, email: string) {
    if (email.trim().toLowerCase() !== user.email.trim().toLowerCase()) {
      throw new AppError(403, "That e-mail is not the signed-in user's: only your own address can be sent.");
    }
  }

  /** At most CLIENT_ROWS_PER_MINUTE rows a minute per user from the browser's calls. */
  async function requireUnderCap(userId: string) {
    const recent = await db.outboxEvent.count({ where: { userId, createdAt: { gte: new Date(now().getTime() - 60_000) } } });
    if (recent >= CLIENT_ROWS_PER_MINUTE) {
      throw new AppError(429, "Too many marketing updates in a minute. Try again in a minute.", { retryAfterSeconds: 60 });
    }
  }

  async function queue(user: MarketingUser, email: string, rows: OutboxRowInput[]) {
    requireOwnEmail(user, email);
    await requireUnderCap(user.id);
    await outbox.record(rows);
    return { queued: rows.length };
  }

  return {
    /** POST /api/klaviyo/updateProfile: the profile is synced; phone and country are the browser's to give. */
    updateProfile(user: MarketingUser, input: UpdateProfileInput) {
      return queue(user, input.email, [
        {
          service: "klaviyo",
          operation: "profile",
          name: "updateProfile",
          userId: user.id,
          payload: {
            ...(input.phoneNumber ? { phoneNumber: input.phoneNumber } : {}),
            ...(input.countryCode ? { country: input.countryCode } : {}),
          },
        },
      ]);
    },

    /** POST /api/klaviyo/marketingEvent: one Klaviyo event (metric) on the user's profile. */
    marketingEvent(user: MarketingUser, input: MarketingEventInput) {
      return queue(user, input.email, [
        {
          service: "klaviyo",
          operation: "event",
          name: input.event_name,
          userId: user.id,
          payload: { metric: input.event_name, properties: { source: "site" }, time: now().toISOString() },
        },
      ]);
    },

    /** POST /api/klaviyo/attributeUpdate: one custom property on the profile. */
    attributeUpdate(user: MarketingUser, input: AttributeUpdateInput) {
      return queue(user, input.email, [
        {
          service: "klaviyo",
          operation: "profile",
          name: `attribute ${input.attribute}`,
          userId: user.id,
          payload: { properties: { [input.attribute]: input.value } },
        },
      ]);
    },

    /**
     * GET /api/hyros-lead: the signed-in user as a Hyros lead (their own e-mail only). The referring
     * site becomes a Hyros source tag ("@host"); Hyros upserts leads by e-mail, so repeats change nothing.
     */
    hyrosLead(user: MarketingUser, input: HyrosLeadInput) {
      const refererHost = input.referer ? new URL(input.referer).hostname : null;
      return queue(user, input.email, [
        {
          service: "hyros",
          operation: "lead",
          name: "lead",
          userId: user.id,
          payload: {
            email: user.email,
            ...(refererHost ? { tags: [`@${refererHost}`] } : {}),
            page: input.currentUrl || null,
            referer: input.referer || null,
          },
          dedupeKey: `hyros-lead:${user.id}`,
        },
      ]);
    },

    /**
     * GET /api/anytrack: a conversion for AnyTrack's click id. One per (user, event, click): the key is
     * AnyTrack's transaction_id, so a repeat is discarded there, and not even queued here.
     */
    async anyTrack(user: MarketingUser, input: AnyTrackInput) {
      const dedupeKey = `anytrack:${user.id}:${input.event}:${input.id}`;
      const seen = await db.outboxEvent.findFirst({ where: { service: "anytrack", dedupeKey }, select: { id: true } });
      if (seen) return { queued: 0 };
      return queue(user, user.email, [
        {
          service: "anytrack",
          operation: "conversion",
          name: input.event,
          userId: user.id,
          payload: { click_id: input.id, event_name: input.event },
          dedupeKey,
        },
      ]);
    },
  };
}
