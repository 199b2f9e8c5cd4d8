import type { ActionFunctionArgs } from "@remix-run/node";
import { readJsonOrNull } from "~/pages/http.server";
import { getUser } from "~/pages/site-session.server";
import { PageEventSchema } from "~/domain/analytics-properties";
import { pageEvents } from "~/services/index.server";

export async function action({ request }: ActionFunctionArgs) {
  const body = await readJsonOrNull(request);
  const parsed = PageEventSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return Response.json({ error: `${issue?.path.join(".") || "body"}: ${issue?.message}` }, { status: 400 });
  }
  const user = await getUser(request);
  await pageEvents.record(parsed.data, user);
  return new Response(null, { status: 204 });
}
