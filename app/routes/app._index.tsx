import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Card, Layout, Page, Text } from "@shopify/polaris";
import { authenticate } from "~/shopify.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const { session } = await authenticate.admin(request);
  return { shop: session.shop };
}

export default function EmbeddedHome() {
  const { shop } = useLoaderData<typeof loader>();
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
      </Layout>
    </Page>
  );
}
