// The Stores & themes page body, the same on the site (/dashboard/stores) and in Shopify admin (/app/stores).
import { Layout, Page } from "@shopify/polaris";
import { StoresCard, type StoreView } from "~/ui/stores-list";
import { ThemeTokensCard, type ThemeTokenView } from "~/ui/stores-theme-tokens";

export interface StoresPageData {
  stores: StoreView[];
  zendropConnected: boolean;
  themeTokens: ThemeTokenView[];
}

export function StoresAndThemesPage({ data, surface }: { data: StoresPageData; surface: "site" | "embedded" }) {
  const connectedShops = data.stores.filter((s) => s.connected && s.shop).map((s) => s.shop as string);
  const emptyHint =
    surface === "site"
      ? "No store linked yet. Install Winning Products from the Shopify App Store and open it in your Shopify admin, then sign in there with this account to link the store."
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
        <Layout.Section>
          <ThemeTokensCard tokens={data.themeTokens} connectedShops={connectedShops} />
        </Layout.Section>
      </Layout>
    </Page>
  );
}
