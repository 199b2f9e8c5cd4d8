// Shopify's app proxy: the storefront's /apps/winning-products/* is forwarded here by Shopify with a
// `signature` over its query (shopify.app.toml [app_proxy]). authenticate.public.appProxy checks it and
// answers 400 when it is missing, wrong or stale; the shop in the query is then Shopify's word.
//   GET /apps/proxy/block?themeId=   -> JSON { valid, store, version, message } for the theme block
//   GET /apps/proxy/block.liquid     -> the same message as a Liquid fragment Shopify renders in place
import type { LoaderFunctionArgs } from "@remix-run/node";
import { themeTokens } from "~/services/index.server";
import { authenticate } from "~/shopify.server";

function escapeForLiquid(text: string): string {
  // HTML-escaped, and braces too, so a message can never become a Liquid tag.
  return text.replace(/[&<>"'{}]/g, (c) => `&#${c.charCodeAt(0)};`);
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { liquid } = await authenticate.public.appProxy(request);
  const url = new URL(request.url);
  const shop = url.searchParams.get("shop") ?? "";
  const licence = await themeTokens.appProxyLicence({ shop, themeId: url.searchParams.get("themeId") });
  const path = params["*"] ?? "";
  if (path === "block.liquid") {
    const message = licence.valid && licence.message ? escapeForLiquid(licence.message) : "";
    return liquid(`<span class="wp-social-proof__message">${message}</span>`, {
      layout: false,
      headers: { "Cache-Control": "no-store" },
    });
  }
  if (path === "block" || path === "") {
    return Response.json(licence, { headers: { "Cache-Control": "no-store" } });
  }
  return Response.json({ error: "Not found." }, { status: 404 });
}
