// Paddle notifications. The signature is checked on the raw body, so the body is read as text.
import type { ActionFunctionArgs } from "@remix-run/node";
import { billing } from "~/services/index.server";
import { methodNotAllowed } from "~/pages/http.server";

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const raw = await request.text();
  const result = await billing.handleWebhook(raw, request.headers.get("paddle-signature"));
  return Response.json(result.body, { status: result.status });
}

export function loader() {
  return methodNotAllowed("POST");
}
