import type { MetaFunction } from "@remix-run/node";
import { Link, useRouteLoaderData, useSearchParams } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, InlineStack, Text } from "@shopify/polaris";
import type { loader as rootLoader } from "~/root";
import { loginPathFor, REDIRECT_TO_PARAM } from "~/domain/accounts/redirect-to";
import { planActionLabel, PlanCards } from "~/ui/billing/plan-cards";

export const meta: MetaFunction = () => [
  { title: "Winning Products · Find products worth selling, and see why" },
  {
    name: "description",
    content:
      "Product research for dropshipping and e-commerce sellers: a searchable product database with winning scores that show their evidence, competitor tracking, AI video ads, weekly product drops and a 78-lesson course.",
  },
];

const FEATURES = [
  {
    title: "Product database",
    body: "Search and filter thousands of products by niche, margin, orders, engagement and saturation. Every figure shows when it was last updated.",
  },
  {
    title: "Winning score, with reasons",
    body: "A 0-100 score with the three facts behind it, like “orders +180% in 7 days” or “sold by only 4 stores”. Estimates are labelled as estimates.",
  },
  {
    title: "Competitor tracking",
    body: "Follow stores and products, and see what changed since you started tracking them.",
  },
  {
    title: "AI video ads and glitch mode",
    body: "Turn a product into a short vertical video ad, and find Amazon-priced products worth reselling, with credits on every plan.",
  },
  {
    title: "Weekly product drops",
    body: "Every Monday, 8 to 20 products picked by our rules from their evidence: strong winning scores, at most two per niche, none from the last four drops or the grid's first page, each with the reason it made the cut.",
  },
  {
    title: "Course and community",
    body: "78 lessons from picking a product to scaling ads, with progress tracking and a community to ask questions.",
  },
];

export default function Landing() {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  // Where a deleted account lands (/dashboard/account).
  const [params] = useSearchParams();
  // An anonymous visitor sent here from a dashboard page (seed §2) goes back there once logged in.
  const loginHref = loginPathFor(params.get(REDIRECT_TO_PARAM));
  return (
    <BlockStack gap="800">
      {params.get("goodbye") === "1" && !root?.signedIn ? (
        <Banner tone="info" title="Your account has been deleted">
          <p>Everything we held about you is erased. Goodbye, and thank you for trying Winning Products.</p>
        </Banner>
      ) : null}
      <section className="hero">
        <h1>Find a product worth selling in under a minute, and see exactly why.</h1>
        <p>
          Winning Products scans a product database for rising orders, healthy margins and low saturation, then
          shows you the evidence behind every score. Works on its own or inside your Shopify admin.
        </p>
        <InlineStack gap="300" align="center">
          {root?.signedIn ? (
            <Button url="/dashboard?location=dashboard" variant="primary" size="large">
              Open your dashboard
            </Button>
          ) : (
            <>
              <Button url="/signup" variant="primary" size="large">
                Start your free trial
              </Button>
              <Button url={loginHref} size="large">
                Log in
              </Button>
            </>
          )}
        </InlineStack>
      </section>

      <section aria-labelledby="features">
        <BlockStack gap="400">
          <Text as="h2" variant="headingXl" id="features">
            What you get
          </Text>
          <div className="feature-grid">
            {FEATURES.map((f) => (
              <Card key={f.title}>
                <BlockStack gap="200">
                  <Text as="h3" variant="headingMd">
                    {f.title}
                  </Text>
                  <Text as="p" tone="subdued">
                    {f.body}
                  </Text>
                </BlockStack>
              </Card>
            ))}
          </div>
        </BlockStack>
      </section>

      <section aria-labelledby="plans">
        <BlockStack gap="400">
          <Text as="h2" variant="headingXl" id="plans">
            Plans
          </Text>
          <PlanCards
            actionFor={(plan) => ({
              url: `/signup?${new URLSearchParams({ plan: plan.id, billing: plan.billing })}`,
              label: planActionLabel(plan),
            })}
          />
          <Text as="p" tone="subdued">
            Prices in USD; your checkout shows the price in your currency. Cancel during the free trial and you pay
            nothing: see the <Link to="/refunds">refund policy</Link>, the <Link to="/terms">terms</Link> and how we
            handle your data in the <Link to="/privacy">privacy policy</Link>. Already a member?{" "}
            <Link to={loginHref}>Log in</Link>.
          </Text>
        </BlockStack>
      </section>
    </BlockStack>
  );
}
