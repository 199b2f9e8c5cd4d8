// The embedded home: which shop this is and which Winning Products account it is linked to, where the
// course left off, the plan and the credits left, and links to every page of the app.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Button, Card, InlineGrid, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import { paidState, planStatusInput } from "~/domain/billing/billing";
import { requireEmbeddedUser } from "~/pages/http/embedded-session.server";
import { billing, course, credits } from "~/services/index.server";
import { coursePaths } from "~/ui/course/course-pages";
import { ContinueCourseCard } from "~/ui/course/course-progress";
import { CreditsCard } from "~/ui/billing/credits-card";
import { EMBEDDED_PAGES } from "~/ui/shared/embedded-pages";
import { LinkedAccountCard } from "~/ui/accounts/link-shop";

export async function loader({ request }: LoaderFunctionArgs) {
  const { session, user } = await requireEmbeddedUser(request);
  const [balances, courseSummary, overview] = await Promise.all([
    credits.getBalances(user.id),
    course.getCourseSummary(user.id),
    billing.overview(user),
  ]);
  return {
    shop: session.shop,
    account: { email: user.email, ...planStatusInput(user), paid: paidState(user).paid },
    subscription: overview.subscription,
    balances,
    course: courseSummary,
  };
}

export default function EmbeddedHome() {
  const { shop, account, subscription, balances, course: courseSummary } = useLoaderData<typeof loader>();
  const paths = coursePaths("embedded");
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
                Research products, follow the course and make AI ads here, on the same account, subscription and credits
                as the Winning Products website.
              </Text>
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <ContinueCourseCard progress={courseSummary} lessonUrl={paths.lesson} courseUrl={paths.course} />
        </Layout.Section>
        <Layout.Section>
          <InlineGrid columns={{ xs: 1, md: 2 }} gap="400">
            <LinkedAccountCard email={account.email} plan={account} subscription={subscription}>
              <InlineStack gap="200">
                <Button url="/app/billing">Billing &amp; credits</Button>
                <Button url="/app/settings" variant="plain">
                  Settings
                </Button>
              </InlineStack>
            </LinkedAccountCard>
            <CreditsCard credits={balances} creditsUrl="/app/billing#buy-credits">
              <div>
                <Button url="/app/billing" variant="plain">
                  Costs and history
                </Button>
              </div>
            </CreditsCard>
          </InlineGrid>
        </Layout.Section>
        <Layout.Section>
          <BlockStack gap="300">
            <Text as="h2" variant="headingMd">
              Everything in the app
            </Text>
            <InlineGrid columns={{ xs: 1, sm: 2, md: 3 }} gap="400">
              {EMBEDDED_PAGES.map((page) => (
                <Card key={page.url}>
                  <BlockStack gap="200">
                    <Text as="h3" variant="headingSm">
                      {page.title}
                    </Text>
                    <Text as="p" tone="subdued">
                      {page.description}
                    </Text>
                    <div>
                      <Button url={page.url} accessibilityLabel={`Open ${page.title}`}>
                        Open
                      </Button>
                    </div>
                  </BlockStack>
                </Card>
              ))}
            </InlineGrid>
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
