// The embedded app's linking screen (a shop not linked to a site account yet) and the linked-account
// card of the embedded home and Settings. Polaris, inside app.tsx's AppProvider.
import { useNavigation } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Card,
  InlineStack,
  Layout,
  Page,
  Tabs,
  Text,
} from "@shopify/polaris";
import { useState, type ReactNode } from "react";
import { planStatus, type PlanStatusInput } from "~/domain/billing/billing";
import { subscriptionLine, type SubscriptionDates } from "~/ui/billing/billing-page";
import { EmailPasswordForm } from "~/ui/accounts/email-password-form";
import { TitledCard } from "~/ui/shared/titled-card";

export type LinkMode = "login" | "signup";

export interface LinkScreenProps {
  shop: string;
  mode: LinkMode;
  errors: Partial<Record<string, string>>;
  formError: string | null;
  email: string;
}

export function LinkShopScreen(props: LinkScreenProps) {
  const navigation = useNavigation();
  const [mode, setMode] = useState<LinkMode>(props.mode);
  const tabs = [
    { id: "login", content: "I have an account", panelID: "link-login" },
    { id: "signup", content: "Create an account", panelID: "link-signup" },
  ];
  const submitting = navigation.state === "submitting";

  return (
    <Page title="Link this store to Winning Products" narrowWidth>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <Text as="p">
              Winning Products runs on your Winning Products account: its subscription, credits and saved research are
              the same here and on the website. Sign in once to link <b>{props.shop}</b>; from then on the app opens as
              that account for everyone on this store&apos;s staff.
            </Text>
            {props.formError ? (
              <Banner tone="critical">
                <p>{props.formError}</p>
              </Banner>
            ) : null}
            <Card>
              <Tabs
                tabs={tabs}
                selected={mode === "login" ? 0 : 1}
                onSelect={(i) => setMode(i === 0 ? "login" : "signup")}
              >
                <div style={{ paddingTop: "var(--p-space-400)" }}>
                  <EmailPasswordForm
                    mode={mode}
                    initialEmail={props.email}
                    errors={props.errors}
                    submitLabel={mode === "login" ? "Sign in and link store" : "Create account and link store"}
                    submitting={submitting}
                    hidden={<input type="hidden" name="intent" value={mode} />}
                  />
                </div>
              </Tabs>
            </Card>
            <Text as="p" tone="subdued">
              Your password is checked once to link the store; no sign-in is kept inside Shopify admin. A store can be
              linked to one account; an account can link several stores. You can unlink a store under Settings or
              Stores &amp; themes.
            </Text>
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

/**
 * The site account this shop is linked to, with its plan: on the embedded home and Settings. The
 * caller adds its links (Billing & credits, Settings).
 */
export function LinkedAccountCard({
  email,
  plan,
  subscription,
  children,
}: {
  email: string;
  plan: PlanStatusInput;
  subscription: (SubscriptionDates & { planName: string }) | null;
  children?: ReactNode;
}) {
  const status = planStatus(plan);
  return (
    <TitledCard title="Your account" gap="200">
      <InlineStack gap="200" blockAlign="center">
        <Text as="p">
          Signed in as <b>{email}</b>
        </Text>
        <Badge tone={status.tone}>{`Plan: ${status.label}`}</Badge>
      </InlineStack>
      {subscription ? (
        <Text as="p" tone="subdued">
          {`${subscription.planName}. ${subscriptionLine(subscription)}`}
        </Text>
      ) : null}
      {children}
    </TitledCard>
  );
}
