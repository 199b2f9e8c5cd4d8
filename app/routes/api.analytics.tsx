import type { ActionFunctionArgs } from "@remix-run/node";
import { clientIp, handleServiceErrors, readJsonOrNull } from "~/pages/http/http.server";
import { getUser } from "~/pages/http/site-session.server";
import { PageEventSchema } from "~/domain/marketing/analytics-properties";
import { inboundLimits, pageEvents } from "~/services/index.server";

export async function action({ request }: ActionFunctionArgs) {
  // Anyone may send page events, signed in or not: per client address they are limited (429, decision 064).
  await handleServiceErrors(() => inboundLimits.publicCall(clientIp(request)));
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
