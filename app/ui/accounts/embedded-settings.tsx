// Settings inside Shopify admin (/app/settings): the site account this shop is linked to and its plan,
// this shop's link (and unlinking it, which signs the store out of the account), the Zendrop flag, and
// the community. Changes go through the same JSON API and services as the site's pages.
import type { SerializeFrom } from "@remix-run/node";
import { Banner, BlockStack, Button, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import type { SettingsLoaderData } from "~/pages/accounts/settings.server";
import { ApiKeysCard } from "~/ui/accounts/api-keys-card";
import { CommunityCard } from "~/ui/course/course-community";
import { HandoffNoticeSection, useHandoff } from "~/ui/accounts/handoff";
import { EmbeddedLegalFooter } from "~/ui/shared/legal-pages";
import { LinkedAccountCard } from "~/ui/accounts/link-shop";
import { DisconnectStoreButton, ZendropCheckbox } from "~/ui/shopify/stores-list";
import { TitledCard } from "~/ui/shared/titled-card";

export type SettingsData = SerializeFrom<SettingsLoaderData>;

export function EmbeddedSettingsPage({ data, notice }: { data: SettingsData; notice: string | null }) {
  const { shop, account, subscription, store, otherStores, zendropConnected, community } = data;
  const handoff = useHandoff();
  return (
    <Page title="Settings">
      <Layout>
        {notice ? (
          <Layout.Section>
            <Banner tone="success">
              <p>{notice}</p>
            </Banner>
          </Layout.Section>
        ) : null}
        <HandoffNoticeSection handoff={handoff} />
        <Layout.Section>
          <LinkedAccountCard email={account.email} plan={account} subscription={subscription}>
            <Text as="p" tone="subdued">
              {`Account created ${account.memberSince}. The subscription, credits, course progress and saved research are the same here and on the website.`}
            </Text>
            <div>
              <Button url="/app/billing">Billing &amp; credits</Button>
            </div>
          </LinkedAccountCard>
        </Layout.Section>

        <Layout.Section>
          <TitledCard title="This store">
            <InlineStack align="space-between" blockAlign="center" gap="300">
              <BlockStack gap="100">
                <Text as="p">
                  <b>{shop}</b> is linked to <b>{account.email}</b>
                  {store?.linkedAt ? ` since ${store.linkedAt.slice(0, 10)}` : ""}.
                </Text>
                <Text as="p" tone="subdued">
                  Everyone on this store&apos;s staff uses the app as this account.
                  {otherStores > 0
                    ? ` The account has ${otherStores} other linked store${otherStores === 1 ? "" : "s"} (see Stores & themes).`
                    : ""}
                </Text>
              </BlockStack>
              <DisconnectStoreButton storeKey={shop} storeName={shop} label="Unlink this store" />
            </InlineStack>
            <Text as="p" tone="subdued">
              Unlinking signs this store out of the account: the app forgets this store&apos;s access token and asks to
              sign in again the next time it opens, where you can link another account. The account, its subscription
              and credits stay as they are.
            </Text>
          </TitledCard>
        </Layout.Section>

        <Layout.Section>
          <ApiKeysCard initial={data.apiKeys} />
        </Layout.Section>

        <Layout.Section>
          <TitledCard title="Zendrop">
            <ZendropCheckbox zendropConnected={zendropConnected} />
          </TitledCard>
        </Layout.Section>

        <Layout.Section>
          <CommunityCard
            community={community}
            onConnectDiscord={() => handoff.open({ to: "discord" }, "Discord's sign-in")}
          />
        </Layout.Section>
      </Layout>
      <EmbeddedLegalFooter />
    </Page>
  );
}
