// Paddle notifications. The signature is checked on the raw body, so the body is read as text; a refused
// notification is an AppError answered by the one mapper (401 signature, 400 unreadable).
import type { ActionFunctionArgs } from "@remix-run/node";
import { billing } from "~/services/index.server";
import { handleServiceErrors, methodNotAllowed } from "~/pages/http/http.server";

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const raw = await request.text();
  return Response.json(await handleServiceErrors(() => billing.handleWebhook(raw, request.headers.get("paddle-signature"))));
}

export function loader() {
  return methodNotAllowed("POST");
}
