// The MCP tests' callers: an API key made through the real /api/keys route, and the official SDK's own Client
// connected over Streamable HTTP to a server on a real socket.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { action as keysAction } from "~/routes/api.keys";
import { call } from "./routes";

/** A new API key of a signed-in user (its cookie), made as the account page makes one. */
export async function createApiKey(cookie: string, name = "mcp"): Promise<{ key: string; id: string }> {
  return (await (await call(keysAction, "/api/keys", { method: "POST", cookie, json: { name } })).json()) as { key: string; id: string };
}

/** The SDK's Client connected to `${baseUrl}/mcp` with the key (none: no Authorization header) and these headers. */
export async function connectMcp(baseUrl: string, key: string | null, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "winning-products-tests", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    requestInit: { headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...headers } },
  });
  await client.connect(transport);
  return client;
}

/** A tool's answer as the tests read it. */
export type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, unknown> };
