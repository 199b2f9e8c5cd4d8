// API keys and the MCP server as a seller uses them (decisions 053, 054), on the production server: create a key
// on the account page (shown once, then only its prefix), call the MCP server with it, load the product card
// (the ui:// resource) in Chromium inside a sandboxed frame the way an assistant's host does, answer its
// MCP Apps handshake, hand it a real get_product result and see the figures, their dates and the button back to
// the product; then revoke the key on the page and see the next call refused.
import { expect, test } from "./support/test";
import { giveSubscription, open, submitSignup, uniqueEmail } from "./support/app";

const PRODUCT_CARD_URI = "ui://winning-products/product-card.html";

async function mcp(request: import("@playwright/test").APIRequestContext, key: string, method: string, params: Record<string, unknown>) {
  const res = await request.post("/mcp", {
    headers: { authorization: `Bearer ${key}`, accept: "application/json, text/event-stream", "content-type": "application/json" },
    data: { jsonrpc: "2.0", id: 1, method, params },
  });
  return { status: res.status(), body: (await res.json()) as { result?: Record<string, unknown>; error?: string } };
}

test("a seller makes a key, an assistant shows a product card with it, and the revoked key stops working", async ({ page, request }) => {
  test.setTimeout(90_000);
  const email = uniqueEmail("mcp");
  await open(page, "/signup");
  await submitSignup(page, email);
  await expect(page).toHaveURL(/\/choose-plan$/);
  await giveSubscription(email);

  await open(page, "/dashboard/account");
  await page.getByLabel("Key name").fill("Claude Desktop");
  await page.getByRole("button", { name: "Create key" }).click();
  const shown = page.getByTestId("new-api-key");
  await expect(shown).toHaveText(/^wpk_[A-Za-z0-9]{32}$/);
  const key = (await shown.textContent())!;
  await expect(page.getByRole("list", { name: "Active API keys" })).toContainText("Claude Desktop");
  await expect(page.getByRole("list", { name: "Active API keys" })).toContainText(`${key.slice(0, 12)}…`);

  // Shown once: after a reload only the prefix is on the page.
  await open(page, "/dashboard/account");
  await expect(page.getByRole("list", { name: "Active API keys" })).toContainText("Claude Desktop");
  expect(await page.content()).not.toContain(key);

  // What an assistant does: find a product, get it, read the card resource.
  const search = await mcp(request, key, "tools/call", { name: "search_products", arguments: { limit: 1 } });
  expect(search.status).toBe(200);
  const found = (search.body.result!.structuredContent as { items: { objectID: string; title: string }[] }).items[0];
  const product = await mcp(request, key, "tools/call", { name: "get_product", arguments: { objectID: found.objectID } });
  expect(product.status).toBe(200);
  const resource = await mcp(request, key, "resources/read", { uri: PRODUCT_CARD_URI });
  const html = (resource.body.result!.contents as { text: string; mimeType: string }[])[0];
  expect(html.mimeType).toBe("text/html;profile=mcp-app");

  // The host: a page with the card in a sandboxed frame (scripts only, no same origin), speaking MCP Apps.
  await page.setContent(`<!doctype html><html><body><iframe id="card" sandbox="allow-scripts" style="width:600px;height:500px"></iframe></body></html>`);
  await page.evaluate(
    ({ cardHtml, toolResult }) => {
      const w = window as unknown as { __hostSaw: string[]; __links: string[] };
      w.__hostSaw = [];
      w.__links = [];
      const frame = document.getElementById("card") as HTMLIFrameElement;
      window.addEventListener("message", (event) => {
        const msg = event.data as { id?: number; method?: string; params?: { url?: string } };
        if (!msg || !msg.method) return;
        w.__hostSaw.push(msg.method);
        const reply = (result: unknown) => frame.contentWindow!.postMessage({ jsonrpc: "2.0", id: msg.id, result }, "*");
        if (msg.method === "ui/initialize") reply({ protocolVersion: "2025-11-21", hostInfo: { name: "e2e-host", version: "1" }, hostCapabilities: {}, hostContext: {} });
        if (msg.method === "ui/notifications/initialized") frame.contentWindow!.postMessage({ jsonrpc: "2.0", method: "ui/notifications/tool-result", params: toolResult }, "*");
        if (msg.method === "ui/open-link") {
          w.__links.push(msg.params!.url!);
          reply({});
        }
      });
      frame.srcdoc = cardHtml;
    },
    { cardHtml: html.text, toolResult: product.body.result },
  );
  const card = page.frameLocator("#card");
  await expect(card.locator("article h2")).toHaveText(found.title);
  await expect(card.locator("article")).toContainText("Winning score");
  await expect(card.locator("article")).toContainText(/(measured|estimate) · \d{4}-\d{2}-\d{2}/);
  await card.getByRole("button", { name: "Open in Winning Products" }).click();
  await expect.poll(() => page.evaluate(() => (window as unknown as { __links: string[] }).__links)).toEqual([
    expect.stringContaining(`/dashboard/products/${encodeURIComponent(found.objectID)}`),
  ]);
  expect(await page.evaluate(() => (window as unknown as { __hostSaw: string[] }).__hostSaw)).toEqual(
    expect.arrayContaining(["ui/initialize", "ui/notifications/initialized", "ui/open-link"]),
  );

  // Revoke on the account page: the next call is refused.
  await open(page, "/dashboard/account");
  await page.getByRole("button", { name: "Revoke Claude Desktop" }).click();
  await expect(page.getByText(/Revoked: Claude Desktop/)).toBeVisible();
  const after = await mcp(request, key, "tools/list", {});
  expect(after.status).toBe(401);
});
