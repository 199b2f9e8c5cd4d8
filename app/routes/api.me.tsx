import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/pages/http/site-session.server";
import { users } from "~/services/index.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  return Response.json(await users.describeMe(user), { headers: { "Cache-Control": "private, no-store" } });
}
