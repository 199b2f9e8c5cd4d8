// GET /app/notifications/{id}: the bell's link for one notification inside Shopify admin. Marks it read
// and redirects to the embedded page it is about, keeping the admin's query (app/pages/notifications/notifications.server.ts).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireEmbeddedUser } from "~/pages/http/embedded-session.server";
import { handleServiceErrors } from "~/pages/http/http.server";
import { openNotification } from "~/pages/notifications/notifications.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user } = await requireEmbeddedUser(request);
  return handleServiceErrors(() => openNotification(request, user.id, params.id, "embedded"));
}

/** Never shown: the loader always redirects (or answers 404 through the error boundary). */
export default function OpenEmbeddedNotification() {
  return null;
}
