// Calls Remix route handlers the way the server does, with real Requests, and turns thrown Responses
// (redirects, 401s) into returned ones so tests can assert on them.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { TEST_APP_URL } from "./test-env";

type Handler = (args: LoaderFunctionArgs | ActionFunctionArgs) => unknown;

export interface CallOptions {
  method?: string;
  form?: Record<string, string>;
  json?: unknown;
  body?: string;
  cookie?: string | null;
  headers?: Record<string, string>;
  params?: Record<string, string>;
}

export function makeRequest(pathAndQuery: string, options: CallOptions = {}): Request {
  const headers = new Headers(options.headers);
  headers.set("user-agent", headers.get("user-agent") ?? "Mozilla/5.0 (X11; Linux x86_64) Chrome/120 Safari/537.36");
  if (options.cookie) headers.set("cookie", options.cookie);
  let body: BodyInit | undefined;
  if (options.form) {
    body = new URLSearchParams(options.form);
    headers.set("content-type", "application/x-www-form-urlencoded");
  } else if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers.set("content-type", "application/json");
  } else if (options.body !== undefined) {
    body = options.body;
  }
  const method = options.method ?? (body ? "POST" : "GET");
  return new Request(new URL(pathAndQuery, TEST_APP_URL), { method, headers, body });
}

/** The result as a Response: returned Responses as they are, thrown ones caught, plain data as JSON. */
export async function call(handler: Handler, pathAndQuery: string, options: CallOptions = {}): Promise<Response> {
  const request = makeRequest(pathAndQuery, options);
  try {
    const result = await handler({ request, params: options.params ?? {}, context: {} });
    return toResponse(result);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

function toResponse(result: unknown): Response {
  if (result instanceof Response) return result;
  // Remix's data() helper (single fetch) returns { type: "DataWithResponseInit", data, init }.
  if (result && typeof result === "object" && (result as { type?: string }).type === "DataWithResponseInit") {
    const { data, init } = result as { data: unknown; init?: ResponseInit | null };
    return Response.json(data, init ?? undefined);
  }
  return Response.json(result ?? null);
}

/** "name=value" of a Set-Cookie header, ready to send back as a Cookie header. */
export function cookieFrom(response: Response): string {
  const setCookie = response.headers.get("set-cookie");
  if (!setCookie) throw new Error("response set no cookie");
  return setCookie.split(";")[0];
}

export function uniqueEmail(prefix = "user"): string {
  return `${prefix}-${Math.random().toString(36).slice(2, 10)}@example.com`;
}
