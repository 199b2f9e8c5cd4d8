// The notifications bell of both shells (the site's dashboard layout and the embedded app's layout): the
// user's newest notifications and the unread count, read by each shell's loader. Marking them read goes
// through the JSON route POST /api/notifications/read, which both surfaces can call (cookie or session token).
// Each notification is a link to /dashboard/notifications/{id} (site) or /app/notifications/{id} (embedded):
// opening it marks it read and sends the user to what it is about, on the surface it was opened from.
import { redirect } from "@remix-run/node";
import { embeddedTwin, type Surface } from "~/domain/shopify/embedded-paths";
import { AppError } from "~/domain/errors";
import { notifications } from "~/services/index.server";

/** A stored site path on `surface`, or the surface's home when it is not a path of ours (or has no twin). */
function targetOn(surface: Surface, url: string | null): string {
  const home = surface === "site" ? "/dashboard?location=dashboard" : "/app";
  if (!url || !url.startsWith("/") || url.startsWith("//") || url.startsWith("/\\")) return home;
  if (surface === "site") return url;
  return embeddedTwin(url) ?? home;
}

/**
 * GET /dashboard/notifications/{id} and /app/notifications/{id}: marks the notification read and redirects
 * to what it is about. Inside Shopify admin the redirect keeps the admin's query (shop, host, embedded), so
 * the embedded page authenticates as every other one does. Not the user's, or not a number: 404.
 */
export async function openNotification(request: Request, userId: string, idParam: string | undefined, surface: Surface) {
  const id = Number(idParam);
  if (!Number.isSafeInteger(id) || id <= 0) throw new AppError(404, "That notification does not exist or is not yours.");
  const { url } = await notifications.open(userId, id);
  const target = targetOn(surface, url);
  if (surface === "site") return redirect(target);
  const to = new URL(target, "https://app.invalid");
  const params = new URLSearchParams(new URL(request.url).search);
  for (const internal of ["_data", "_routes", "index"]) params.delete(internal);
  for (const [k, v] of to.searchParams) params.set(k, v);
  const query = params.toString();
  return redirect(`${to.pathname}${query ? `?${query}` : ""}${to.hash}`);
}

/** How many notifications the bell's list shows. */
export const BELL_SIZE = 20;

export async function loadNotificationsBell(userId: string) {
  return notifications.list(userId, { limit: BELL_SIZE });
}

export type NotificationsBellData = Awaited<ReturnType<typeof loadNotificationsBell>>;
