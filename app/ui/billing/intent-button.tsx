// A button that posts one intent to the Billing & credits page's action (and a feature, for the test tools), shown
// busy while that very intent is on its way.
import { Form, useNavigation } from "@remix-run/react";
import { Button } from "@shopify/polaris";

export function IntentButton({
  intent,
  children,
  tone,
  variant,
  feature,
}: {
  intent: string;
  children: string;
  tone?: "critical";
  variant?: "primary" | "plain";
  feature?: string;
}) {
  const navigation = useNavigation();
  const busy =
    navigation.state !== "idle" &&
    navigation.formData?.get("intent") === intent &&
    navigation.formData?.get("feature") === (feature ?? null);
  return (
    <Form method="post" style={{ display: "inline" }}>
      <input type="hidden" name="intent" value={intent} />
      {feature ? <input type="hidden" name="feature" value={feature} /> : null}
      <Button submit tone={tone} variant={variant} loading={busy}>
        {children}
      </Button>
    </Form>
  );
}
