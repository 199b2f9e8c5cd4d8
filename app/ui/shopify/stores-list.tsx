// A user's Shopify stores (linked through the embedded app, plus the legacy single store) and the
// Zendrop flag. Rendered by /dashboard/stores and by /app/stores.
import { Badge, Banner, BlockStack, Box, Button, Card, Checkbox, InlineStack, Link, Text } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { useJsonCall } from "~/ui/shopify/stores-actions";

export interface StoreView {
  shop: string | null;
  store_name: string;
  shopify_admin_url: string | null;
  connected: boolean;
  legacy: boolean;
  linkedAt: string | null;
  disconnectedAt: string | null;
}

export function StoresCard({
  stores,
  zendropConnected,
  emptyHint,
}: {
  stores: StoreView[];
  zendropConnected: boolean;
  emptyHint: string;
}) {
  return (
    <Card>
      <BlockStack gap="400">
        <Text as="h2" variant="headingMd">
          Shopify stores
        </Text>
        {stores.length === 0 ? (
          <Text as="p" tone="subdued">
            {emptyHint}
          </Text>
        ) : (
          <BlockStack gap="300">
            {stores.map((store) => {
              const key = store.legacy ? "legacy" : (store.shop ?? store.store_name);
              return (
                <div key={key} role="group" aria-label={store.store_name}>
                  <Box borderColor="border" borderWidth="025" borderRadius="200" padding="300">
                    <InlineStack align="space-between" blockAlign="center" gap="300">
                      <BlockStack gap="100">
                        <InlineStack gap="200" blockAlign="center">
                          <Text as="h3" variant="headingSm">
                            {store.store_name}
                          </Text>
                          {store.connected ? <Badge tone="success">Connected</Badge> : <Badge>Disconnected</Badge>}
                          {store.legacy ? <Badge tone="info">Legacy</Badge> : null}
                        </InlineStack>
                        {store.shopify_admin_url ? (
                          <Link url={store.shopify_admin_url} target="_blank">
                            {store.shopify_admin_url}
                          </Link>
                        ) : null}
                        <Text as="p" tone="subdued" variant="bodySm">
                          {store.connected
                            ? store.linkedAt
                              ? `Linked ${store.linkedAt.slice(0, 10)}`
                              : "Connected before stores could be linked from the app"
                            : store.disconnectedAt
                              ? `Disconnected ${store.disconnectedAt.slice(0, 10)}. Open the app in this store's Shopify admin to link it again.`
                              : "Not connected."}
                        </Text>
                      </BlockStack>
                      {store.connected ? <DisconnectStoreButton storeKey={key} storeName={store.store_name} /> : null}
                    </InlineStack>
                  </Box>
                </div>
              );
            })}
          </BlockStack>
        )}
        <ZendropCheckbox zendropConnected={zendropConnected} />
      </BlockStack>
    </Card>
  );
}

/** The account's Zendrop flag (POST /api/stores/zendrop), on Stores & themes and the embedded Settings. */
export function ZendropCheckbox({ zendropConnected }: { zendropConnected: boolean }) {
  const { call, busy, error, clearError } = useJsonCall();
  // Shown at once, put back if the server refuses.
  const [zendrop, setZendrop] = useState(zendropConnected);
  useEffect(() => setZendrop(zendropConnected), [zendropConnected]);
  return (
    <BlockStack gap="200">
      {error ? (
        <Banner tone="critical" onDismiss={clearError}>
          <p>{error}</p>
        </Banner>
      ) : null}
      <Checkbox
        label="Zendrop connected"
        helpText="Tick this when your Zendrop account fulfils orders for your stores; it is shown on your account."
        checked={zendrop}
        disabled={busy !== null}
        onChange={async (checked) => {
          setZendrop(checked);
          const result = await call("zendrop", "POST", "/api/stores/zendrop", { connected: checked });
          if (!result.ok) setZendrop(!checked);
        }}
      />
    </BlockStack>
  );
}

/**
 * Disconnecting a store, with a confirmation step (POST /api/stores/{key}/disconnect): its token and
 * Shopify sessions are deleted and the embedded app asks to link it again. `key` is the shop's domain,
 * or "legacy".
 */
export function DisconnectStoreButton({ storeKey, storeName, label = "Disconnect" }: { storeKey: string; storeName: string; label?: string }) {
  const { call, busy, error } = useJsonCall();
  const [confirming, setConfirming] = useState(false);
  return (
    <BlockStack gap="100" inlineAlign="end">
      {confirming ? (
        <InlineStack gap="200">
          <Button onClick={() => setConfirming(false)}>Keep</Button>
          <Button
            tone="critical"
            variant="primary"
            loading={busy !== null}
            onClick={async () => {
              await call(storeKey, "POST", `/api/stores/${encodeURIComponent(storeKey)}/disconnect`);
              setConfirming(false);
            }}
          >
            {`Disconnect ${storeName}`}
          </Button>
        </InlineStack>
      ) : (
        <Button onClick={() => setConfirming(true)}>{label}</Button>
      )}
      {error ? (
        <Text as="p" tone="critical">
          {error}
        </Text>
      ) : null}
    </BlockStack>
  );
}
