// The install path from the site to Shopify (docs/decisions/029). ConnectShopifyCard is on the site's
// Stores page: "Install on Shopify" when the app's install link is configured, and a "Your store's
// address" form that sends the seller to Shopify's install page for our app (the page's action,
// app/pages/shopify/install.server.ts); when the Shopify app is not set up on this server, one plain
// sentence and no button. ConnectStoreFirst is what a page that needs a store shows without one.
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, InlineStack, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { sitePathOn, type Surface } from "~/domain/shopify/embedded-paths";
import type { ShopifyInstallFormResult, ShopifyInstallView } from "~/pages/shopify/install.server";

export function ConnectShopifyCard({ install }: { install: ShopifyInstallView }) {
  const answer = useActionData<ShopifyInstallFormResult>();
  const navigation = useNavigation();
  const [shop, setShop] = useState(answer?.shop ?? "");
  const sending = navigation.state !== "idle" && navigation.formData?.get("intent") === "install-shopify";
  return (
    <Card>
      <div id="connect-shopify" aria-labelledby="connect-shopify-title" role="region">
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd" id="connect-shopify-title">
            Connect a Shopify store
          </Text>
          {!install.available ? (
            <Text as="p" tone="subdued">
              {install.message}
            </Text>
          ) : (
            <>
              <Text as="p">
                Install Winning Products on your store. Shopify asks you to approve the app, then opens it in your
                store&apos;s admin: sign in there with this account and the store appears on this page.
              </Text>
              {install.installUrl ? (
                <InlineStack>
                  <Button variant="primary" url={install.installUrl} external>
                    Install on Shopify
                  </Button>
                </InlineStack>
              ) : null}
              <Form method="post" replace>
                <input type="hidden" name="intent" value="install-shopify" />
                <BlockStack gap="200">
                  <TextField
                    label={install.installUrl ? "Or enter your store's address" : "Your store's address"}
                    name="shop"
                    value={shop}
                    onChange={setShop}
                    placeholder="mystore.myshopify.com"
                    autoComplete="url"
                    inputMode="url"
                    spellCheck={false}
                    helpText="Its myshopify.com address, shown in Shopify admin under Settings > Domains. Just the name (mystore) works too."
                    error={answer?.installError}
                  />
                  <InlineStack>
                    <Button submit variant={install.installUrl ? "secondary" : "primary"} loading={sending}>
                      Continue to Shopify
                    </Button>
                  </InlineStack>
                </BlockStack>
              </Form>
            </>
          )}
        </BlockStack>
      </div>
    </Card>
  );
}

/**
 * "Connect your store first" where a store is needed (the push panel): the way to the Stores page's install
 * path, or, when connecting is not set up on this server, the sentence that says so.
 */
export function ConnectStoreFirst({
  surface,
  install,
  action,
}: {
  surface: Surface;
  install: ShopifyInstallView;
  /** What the store is needed for, e.g. "to push this page". */
  action: string;
}) {
  if (!install.available) {
    return (
      <Banner tone="info" title="Connect your store first">
        <p>{install.message}</p>
      </Banner>
    );
  }
  const storesPage = `${sitePathOn(surface, "/dashboard/stores")}#connect-shopify`;
  return (
    <Banner
      tone="info"
      title="Connect your store first"
      action={{ content: surface === "site" ? "Connect a Shopify store" : "Open Stores & themes", url: storesPage }}
      secondaryAction={install.installUrl ? { content: "Install on Shopify", url: install.installUrl, target: "_blank" } : undefined}
    >
      <p>Install Winning Products on your Shopify store {action}.</p>
    </Banner>
  );
}
