// The embedded home: which shop this is and which Winning Products account it is linked to.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Card, Layout, Page, Text } from "@shopify/polaris";
import { getEnv } from "~/env.server";
import { embeddedAuth, users } from "~/services/index.server";
import { LinkedAccountCard } from "~/ui/link-shop";

export async function loader({ request }: LoaderFunctionArgs) {
  const { session, user } = await embeddedAuth.requireEmbeddedUser(request);
  const me = await users.describeMe(user);
  return {
    shop: session.shop,
    account: {
      email: me.email,
      userSubscribed: me.userSubscribed,
      trialing: me.trialing,
      subscriptionCancelled: me.subscriptionCancelled,
      chargeDeclined: me.chargeDeclined,
      innerCircle: me.innerCircle,
      paid: me.paid.paid,
    },
    siteUrl: getEnv().APP_URL ?? null,
  };
}

export default function EmbeddedHome() {
  const { shop, account, siteUrl } = useLoaderData<typeof loader>();
  return (
    <Page title="Winning Products">
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                Connected to {shop}
              </Text>
              <Text as="p" tone="subdued">
                Research products, follow the course and make AI ads here, on the same account, subscription and
                credits as the Winning Products website.
              </Text>
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <LinkedAccountCard email={account.email} plan={account} siteUrl={siteUrl} />
        </Layout.Section>
      </Layout>
    </Page>
  );
}
