// /dashboard/products/{objectID}: one product with its evidence. Everyone signed in sees the figures,
// score, stage and saturation; paid states also see the reasons, the trend chart, supplier and Amazon
// price and the profit calculator (researchAccess decides). Save and track are idempotent POSTs to
// this route's action. An unknown objectID is a 404 inside the dashboard frame.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { isRouteErrorResponse, useFetcher, useLoaderData, useRouteError } from "@remix-run/react";
import { captureRemixErrorBoundaryError } from "@sentry/remix";
import { Badge, BlockStack, Button, Card, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import { z } from "zod";
import { researchAccess } from "~/domain/research-access";
import { auth, products } from "~/services/index.server";
import { ProductNotFoundError } from "~/services/products.server";
import { formatDay, nicheLabel, UpgradePrompt } from "~/ui/product-card";
import { useLastSearchUrl } from "~/ui/product-filters";
import { ProductGallery, ProductInsights, ProductMetrics, ProductSourcing, TrackingChange } from "~/ui/product-detail";
import { ProfitCalculator } from "~/ui/profit-calculator";
import { TrendChart } from "~/ui/trend-chart";

const ObjectID = z.string().min(1).max(120);
const UPGRADE_URL = "/choose-plan";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data && "product" in data ? `${data.product.title} · Winning Products` : "Product not found · Winning Products" },
];

function notFound(): Response {
  return new Response("There is no product with that ID. It may have been removed from the database.", { status: 404 });
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await auth.requireUser(request);
  const objectID = ObjectID.safeParse(params.objectID);
  if (!objectID.success) throw notFound();
  const access = researchAccess(user);
  try {
    const product = await products.getProduct({ userId: user.id, objectID: objectID.data, access });
    return { product, access: { insights: access.insights, lockedReason: access.lockedReason } };
  } catch (error) {
    if (error instanceof ProductNotFoundError) throw notFound();
    throw error;
  }
}

const Intent = z.object({ intent: z.enum(["save", "unsave", "track", "untrack"]) });

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await auth.requireUser(request);
  const objectID = ObjectID.safeParse(params.objectID);
  if (!objectID.success) throw notFound();
  const form = Intent.safeParse(Object.fromEntries(await request.formData()));
  if (!form.success) return data({ ok: false as const, message: "Unknown action." }, { status: 400 });
  const run = {
    save: products.saveProduct,
    unsave: products.unsaveProduct,
    track: products.trackProduct,
    untrack: products.untrackProduct,
  }[form.data.intent];
  try {
    return { ok: true as const, ...(await run(user.id, objectID.data)) };
  } catch (error) {
    if (error instanceof ProductNotFoundError) throw notFound();
    throw error;
  }
}

/** A button that posts one intent; it shows the state it will have, so a click feels instant. */
function ToggleButton({ on, onLabel, offLabel, onIntent, offIntent }: { on: boolean; onLabel: string; offLabel: string; onIntent: string; offIntent: string }) {
  const fetcher = useFetcher<typeof action>();
  const pending = fetcher.formData?.get("intent");
  const shownOn = pending ? pending === onIntent : on;
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value={shownOn ? offIntent : onIntent} />
      <Button submit pressed={shownOn} variant={shownOn ? "secondary" : "primary"}>
        {shownOn ? onLabel : offLabel}
      </Button>
    </fetcher.Form>
  );
}

export default function ProductPage() {
  const { product, access } = useLoaderData<typeof loader>();
  const backAction = { content: "Products", url: useLastSearchUrl("/dashboard/products") };
  const history = product.history;

  return (
    <Page
      title={product.title}
      titleMetadata={<Text as="span" tone="subdued">{product.niches.map(nicheLabel).join(" · ")}</Text>}
      subtitle={`Last updated ${formatDay(product.lastUpdatedAt)} · First seen ${formatDay(product.firstSeenAt)}`}
      backAction={backAction}
    >
      <Layout>
        <Layout.Section variant="fullWidth">
          <InlineStack gap="200">
            <ToggleButton on={product.saved} onLabel="Saved" offLabel="Save product" onIntent="save" offIntent="unsave" />
            <ToggleButton on={product.tracked} onLabel="Tracking" offLabel="Track changes" onIntent="track" offIntent="untrack" />
            {product.saved ? <Button url="/dashboard/saved" variant="plain">Open saved products</Button> : null}
          </InlineStack>
        </Layout.Section>
        {product.sinceTracking ? (
          <Layout.Section variant="fullWidth">
            <TrackingChange since={product.sinceTracking} />
          </Layout.Section>
        ) : null}
        <Layout.Section variant="oneThird">
          <BlockStack gap="400">
            <ProductGallery images={product.images} title={product.title} />
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  About this product
                </Text>
                <Text as="p">{product.description}</Text>
                {product.tags.length > 0 ? (
                  <InlineStack gap="100">
                    {product.tags.map((t) => (
                      <Badge key={t}>{t}</Badge>
                    ))}
                  </InlineStack>
                ) : null}
              </BlockStack>
            </Card>
          </BlockStack>
        </Layout.Section>
        <Layout.Section>
          <BlockStack gap="400">
            <ProductInsights product={product} />
            {access.insights ? null : <UpgradePrompt reason={access.lockedReason} upgradeUrl={UPGRADE_URL} />}
            {history ? (
              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    Trend
                  </Text>
                  <TrendChart
                    startDay={history.startDay}
                    series={[
                      { label: "Orders per day", values: history.orders, color: "#0b6e4f" },
                      { label: "Views per day", values: history.views, color: "#2c6ecb" },
                    ]}
                  />
                </BlockStack>
              </Card>
            ) : null}
            <ProductMetrics product={product} />
            <ProductSourcing product={product} />
            {access.insights && product.insights ? (
              <ProfitCalculator
                defaults={{ priceCents: product.priceCents, costCents: product.insights.costCents, shippingCents: product.insights.shippingCents }}
              />
            ) : null}
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const missing = isRouteErrorResponse(error) && error.status === 404;
  if (!missing) captureRemixErrorBoundaryError(error);
  return (
    <Page title={missing ? "Product not found" : "Something went wrong"} backAction={{ content: "Products", url: "/dashboard/products" }}>
      <Card>
        <BlockStack gap="300">
          <Text as="p">
            {missing
              ? "There is no product with that ID. It may have been removed from the database."
              : "This product could not be shown. It has been reported; please try again."}
          </Text>
          <div>
            <Button url="/dashboard/products" variant="primary">
              Search products
            </Button>
          </div>
        </BlockStack>
      </Card>
    </Page>
  );
}
