// /docs/mcp: how to connect Claude Desktop, Cursor and OpenAI to the MCP server (decision 054). Public.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { getEnv } from "~/env.server";
import { McpDocs } from "~/ui/api/mcp-docs";

export const meta: MetaFunction = () => [{ title: "Connect your AI assistant · Winning Products" }];

export function loader({ request }: LoaderFunctionArgs) {
  const env = getEnv();
  return { mcpUrl: new URL("/mcp", env.APP_URL ?? request.url).toString() };
}

export default function Route() {
  return <McpDocs mcpUrl={useLoaderData<typeof loader>().mcpUrl} />;
}
