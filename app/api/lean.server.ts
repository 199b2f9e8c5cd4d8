// The server's lean path for the API's busiest calls (docs/decisions/068 and 077): server/index.mjs answers
// `GET /api/v1/products` before Express and without a Fetch Request/Response, and `POST /mcp` before Express and
// Remix, through these functions, which the build exports from app/entry.server.tsx. Each runs the very code its
// route runs (handler.server.ts's answerApiCall with the same operation; mcp-server.server.ts's mcpAnswer), so
// the key check, limits, RateLimit-* headers, CORS, the query's checks, the search and the JSON are one
// implementation.
import { operation } from "~/api/v1/answers.server";
import { answerApiCall, type ApiAnswer } from "~/api/v1/handler.server";
import { mcpAnswer } from "~/api/mcp/server.server";

/** Paths answered on the lean path, and the operation each runs (its route: app/routes/api.v1.products.tsx). */
const LEAN_OPERATIONS = new Map([["/api/v1/products", operation("searchProducts")]]);

/** Whether the lean path answers this path (the server asks before it reads anything else). */
export function leanApiPath(pathname: string): boolean {
  return LEAN_OPERATIONS.has(pathname);
}

/**
 * The answer to a GET or HEAD of a lean path, as the route would give it; null for any other path.
 * @param url the absolute URL, made as the server makes it for Remix (server/remix-request.mjs)
 */
export async function leanApiAnswer(method: string, url: string, authorization: string | null): Promise<ApiAnswer | null> {
  const op = LEAN_OPERATIONS.get(new URL(url).pathname);
  if (!op) return null;
  return answerApiCall(op, { method, url, authorization }, {});
}

/** The path of the MCP server (its route: app/routes/mcp.tsx), answered on the lean path for a POST. */
export const LEAN_MCP_PATH = "/mcp";

const utf8 = new TextDecoder();

/**
 * The answer to a POST to /mcp, as the route would give it. The body is parsed here, decoded as the SDK decodes it
 * (a byte-order mark dropped, bad bytes replaced), and handed to its transport parsed, which spares the Request a
 * body stream; a body that is not JSON goes in the Request for the SDK to read and refuse in its own words.
 * @param url the absolute URL, made as the server makes it for Remix (server/remix-request.mjs)
 * @param headers the request's headers as Remix's adapter copies them, with the socket's address
 * @param body the whole body (its declared length, within the path's cap)
 */
export function leanMcpAnswer(url: string, headers: Headers, body: Uint8Array<ArrayBuffer>): Promise<ApiAnswer> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(utf8.decode(body));
  } catch {
    parsed = undefined;
  }
  const request = new Request(url, { method: "POST", headers, body: parsed === undefined ? body : null });
  return mcpAnswer(request, parsed);
}
