// The site dashboard's overview: the plan, credits, course, next drop, Shopify and account cards, and the
// community prompt. Data from app/pages/research/dashboard-home.server.ts; the route passes the URL's
// parameters (?checkout=success, ?discord=...) for the banners.
import type { SerializeFrom } from "@remix-run/node";
import { Badge, Banner, BlockStack, Button, Card, InlineGrid, Layout, Page, Text } from "@shopify/polaris";
import { planStatus, type PlanStatusInput } from "~/domain/billing/billing";
import type { DashboardHomeData } from "~/pages/research/dashboard-home.server";
import { CommunityCard, CommunityPopup, discordNotice } from "~/ui/course/course-community";
import { ContinueCourseCard } from "~/ui/course/course-progress";
import { CreditsCard } from "~/ui/billing/credits-card";
import { DropCountdown } from "~/ui/research/product-drops-page";

function PlanStatusBadge({ me }: { me: PlanStatusInput }) {
  const status = planStatus(me);
  return <Badge tone={status.tone}>{status.label}</Badge>;
}

export function DashboardHome({ data, params }: { data: SerializeFrom<DashboardHomeData>; params: URLSearchParams }) {
  const { me, course: courseSummary, community: communityOverview, drop } = data;
  const hasPlan = me.paid.paid;
  const discord = discordNotice(params.get("discord"));
  return (
    <Page title="Overview" subtitle={`Signed in as ${me.email}`}>
      <Layout>
        {params.get("checkout") === "success" ? (
          <Layout.Section>
            <Banner tone="success" title="You're in">
              <p>
                {me.trialing
                  ? "Your free trial has started and your trial credits are ready."
                  : "Your purchase is complete. Thank you!"}
              </p>
            </Banner>
          </Layout.Section>
        ) : null}
        {discord ? (
          <Layout.Section>
            <Banner tone={discord.tone} title={discord.title}>
              <p>{discord.message}</p>
            </Banner>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <ContinueCourseCard progress={courseSummary} lessonUrl={(n) => `/dashboard/course/${n}`} courseUrl="/dashboard/course" />
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Your plan
              </Text>
              <div>
                <PlanStatusBadge me={me} />
              </div>
              {hasPlan ? (
                <BlockStack gap="200">
                  <Text as="p" tone="subdued">
                    {me.trialing
                      ? "Your free trial is on. Research, AI ads and the course are open to you."
                      : "Your plan is on. Research, AI ads and the course are open to you."}
                  </Text>
                  <div>
                    <Button url="/dashboard/billing">Manage billing</Button>
                  </div>
                </BlockStack>
              ) : (
                <BlockStack gap="200">
                  <Text as="p" tone="subdued">
                    Pick a plan to unlock winning scores, trend charts and AI credits. Monthly plans start with a 7-day
                    free trial.
                  </Text>
                  <div>
                    <Button url="/choose-plan" variant="primary">
                      Choose a plan
                    </Button>
                  </div>
                </BlockStack>
              )}
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <DropCountdown nextDropDate={drop.nextDropDate} now={drop.now} dropsUrl="/dashboard/drops" />
        </Layout.Section>
        <Layout.Section>
          <CreditsCard credits={me.credits} creditsUrl="/dashboard/billing#buy-credits" />
        </Layout.Section>
        <Layout.Section>
          <InlineGrid columns={{ xs: 1, md: 2 }} gap="400">
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  Shopify
                </Text>
                <Text as="p" tone="subdued">
                  {me.shopifyStoreName
                    ? `Connected store: ${me.shopifyStoreName}`
                    : "Install the app from your Shopify admin to research and push products without leaving Shopify. It uses this same account and subscription."}
                </Text>
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  Account
                </Text>
                <Text as="p" tone="subdued">
                  Manage where you are signed in.
                </Text>
                <div>
                  <Button url="/dashboard/account">Open account settings</Button>
                </div>
              </BlockStack>
            </Card>
          </InlineGrid>
        </Layout.Section>
        <Layout.Section>
          <CommunityCard community={communityOverview} />
        </Layout.Section>
      </Layout>
      <CommunityPopup popup={communityOverview.popup} inviteUrl={communityOverview.inviteUrl} />
    </Page>
  );
}
