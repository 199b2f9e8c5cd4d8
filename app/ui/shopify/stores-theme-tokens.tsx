// Theme tokens: create (or rotate) a theme's licence token, see it once, list and revoke. Rendered by
// /dashboard/stores and by /app/stores; changes go through POST/DELETE /api/theme-tokens.
import {
  Banner,
  BlockStack,
  Button,
  Card,
  DataTable,
  FormLayout,
  InlineStack,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import { useJsonCall } from "~/ui/shopify/stores-actions";

export interface ThemeTokenView {
  themeId: string;
  createdAt: string;
  selectedStore: string;
  whitelistedUrls: string[];
  version: string;
  blockMessage: string | null;
}

interface Created extends ThemeTokenView {
  authToken: string;
}

export function ThemeTokensCard({ tokens, connectedShops }: { tokens: ThemeTokenView[]; connectedShops: string[] }) {
  const { call, busy, error, clearError } = useJsonCall();
  const [created, setCreated] = useState<Created | null>(null);
  const [themeId, setThemeId] = useState("");
  const [selectedStore, setSelectedStore] = useState(connectedShops[0] ?? "");
  const [urls, setUrls] = useState("");
  const [version, setVersion] = useState("1.0.0");
  const [blockMessage, setBlockMessage] = useState("");

  async function create() {
    const result = await call<Created>("create", "POST", "/api/theme-tokens", {
      themeId: themeId.trim(),
      selectedStore,
      whitelistedUrls: urls
        .split(/[\s,]+/)
        .map((u) => u.trim())
        .filter(Boolean),
      version: version.trim(),
      blockMessage: blockMessage.trim() || null,
    });
    if (result.ok) {
      setCreated(result.data);
      setThemeId("");
    }
  }

  return (
    <Card>
      <BlockStack gap="400">
        <BlockStack gap="100">
          <Text as="h2" variant="headingMd">
            Theme tokens
          </Text>
          <Text as="p" tone="subdued">
            A theme token lets the Winning Products block in a theme check its licence and show your message, only from
            the web addresses you list. Creating a token again for the same theme replaces the old one.
          </Text>
        </BlockStack>
        {error ? (
          <Banner tone="critical" onDismiss={clearError}>
            <p>{error}</p>
          </Banner>
        ) : null}
        {created ? (
          <Banner tone="success" title={`Token for theme ${created.themeId}`} onDismiss={() => setCreated(null)}>
            <BlockStack gap="200">
              <p>Copy it now into the block&apos;s “Theme token” setting: it is shown only this once.</p>
              <TextField
                label="Theme token"
                value={created.authToken}
                readOnly
                autoComplete="off"
                monospaced
                selectTextOnFocus
              />
            </BlockStack>
          </Banner>
        ) : null}
        {tokens.length ? (
          <DataTable
            columnContentTypes={["text", "text", "text", "text", "text", "text"]}
            headings={["Theme", "Store", "Allowed origins", "Version", "Created", ""]}
            rows={tokens.map((t) => [
              t.themeId,
              t.selectedStore,
              t.whitelistedUrls.join(", "),
              t.version,
              t.createdAt.slice(0, 10),
              <Button
                key={t.themeId}
                tone="critical"
                variant="plain"
                loading={busy === `revoke:${t.themeId}`}
                onClick={() =>
                  void call(`revoke:${t.themeId}`, "DELETE", `/api/theme-tokens/${encodeURIComponent(t.themeId)}`)
                }
              >
                Revoke
              </Button>,
            ])}
          />
        ) : (
          <Text as="p" tone="subdued">
            No theme tokens yet.
          </Text>
        )}
        {connectedShops.length ? (
          <FormLayout>
            <Text as="h3" variant="headingSm">
              New theme token
            </Text>
            <FormLayout.Group>
              <TextField
                label="Theme ID"
                value={themeId}
                onChange={setThemeId}
                autoComplete="off"
                helpText="The number in the theme editor's URL."
              />
              <Select
                label="Store"
                options={connectedShops.map((s) => ({ label: s, value: s }))}
                value={selectedStore}
                onChange={setSelectedStore}
              />
              <TextField label="Theme version" value={version} onChange={setVersion} autoComplete="off" />
            </FormLayout.Group>
            <TextField
              label="Allowed origins"
              value={urls}
              onChange={setUrls}
              multiline={2}
              autoComplete="off"
              helpText="Your storefront addresses, one per line, e.g. https://your-store.com and https://your-store.myshopify.com."
            />
            <TextField
              label="Message shown by the block (optional)"
              value={blockMessage}
              onChange={setBlockMessage}
              maxLength={200}
              showCharacterCount
              autoComplete="off"
              helpText="For example: Ships within 24 hours · 30-day returns."
            />
            <InlineStack>
              <Button
                variant="primary"
                onClick={() => void create()}
                loading={busy === "create"}
                disabled={!themeId.trim() || !urls.trim()}
              >
                Create token
              </Button>
            </InlineStack>
          </FormLayout>
        ) : (
          <Text as="p" tone="subdued">
            Link a store first: theme tokens belong to one of your connected stores.
          </Text>
        )}
      </BlockStack>
    </Card>
  );
}
