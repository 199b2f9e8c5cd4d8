import type { LoaderFunctionArgs } from "@remix-run/node";
import { auth, users } from "~/services/index.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await auth.requireApiUser(request);
  return Response.json(await users.describeMe(user), { headers: { "Cache-Control": "private, no-store" } });
}
