// GET /dashboard/notifications/{id}: the bell's link for one notification on the site. Marks it read and
// redirects to what it is about (app/pages/notifications/notifications.server.ts); another user's id answers 404.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { handleServiceErrors } from "~/pages/http/http.server";
import { openNotification } from "~/pages/notifications/notifications.server";
import { requireUser } from "~/pages/http/site-session.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return handleServiceErrors(() => openNotification(request, user.id, params.id, "site"));
}

/** Never shown: the loader always redirects (or answers 404 through the error boundary). */
export default function OpenNotification() {
  return null;
}
