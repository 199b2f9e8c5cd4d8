// The in-app notification list, shared by every alert kind (competitor launches and price drops today; later
// alerts add a kind). A notification is written once per (user, dedupeKey): an alert written again, e.g. by a
// retried job, appears once. Reads and writes are scoped to the user.
import type { Prisma } from "@prisma/client";
import { dateFromDb, dateOrNull, isUniqueViolation, readerFor, retryBusy, textOrNull, type Db } from "~/db.server";
import { AppError } from "~/domain/errors";
import { outboxRows, outboxWritten, writeOutbox } from "~/services/outbox.server";

export const NOTIFICATION_PAGE_SIZE = 50;

export interface NotificationInput {
  userId: string;
  /** "competitor.launch", "competitor.price-drop", ... */
  kind: string;
  title: string;
  body: string;
  /** A path of the site the notification opens. */
  url: string | null;
  /** The same key twice for one user writes one notification. */
  dedupeKey: string;
}

export interface NotificationView {
  id: number;
  kind: string;
  title: string;
  body: string;
  url: string | null;
  createdAt: string;
  readAt: string | null;
}

export interface NotificationList {
  items: NotificationView[];
  /** Unread notifications in all (not only on this page). */
  unread: number;
}

const notificationSelect = {
  id: true,
  kind: true,
  title: true,
  body: true,
  url: true,
  createdAt: true,
  readAt: true,
} as const;
type NotificationRow = Prisma.NotificationGetPayload<{ select: typeof notificationSelect }>;

const view = (n: NotificationRow): NotificationView => ({
  ...n,
  createdAt: n.createdAt.toISOString(),
  readAt: n.readAt?.toISOString() ?? null,
});

// The bell of every dashboard page reads these (app/pages/notifications/notifications.server.ts): two prepared statements on
// the SqlReader instead of two Prisma queries (docs/decisions/017, 039), with Prisma as the fallback.
const LIST_SQL =
  'SELECT "id", "kind", "title", "body", "url", "createdAt", "readAt" FROM "Notification" WHERE "userId" = ? ' +
  'ORDER BY "createdAt" DESC, "id" DESC LIMIT ?';
const UNREAD_SQL = 'SELECT COUNT(*) FROM "Notification" WHERE "userId" = ? AND "readAt" IS NULL';

const viewFromRow = ([id, kind, title, body, url, createdAt, readAt]: unknown[]): NotificationView => ({
  id: Number(id),
  kind: String(kind),
  title: String(title),
  body: String(body),
  url: textOrNull(url),
  createdAt: dateFromDb(createdAt).toISOString(),
  readAt: dateOrNull(readAt)?.toISOString() ?? null,
});

export interface NotificationsDeps {
  db: Db;
  now?: () => Date;
  /** The site's public URL: alerts sent to Klaviyo (docs/decisions/032) carry absolute links. */
  appUrl?: string | null;
}

export type Notifications = ReturnType<typeof createNotifications>;

export function createNotifications({ db, now = () => new Date(), appUrl = null }: NotificationsDeps) {
  const unreadCount = (userId: string) => db.notification.count({ where: { userId, readAt: null } });

  return {
    /** The newest notifications first, and how many are unread. */
    async list(userId: string, options: { limit?: number } = {}): Promise<NotificationList> {
      const take = Math.min(Math.max(options.limit ?? NOTIFICATION_PAGE_SIZE, 1), 200);
      const reader = readerFor(db);
      if (reader) {
        const [rows, [[unread]]] = await Promise.all([
          reader.rows(LIST_SQL, [userId, take]),
          reader.rows(UNREAD_SQL, [userId]),
        ]);
        return { items: rows.map(viewFromRow), unread: Number(unread) };
      }
      const [rows, unread] = await Promise.all([
        db.notification.findMany({
          where: { userId },
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          take,
          select: notificationSelect,
        }),
        unreadCount(userId),
      ]);
      return { items: rows.map(view), unread };
    },

    /** Marks the given notifications of the user read (all of them when `ids` is omitted); others' ids change nothing. */
    async markRead(userId: string, ids?: readonly number[]): Promise<{ marked: number; unread: number }> {
      const where: Prisma.NotificationWhereInput = { userId, readAt: null, ...(ids ? { id: { in: [...ids] } } : {}) };
      const { count } = await retryBusy(() => db.notification.updateMany({ where, data: { readAt: now() } }));
      return { marked: count, unread: await unreadCount(userId) };
    },

    /**
     * Opening a notification: marks it read (if it was not) and answers the site path it is about, or null
     * when it has none. Another user's notification, or one that does not exist: AppError 404.
     */
    async open(userId: string, id: number): Promise<{ url: string | null }> {
      const row = await db.notification.findFirst({ where: { id, userId }, select: { id: true, url: true, readAt: true } });
      if (!row) throw new AppError(404, "That notification does not exist or is not yours.");
      if (!row.readAt) await retryBusy(() => db.notification.updateMany({ where: { id, userId, readAt: null }, data: { readAt: now() } }));
      return { url: row.url };
    },

    /** Writes notifications, skipping any whose (user, dedupeKey) exists; returns how many were new. */
    async notify(items: readonly NotificationInput[]): Promise<number> {
      let created = 0;
      for (const item of items) {
        try {
          // With its Klaviyo event (so a flow can e-mail it) and PostHog event, in one batch: written
          // together, and a duplicate writes neither.
          await retryBusy(() =>
            db.$transaction([
              db.notification.create({
                data: {
                  userId: item.userId,
                  kind: item.kind,
                  title: item.title.slice(0, 300),
                  body: item.body.slice(0, 2000),
                  url: item.url,
                  dedupeKey: item.dedupeKey.slice(0, 300),
                  createdAt: now(),
                },
                select: { id: true },
              }),
              writeOutbox(db, outboxRows.alert(item, appUrl), now()),
            ]),
          );
          created++;
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
        }
      }
      if (created > 0) outboxWritten();
      return created;
    },
  };
}
