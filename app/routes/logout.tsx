import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { logout } from "~/pages/http/site-session.server";

export async function action({ request }: ActionFunctionArgs) {
  const cookie = await logout(request);
  return redirect("/", { headers: { "Set-Cookie": cookie } });
}

// A GET must not sign anyone out (links can be prefetched); send it home instead.
export function loader() {
  return redirect("/");
}
