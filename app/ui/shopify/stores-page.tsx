// The Stores & themes page body, the same on the site (/dashboard/stores) and in Shopify admin (/app/stores).
import { Layout, Page } from "@shopify/polaris";
import type { ShopifyInstallView } from "~/pages/shopify/install.server";
import { ConnectShopifyCard } from "~/ui/shopify/connect-shopify";
import { StoresCard, type StoreView } from "~/ui/shopify/stores-list";
import { ThemeTokensCard, type ThemeTokenView } from "~/ui/shopify/stores-theme-tokens";

export interface StoresPageData {
  stores: StoreView[];
  zendropConnected: boolean;
  themeTokens: ThemeTokenView[];
  /** The site's install path to Shopify (docs/decisions/029); inside Shopify admin there is none. */
  install?: ShopifyInstallView;
}

export function StoresAndThemesPage({ data, surface }: { data: StoresPageData; surface: "site" | "embedded" }) {
  const connectedShops = data.stores.filter((s) => s.connected && s.shop).map((s) => s.shop as string);
  const install = surface === "site" ? data.install : undefined;
  const emptyHint = !install
    ? "No store linked yet."
    : install.available
      ? "No store linked yet. Connect one below: install Winning Products on your Shopify store, then sign in with this account in the app inside your Shopify admin."
      : "No store linked yet.";
  return (
    <Page
      title="Stores & themes"
      backAction={surface === "site" ? { content: "Overview", url: "/dashboard?location=dashboard" } : undefined}
    >
      <Layout>
        <Layout.Section>
          <StoresCard stores={data.stores} zendropConnected={data.zendropConnected} emptyHint={emptyHint} />
        </Layout.Section>
        {install ? (
          <Layout.Section>
            <ConnectShopifyCard install={install} />
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <ThemeTokensCard tokens={data.themeTokens} connectedShops={connectedShops} />
        </Layout.Section>
      </Layout>
    </Page>
  );
}
