// The Billing & credits page, the same on the site (/dashboard/billing) and in Shopify admin
// (/app/billing): plan and status, next bill, cancel with the retention offer, extend the trial, the
// credit balances and their history. Its loader and action are app/pages/billing/billing.server.ts.
// What differs inside the admin: Paddle's checkout cannot open in its iframe, so buying a plan and
// changing the card open the site in a new tab through a one-time sign-in link (app/ui/accounts/handoff.tsx).
// With SHOPIFY_BILLING=on the admin sells through Shopify instead (docs/decisions/034): the plan cards
// and credit packs ask for a Shopify charge and send the admin's top frame to Shopify's confirmation page.
// This file decides which cards show and on which rail; each card is its own part beside it: the notices above
// the cards (billing-notices), the plan (current-plan, with choose-plan and plan-switch), the way out (cancel-step),
// the balances and history (credit-ledger), the credit packs (credit-packs) and the local checkout's test tools
// (local-test-tools).
import { useSearchParams } from "@remix-run/react";
import { useEffect } from "react";
import { Layout, Page } from "@shopify/polaris";
import { planStatusLine, planView } from "~/domain/billing/billing";
import { HandoffNoticeSection, useHandoff } from "~/ui/accounts/handoff";
import type { BilledBy, BillingOutcome, BillingPageData } from "~/ui/billing/billing-data";
import { BillingNotices } from "~/ui/billing/billing-notices";
import { CancelStep } from "~/ui/billing/cancel-step";
import { CreditBalances, CreditHistory } from "~/ui/billing/credit-ledger";
import { CreditPacks } from "~/ui/billing/credit-packs";
import { CurrentPlan } from "~/ui/billing/current-plan";
import { LocalTestTools } from "~/ui/billing/local-test-tools";
import { researchPaths, type Surface } from "~/ui/research/research-paths";

export interface SubscriptionDates {
  status: string;
  nextBilledAt: string | null;
  scheduledChange: string | null;
  scheduledChangeAt: string | null;
}

/** Where a subscription stands, in one sentence: trial end, next bill, or when it ends (app/domain/billing/billing.ts). */
export function subscriptionLine(sub: SubscriptionDates): string {
  return planStatusLine(sub);
}

export function BillingAndCreditsPage({
  data,
  actionData,
  surface,
}: {
  data: BillingPageData;
  actionData: BillingOutcome | undefined;
  surface: Surface;
}) {
  const { user, overview, balances, history, offer, paddle, local, shopify, trialExtension, creditPacks } = data;
  const handoff = useHandoff();
  const shopifyRail = shopify.rail;
  // Where the plan is billed, when it is not where this page would change it (docs/decisions/034).
  const billedBy: BilledBy = overview.subscription?.provider === "shopify" ? "shopify" : "paddle";
  const managedElsewhere =
    overview.subscription && overview.subscription.status !== "canceled"
      ? billedBy === "shopify"
        ? !shopifyRail
        : shopifyRail
      : false;
  const topUrl = actionData?.topUrl ?? null;
  useEffect(() => {
    // App Bridge lets the embedded app navigate the admin's top frame this way (Shopify's confirmation page).
    if (topUrl) window.open(topUrl, "_top");
  }, [topUrl]);
  const [params] = useSearchParams();
  const billingPath = researchPaths(surface).billing;
  const sub = overview.subscription;
  const view = sub ? planView(sub, overview) : null;
  const cancelStep = params.get("step") === "cancel" && sub && view?.cancelStep.available;

  return (
    <Page
      title="Billing & credits"
      backAction={surface === "site" ? { content: "Overview", url: "/dashboard?location=dashboard" } : undefined}
    >
      <Layout>
        <HandoffNoticeSection handoff={handoff} />
        <BillingNotices shopify={shopify} actionData={actionData} paddle={paddle} user={user} billingPath={billingPath} />

        <Layout.Section>
          <CurrentPlan
            data={data}
            sub={sub}
            view={view}
            billedBy={billedBy}
            managedElsewhere={managedElsewhere}
            surface={surface}
            handoff={handoff}
            billingPath={billingPath}
          />
        </Layout.Section>

        {cancelStep ? (
          <Layout.Section>
            <CancelStep planName={sub.planName} step={view.cancelStep} offer={offer} trialExtension={trialExtension} billedBy={billedBy} />
          </Layout.Section>
        ) : null}

        <Layout.Section>
          <CreditBalances balances={balances} history={history} />
        </Layout.Section>

        {creditPacks ? (
          <Layout.Section>
            <div id="buy-credits">
              <CreditPacks
                packs={creditPacks}
                surface={surface}
                handoff={handoff}
                paddle={paddle}
                user={user}
                successUrl={billingPath}
              />
            </div>
          </Layout.Section>
        ) : null}

        <Layout.Section>
          <CreditHistory history={history} surface={surface} />
        </Layout.Section>

        {local ? (
          <Layout.Section>
            <LocalTestTools subscriptionEvents={Boolean(sub && sub.status !== "canceled" && billedBy !== "shopify")} />
          </Layout.Section>
        ) : null}
      </Layout>
    </Page>
  );
}
