// POST /dashboard/account/data: the signed-in user's data as a JSON download, after they confirm with
// their password (app/pages/accounts/account.server.ts). A GET goes back to the account page.
import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { downloadAccountData } from "~/pages/accounts/account.server";
import { requireUser } from "~/pages/http/site-session.server";

export async function action({ request }: ActionFunctionArgs) {
  return downloadAccountData(request, await requireUser(request));
}

export function loader() {
  return redirect("/dashboard/account");
}
