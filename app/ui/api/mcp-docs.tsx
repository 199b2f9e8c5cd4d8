// /docs/mcp (decision 054): how to connect an AI assistant to our MCP server, with the exact configuration for
// Claude Desktop, Cursor and OpenAI (ChatGPT's models through the Responses API), and the tools it offers.
import type { CSSProperties } from "react";

const pre: CSSProperties = { fontFamily: "ui-monospace, monospace", background: "#f6f6f6", padding: 12, overflowX: "auto", fontSize: 13 };

export const MCP_TOOLS: { name: string; does: string }[] = [
  { name: "search_products", does: "search the product database with the grid's filters and sorts (cursor pages)" },
  { name: "get_product", does: "one product with its figures, insights, offers on real stores and match evidence" },
  { name: "explain_score", does: "why a product scores as it does, and how sure we are" },
  { name: "list_drops", does: "the weekly drops you revealed, with each product's reason" },
  { name: "list_competitors", does: "the rival stores you follow" },
  { name: "get_competitor", does: "one followed store: products, launches, changes, orders estimate" },
  { name: "profit", does: "landed cost (duties, fees, reserves) and net profit of one order at a price" },
];

export function McpDocs({ mcpUrl }: { mcpUrl: string }) {
  const claude = JSON.stringify(
    {
      mcpServers: {
        "winning-products": {
          command: "npx",
          args: ["-y", "mcp-remote", mcpUrl, "--header", "Authorization:${WP_AUTH}"],
          env: { WP_AUTH: "Bearer wpk_YOUR_KEY" },
        },
      },
    },
    null,
    2,
  );
  const cursor = JSON.stringify({ mcpServers: { "winning-products": { url: mcpUrl, headers: { Authorization: "Bearer wpk_YOUR_KEY" } } } }, null, 2);
  const openai = `from openai import OpenAI

client = OpenAI()
response = client.responses.create(
    model="gpt-5",
    input="Which kitchen products are more stores adding this week? Quote the evidence.",
    tools=[{
        "type": "mcp",
        "server_label": "winning-products",
        "server_url": "${mcpUrl}",
        "headers": {"Authorization": "Bearer wpk_YOUR_KEY"},
        "require_approval": "never",
    }],
)
print(response.output_text)`;
  return (
    <main style={{ maxWidth: 860, margin: "0 auto", padding: "24px 16px", lineHeight: 1.55 }}>
      <h1>Use Winning Products from your AI assistant</h1>
      <p>
        Our MCP server lets Claude, Cursor and other assistants search the research for you and quote the evidence behind every number:
        whether a figure was measured or estimated, and its date. It only reads; it never changes your account.
      </p>
      <ol>
        <li>
          Create an API key on <a href="/dashboard/account#api-keys-title">your account page</a> (every plan includes it). It is shown once: copy
          it.
        </li>
        <li>Add the server to your assistant with one of the configurations below, replacing wpk_YOUR_KEY with your key.</li>
        <li>Ask, for example: “Find pet products sold by at least 3 stores and explain their scores.”</li>
      </ol>
      <p>
        Server address (Streamable HTTP): <code>{mcpUrl}</code>. It takes the key as <code>Authorization: Bearer …</code>; calls count against the
        same limits as the <a href="/docs/api">REST API</a> (120 a minute, a monthly allowance by plan), and each answer says what is left.
      </p>

      <h2 id="claude">Claude Desktop</h2>
      <p>
        Settings → Developer → Edit Config opens <code>claude_desktop_config.json</code>. Add the server below (it runs the <code>mcp-remote</code>{" "}
        bridge with Node.js, which passes your key as a header), save, and restart Claude Desktop.
      </p>
      <pre style={pre}>{claude}</pre>

      <h2 id="cursor">Cursor</h2>
      <p>
        Put this in <code>~/.cursor/mcp.json</code> (every project) or <code>.cursor/mcp.json</code> (one project), then enable the server under
        Settings → MCP.
      </p>
      <pre style={pre}>{cursor}</pre>

      <h2 id="chatgpt">ChatGPT and OpenAI</h2>
      <p>
        ChatGPT&apos;s own connector form (Settings → Connectors, developer mode) signs in with OAuth and cannot send an API key, and we do not offer
        OAuth yet. With OpenAI&apos;s models in your own tools, use the Responses API, which sends the key as a header:
      </p>
      <pre style={pre}>{openai}</pre>

      <h2 id="tools">Tools</h2>
      <ul>
        {MCP_TOOLS.map((t) => (
          <li key={t.name}>
            <code>{t.name}</code>: {t.does}
          </li>
        ))}
      </ul>
      <p>
        search_products and get_product also link a product card (MCP Apps) that hosts supporting it, such as Claude, show in the conversation,
        with a button back to the product here.
      </p>
      <h2 id="check">Check your key from a terminal</h2>
      <pre style={pre}>{`npx @modelcontextprotocol/inspector --cli ${mcpUrl} --transport http --method tools/list --header "Authorization: Bearer wpk_YOUR_KEY"`}</pre>
    </main>
  );
}
