// The API keys section of both account pages (the site's /dashboard/account and Settings inside Shopify
// admin): create a key (shown once), name it, list and revoke keys, and the limits and monthly allowance.
// It talks to /api/keys with fetch: the site's cookie, or inside admin App Bridge's session token.
import { Banner, BlockStack, Button, Card, InlineStack, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import type { ApiKeysSection } from "~/pages/accounts/api-keys.server";

type Section = Omit<ApiKeysSection, "keys"> & { keys: ApiKeysSection["keys"] };

async function readError(res: Response): Promise<string> {
  const body = (await res.json().catch(() => null)) as { error?: string } | null;
  return body?.error ?? `The request failed (${res.status}).`;
}

export function ApiKeysCard({ initial, docsUrl = "/docs/api" }: { initial: Section; docsUrl?: string }) {
  const [section, setSection] = useState(initial);
  const [name, setName] = useState("");
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function reload() {
    const res = await fetch("/api/keys", { headers: { Accept: "application/json" } });
    if (res.ok) setSection((await res.json()) as Section);
  }

  async function create() {
    setBusy(true);
    setError(null);
    try {
      const res = await fetch("/api/keys", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name }) });
      if (!res.ok) return setError(await readError(res));
      const body = (await res.json()) as { name: string; key: string };
      setCreated({ name: body.name, key: body.key });
      setName("");
      await reload();
    } finally {
      setBusy(false);
    }
  }

  async function revoke(id: string) {
    setBusy(true);
    setError(null);
    try {
      const res = await fetch(`/api/keys/${encodeURIComponent(id)}`, { method: "DELETE" });
      if (!res.ok) return setError(await readError(res));
      await reload();
    } finally {
      setBusy(false);
    }
  }

  const active = section.keys.filter((k) => !k.revokedAt);
  const revoked = section.keys.filter((k) => k.revokedAt);
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd" id="api-keys-title">
          API keys
        </Text>
        <Text as="p">
          Use our research from your own tools: the REST API (<a href={docsUrl}>reference</a>) and the MCP server for AI assistants (
          <a href="/docs/mcp">how to connect</a>). Keys can read only; each allows {section.callsPerMinute} calls a minute.
        </Text>
        {!section.allowed ? (
          <Banner tone="info">
            <p>{section.lockedReason}</p>
          </Banner>
        ) : null}
        {section.allowance ? (
          <Text as="p" tone="subdued">
            This month: {section.allowance.used.toLocaleString("en-US")} of {section.allowance.limit.toLocaleString("en-US")} calls used.
          </Text>
        ) : null}
        {error ? (
          <Banner tone="critical">
            <p>{error}</p>
          </Banner>
        ) : null}
        {created ? (
          <Banner tone="success" title={`Your new key "${created.name}"`} onDismiss={() => setCreated(null)}>
            <p>Copy it now: it is shown only this once. We keep only a fingerprint of it.</p>
            <p>
              <code data-testid="new-api-key">{created.key}</code>
            </p>
          </Banner>
        ) : null}
        {section.allowed ? (
          <form
            aria-labelledby="api-keys-title"
            onSubmit={(event) => {
              event.preventDefault();
              void create();
            }}
          >
            <InlineStack gap="200" blockAlign="end">
              <TextField label="Key name" name="name" autoComplete="off" value={name} onChange={setName} maxLength={60} helpText="Where you use it, e.g. Claude Desktop" />
              <Button submit variant="primary" loading={busy} disabled={name.trim() === ""}>
                Create key
              </Button>
            </InlineStack>
          </form>
        ) : null}
        {active.length === 0 ? (
          <Text as="p" tone="subdued">
            No active keys.
          </Text>
        ) : (
          <ul aria-label="Active API keys">
            {active.map((k) => (
              <li key={k.id}>
                <InlineStack gap="300" blockAlign="center">
                  <Text as="span" fontWeight="semibold">
                    {k.name}
                  </Text>
                  <code>{k.prefix}…</code>
                  <Text as="span" tone="subdued">
                    created {k.createdAt.slice(0, 10)} · {k.lastUsedAt ? `last used ${k.lastUsedAt.slice(0, 16).replace("T", " ")} UTC` : "never used"}
                  </Text>
                  <Button tone="critical" variant="plain" onClick={() => void revoke(k.id)} accessibilityLabel={`Revoke ${k.name}`} disabled={busy}>
                    Revoke
                  </Button>
                </InlineStack>
              </li>
            ))}
          </ul>
        )}
        {revoked.length > 0 ? (
          <Text as="p" tone="subdued">
            Revoked: {revoked.map((k) => `${k.name} (${k.prefix}…)`).join(", ")}
          </Text>
        ) : null}
      </BlockStack>
    </Card>
  );
}
