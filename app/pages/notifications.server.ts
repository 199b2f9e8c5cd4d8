// The notifications bell of both shells (the site's dashboard layout and the embedded app's layout): the
// user's newest notifications and the unread count, read by each shell's loader. Marking them read goes
// through the JSON route POST /api/notifications/read, which both surfaces can call (cookie or session token).
import { notifications } from "~/services/index.server";

/** How many notifications the bell's list shows. */
export const BELL_SIZE = 20;

export async function loadNotificationsBell(userId: string) {
  return notifications.list(userId, { limit: BELL_SIZE });
}

export type NotificationsBellData = Awaited<ReturnType<typeof loadNotificationsBell>>;
