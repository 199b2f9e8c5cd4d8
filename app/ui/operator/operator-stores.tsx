// The operator page's observed stores and measured catalogue (docs/decisions/047): the catalogue's status, a form
// adding several stores (one per line), and every store the tracker knows with its followers COUNTED (never who),
// whether the operator lists it, its status (a parked store says why), its last read and listings, and pause /
// resume / remove; discovery (decision 101): its budget, its sources, how many stores it found, a form queuing a run,
// and a "Discovered" mark on the stores it added. Rendered on its own in tests; FormComponent is Remix's Form on the site (a plain form works too).
import { Badge, BlockStack, Box, Button, Card, InlineGrid, InlineStack, Text, TextField } from "@shopify/polaris";
import { useState, type ComponentType, type ReactNode } from "react";
import type { ObservedStore } from "~/services/competitors.server";
import type { CatalogueStatus } from "~/services/catalogue.server";

type FormLike = ComponentType<{ method: "post"; children?: ReactNode }>;

/** What the page shows of store discovery (services/crawl/discovery.server.ts discoveryStatus). */
export interface DiscoveryStatus {
  budget: number;
  sources: string[];
  discovered: number;
}

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
                {s.origin === "discovered" ? <Badge tone="magic">Discovered</Badge> : null}
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

export function DiscoveryCard({ discovery, FormComponent }: { discovery: DiscoveryStatus; FormComponent: FormLike }) {
  const [budget, setBudget] = useState("");
  const sources = discovery.sources.length > 0 ? discovery.sources.join(" and ") : "none (both sources are off)";
  return (
    <Card>
      <FormComponent method="post">
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd">
            Store discovery
          </Text>
          <InlineGrid columns={{ xs: 2, md: 3 }} gap="300">
            <Figure label="Budget a run" value={discovery.budget === 0 ? "Off (0)" : `${discovery.budget} stores`} />
            <Figure label="Stores discovered" value={String(discovery.discovered)} />
          </InlineGrid>
          <Text as="p" tone="subdued">
            {`Sources: ${sources}. Each candidate is verified politely (robots.txt, one request a second) before it joins your list; ${discovery.budget === 0 ? "no daily run while the budget is 0 (DISCOVERY_BUDGET)" : "a run adds at most the budget, daily"}.`}
          </Text>
          <input type="hidden" name="intent" value="stores-discover" />
          <InlineStack gap="200" blockAlign="end" wrap>
            <div style={{ maxWidth: 200 }}>
              <TextField label="Budget for this run" name="budget" type="number" min={0} max={5000} autoComplete="off" value={budget} onChange={setBudget} placeholder={String(discovery.budget)} />
            </div>
            <Button submit>Discover stores now</Button>
          </InlineStack>
        </BlockStack>
      </FormComponent>
    </Card>
  );
}

export function OperatorStores({
  stores,
  catalogue,
  discovery,
  FormComponent = "form" as unknown as FormLike,
}: {
  stores: ObservedStore[];
  catalogue: CatalogueStatus;
  discovery?: DiscoveryStatus;
  FormComponent?: FormLike;
}) {
  return (
    <BlockStack gap="400">
      <CatalogueStatusCard status={catalogue} />
      <AddStoresForm FormComponent={FormComponent} />
      {discovery ? <DiscoveryCard discovery={discovery} FormComponent={FormComponent} /> : null}
      <ObservedStoresList stores={stores} FormComponent={FormComponent} />
    </BlockStack>
  );
}
