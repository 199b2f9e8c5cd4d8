// /mcp: the MCP server (Streamable HTTP, stateless; decision 054). Bearer API key, Host and Origin checked, the
// same limits as /api/v1: app/api/mcp/server.server.ts. POST carries the JSON-RPC messages; GET and DELETE 405.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { answerMcp } from "~/api/mcp/server.server";

export const loader = ({ request }: LoaderFunctionArgs) => answerMcp(request);
export const action = ({ request }: ActionFunctionArgs) => answerMcp(request);
