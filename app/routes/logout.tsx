import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { auth } from "~/services/index.server";

export async function action({ request }: ActionFunctionArgs) {
  const cookie = await auth.logout(request);
  return redirect("/", { headers: { "Set-Cookie": cookie } });
}

// A GET must not sign anyone out (links can be prefetched); send it home instead.
export function loader() {
  return redirect("/");
}
