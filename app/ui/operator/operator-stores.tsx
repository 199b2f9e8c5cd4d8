// The operator page's observed stores and measured catalogue (docs/decisions/047): the catalogue's status, a form
// adding several stores (one per line), and every store the tracker knows with its followers COUNTED (never who),
// whether the operator lists it, its status (a parked store says why), its last read and listings, and pause /
// resume / remove. Rendered on its own in tests; FormComponent is Remix's Form on the site (a plain form works too).
import { Badge, BlockStack, Box, Button, Card, InlineGrid, InlineStack, Text, TextField } from "@shopify/polaris";
import { useState, type ComponentType, type ReactNode } from "react";
import type { ObservedStore } from "~/services/competitors.server";
import type { CatalogueStatus } from "~/services/catalogue.server";

type FormLike = ComponentType<{ method: "post"; children?: ReactNode }>;

const when = (iso: string | null) => (iso ? `${iso.replace("T", " ").slice(0, 16)} UTC` : "never");

function StatusBadge({ store }: { store: ObservedStore }) {
  if (store.paused) return <Badge>Paused</Badge>;
  if (store.status === "parked") return <Badge tone="critical">Parked</Badge>;
  if (store.status === "failing") return <Badge tone="warning">Read failed</Badge>;
  if (store.status === "blocked") return <Badge tone="warning">Blocked</Badge>;
  if (store.status === "robots") return <Badge tone="info">Not read: robots.txt</Badge>;
  if (store.status === "ok") return <Badge tone="success">Read</Badge>;
  return <Badge tone="attention">First read pending</Badge>;
}

function StoreAction({ intent, domain, label, FormComponent, tone }: { intent: string; domain: string; label: string; FormComponent: FormLike; tone?: "critical" }) {
  return (
    <FormComponent method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="domain" value={domain} />
      <Button submit size="slim" tone={tone} accessibilityLabel={`${label} ${domain}`}>
        {label}
      </Button>
    </FormComponent>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <BlockStack gap="050">
      <Text as="span" variant="bodySm" tone="subdued">
        {label}
      </Text>
      <Text as="span" variant="headingMd">
        {value}
      </Text>
    </BlockStack>
  );
}

export function CatalogueStatusCard({ status }: { status: CatalogueStatus }) {
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Measured catalogue
        </Text>
        <InlineGrid columns={{ xs: 2, md: 5 }} gap="300">
          <Figure label="Listings" value={String(status.listings)} />
          <Figure label="Pictures fingerprinted" value={String(status.fingerprinted)} />
          <Figure label="Pictures pending" value={String(status.pending)} />
          <Figure label="Pictures failed" value={String(status.failed)} />
          <Figure label="Measured products" value={String(status.products)} />
        </InlineGrid>
        <Text as="p" tone="subdued">
          Last match: {when(status.lastMatchAt)}
        </Text>
      </BlockStack>
    </Card>
  );
}

export function AddStoresForm({ FormComponent }: { FormComponent: FormLike }) {
  const [domains, setDomains] = useState("");
  return (
    <Card>
      <FormComponent method="post">
        <BlockStack gap="300">
          <input type="hidden" name="intent" value="stores-add" />
          <TextField
            label="Add stores to observe"
            helpText="One store per line: a domain, a URL or a .myshopify.com address. Each is read daily at its own time; one that cannot be read says why after its first read."
            name="domains"
            multiline={4}
            autoComplete="off"
            value={domains}
            onChange={setDomains}
          />
          <InlineStack>
            <Button submit variant="primary">
              Add stores
            </Button>
          </InlineStack>
        </BlockStack>
      </FormComponent>
    </Card>
  );
}

export function ObservedStoresList({ stores, FormComponent }: { stores: ObservedStore[]; FormComponent: FormLike }) {
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Observed stores ({stores.length})
        </Text>
        {stores.length === 0 ? (
          <Text as="p" tone="subdued">
            No stores yet: add some above, or wait for users to follow stores.
          </Text>
        ) : null}
        {stores.map((s) => (
          <Box key={s.id} padding="300" borderWidth="025" borderColor="border" borderRadius="200">
            <BlockStack gap="200">
              <InlineStack gap="200" blockAlign="center" wrap>
                <div style={{ overflowWrap: "anywhere" }}>
                  <Text as="h3" variant="headingSm">
                    {s.domain}
                  </Text>
                </div>
                <StatusBadge store={s} />
                {s.operatorListed ? <Badge tone="info">On your list</Badge> : null}
              </InlineStack>
              <Text as="p" variant="bodySm" tone="subdued">
                {`Followed by ${s.followers} ${s.followers === 1 ? "user" : "users"} · last read ${when(s.lastCheckedAt)} · ${s.listings} ${s.listings === 1 ? "listing" : "listings"}`}
                {s.nextCheckAt && !s.paused ? ` · next read ${when(s.nextCheckAt)}` : ""}
              </Text>
              {s.lastError ? (
                <Text as="p" variant="bodySm" tone="critical">
                  {s.lastError}
                </Text>
              ) : null}
              {s.readNote ? (
                <Text as="p" variant="bodySm" tone="caution">
                  {s.readNote}
                </Text>
              ) : null}
              {s.pictureNote ? (
                <Text as="p" variant="bodySm" tone="caution">
                  {s.pictureNote}
                </Text>
              ) : null}
              <InlineStack gap="200" wrap>
                {s.paused || s.status === "parked" ? (
                  <StoreAction intent="store-resume" domain={s.domain} label="Resume" FormComponent={FormComponent} />
                ) : (
                  <StoreAction intent="store-pause" domain={s.domain} label="Pause" FormComponent={FormComponent} />
                )}
                {s.operatorListed ? <StoreAction intent="store-remove" domain={s.domain} label="Remove" tone="critical" FormComponent={FormComponent} /> : null}
              </InlineStack>
            </BlockStack>
          </Box>
        ))}
      </BlockStack>
    </Card>
  );
}

export function OperatorStores({ stores, catalogue, FormComponent = "form" as unknown as FormLike }: { stores: ObservedStore[]; catalogue: CatalogueStatus; FormComponent?: FormLike }) {
  return (
    <BlockStack gap="400">
      <CatalogueStatusCard status={catalogue} />
      <AddStoresForm FormComponent={FormComponent} />
      <ObservedStoresList stores={stores} FormComponent={FormComponent} />
    </BlockStack>
  );
}
