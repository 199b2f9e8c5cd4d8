// Building the outbox's calls (docs/decisions/032): a claimed batch of one service's rows becomes the
// requests to send (units), each with its rate key. Klaviyo profiles are built now from the user's
// current records (several syncs of one profile in a batch are one request), PostHog's rows are one
// batch, Hyros and AnyTrack one request a row. Rows whose user is gone are orphans; rows no service can
// send are broken (parked by the deliverer).
import { randomUUID } from "node:crypto";
import { retryBusy } from "~/db.server";
import { marketingStatus } from "~/domain/marketing/marketing-status";
import type { ClaimedRow, OutboxRuntime, Unit } from "~/services/outbox/runtime.server";

async function usersOf(rt: Pick<OutboxRuntime, "db">, rows: ClaimedRow[]) {
  const ids = [...new Set(rows.map((r) => r.userId).filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const [users, courses, discords] = await Promise.all([
    rt.db.user.findMany({
      where: { id: { in: ids } },
      select: {
        id: true,
        email: true,
        klaviyoId: true,
        lastLoginAt: true,
        chargeDeclined: true,
        userSubscribed: true,
        subscriptionCancelled: true,
      },
    }),
    rt.db.userCourse.findMany({ where: { userId: { in: ids } }, select: { userId: true, progressPercentage: true } }),
    rt.db.discordProfile.findMany({ where: { userId: { in: ids } }, select: { userId: true, joined: true, discordId: true } }),
  ]);
  return new Map(
    users.map((u) => {
      const course = courses.find((c) => c.userId === u.id);
      const discord = discords.find((d) => d.userId === u.id);
      return [
        u.id,
        {
          ...u,
          properties: {
            status: marketingStatus(u),
            courseProgress: Math.round(course?.progressPercentage ?? 0),
            discordMember: Boolean(discord?.joined || discord?.discordId),
            userId: u.id,
            lastLogin: u.lastLoginAt?.toISOString() ?? null,
          },
        },
      ] as const;
    }),
  );
}

export async function klaviyoUnits(rt: OutboxRuntime, rows: ClaimedRow[]): Promise<{ units: Unit[]; orphans: ClaimedRow[]; broken: ClaimedRow[] }> {
  const klaviyo = rt.senders.klaviyo!;
  const users = await usersOf(rt, rows);
  const units: Unit[] = [];
  const orphans: ClaimedRow[] = [];
  const broken: ClaimedRow[] = [];
  const profileGroups = new Map<string, ClaimedRow[]>();
  for (const row of rows) {
    if (row.operation === "profile-deletion") {
      const email = typeof row.payload.email === "string" ? row.payload.email : row.email;
      if (!email) {
        broken.push(row);
        continue;
      }
      const id = typeof row.payload.klaviyoId === "string" ? row.payload.klaviyoId : null;
      units.push({ rows: [row], rateKey: "klaviyo:profile-deletion", send: () => klaviyo.requestDeletion({ email, id }) });
      continue;
    }
    const user = row.userId ? users.get(row.userId) : undefined;
    if (!user) {
      orphans.push(row);
      continue;
    }
    if (row.operation === "profile") {
      // Several syncs of one profile in a batch are one request: it is built from current records anyway.
      const group = profileGroups.get(user.id) ?? [];
      group.push(row);
      profileGroups.set(user.id, group);
    } else if (row.operation === "event") {
      const p = row.payload as { metric?: string; properties?: Record<string, unknown>; time?: string };
      if (!p.metric) {
        broken.push(row);
        continue;
      }
      units.push({
        rows: [row],
        rateKey: "klaviyo:event",
        send: () =>
          klaviyo.createEvent({
            metric: p.metric!,
            profile: { email: user.email, externalId: user.id },
            properties: p.properties ?? {},
            time: new Date(p.time ?? rt.now().toISOString()),
            uniqueId: row.dedupeKey,
          }),
      });
    } else {
      broken.push(row);
    }
  }
  for (const [userId, group] of profileGroups) {
    const user = users.get(userId)!;
    const merged = Object.assign({}, ...group.map((r) => r.payload)) as {
      phoneNumber?: string;
      country?: string;
      properties?: Record<string, unknown>;
    };
    const customProperties = Object.assign({}, ...group.map((r) => (r.payload as { properties?: object }).properties ?? {}));
    units.push({
      rows: group,
      rateKey: "klaviyo:profile",
      send: () =>
        klaviyo.upsertProfile({
          id: user.klaviyoId,
          email: user.email,
          externalId: user.id,
          phoneNumber: merged.phoneNumber ?? null,
          country: merged.country ?? null,
          properties: { ...customProperties, ...user.properties },
        }),
      after: async (result) => {
        if (result.profileId && result.profileId !== user.klaviyoId) {
          await retryBusy(() => rt.db.user.updateMany({ where: { id: userId }, data: { klaviyoId: result.profileId } }));
        }
      },
    });
  }
  return { units, orphans, broken };
}

export function simpleUnits(rt: Pick<OutboxRuntime, "senders">, service: "hyros" | "anytrack", rows: ClaimedRow[]): { units: Unit[]; broken: ClaimedRow[] } {
  const units: Unit[] = [];
  const broken: ClaimedRow[] = [];
  for (const row of rows) {
    const p = row.payload;
    if (service === "hyros" && typeof p.email === "string") {
      const tags = Array.isArray(p.tags) ? p.tags.map(String) : undefined;
      units.push({ rows: [row], rateKey: "hyros:lead", send: () => rt.senders.hyros!.createLead({ email: p.email as string, ...(tags ? { tags } : {}) }) });
    } else if (service === "anytrack" && typeof p.click_id === "string" && typeof p.event_name === "string") {
      units.push({
        rows: [row],
        rateKey: "anytrack:conversion",
        send: () => rt.senders.anytrack!.sendConversion({ click_id: p.click_id as string, event_name: p.event_name as string, transaction_id: row.dedupeKey }),
      });
    } else {
      broken.push(row);
    }
  }
  return { units, broken };
}

export function analyticsUnit(rt: Pick<OutboxRuntime, "senders" | "now">, rows: ClaimedRow[]): Unit {
  return {
    rows,
    rateKey: "analytics:capture",
    send: () =>
      rt.senders.analytics!.send(
        rows.map((r) => {
          const p = r.payload as { event?: string; distinct_id?: string; properties?: Record<string, unknown>; timestamp?: string };
          return {
            event: p.event ?? r.name,
            distinct_id: p.distinct_id ?? r.userId ?? "anonymous",
            properties: p.properties ?? {},
            timestamp: p.timestamp ?? rt.now().toISOString(),
            uuid: /^[0-9a-f-]{36}$/i.test(r.dedupeKey) ? r.dedupeKey : randomUUID(),
          };
        }),
      ),
  };
}
