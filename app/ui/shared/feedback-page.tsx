// The site's feedback page: a feedback form (message, optional rating 1-5) and a bug report form (the page
// the user came from and the browser's user agent are attached, and the form says so). Answers come from
// app/pages/feedback/feedback.server.ts.
import { Form, useNavigation, useSearchParams } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, Layout, Page, Select, Text, TextField } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { BUG_MAX_CHARS, FEEDBACK_MAX_CHARS } from "~/domain/feedback";
import type { FeedbackResult } from "~/pages/feedback/feedback.server";

const RATING_OPTIONS = [
  { label: "No rating", value: "" },
  { label: "5 - Excellent", value: "5" },
  { label: "4 - Good", value: "4" },
  { label: "3 - OK", value: "3" },
  { label: "2 - Poor", value: "2" },
  { label: "1 - Bad", value: "1" },
];

/** Where the user was before opening this page (?from=/path, set by the nav), as an absolute URL. */
function usePageContext() {
  const [params] = useSearchParams();
  const [context, setContext] = useState({ pageUrl: "", userAgent: "" });
  const from = params.get("from");
  useEffect(() => {
    const origin = window.location.origin;
    const safeFrom = from && from.startsWith("/") && !from.startsWith("//") ? origin + from : null;
    setContext({ pageUrl: safeFrom ?? (document.referrer || window.location.href), userAgent: navigator.userAgent });
  }, [from]);
  return context;
}

export function FeedbackPage({ operator, result }: { operator: boolean; result: FeedbackResult | undefined }) {
  const navigation = useNavigation();
  const context = usePageContext();
  const [message, setMessage] = useState("");
  const [rating, setRating] = useState("");
  const [description, setDescription] = useState("");
  const busy = (intent: string) => navigation.state !== "idle" && navigation.formData?.get("intent") === intent;

  // Clear a form once it was sent.
  useEffect(() => {
    if (result?.ok && result.form === "feedback") {
      setMessage("");
      setRating("");
    }
    if (result?.ok && result.form === "bug") setDescription("");
  }, [result]);

  const banner = (form: "feedback" | "bug") =>
    result && result.form === form ? (
      <Banner tone={result.ok ? "success" : "critical"}>
        <p>{result.message}</p>
      </Banner>
    ) : null;

  return (
    <Page
      title="Feedback"
      subtitle="Tell us what to improve, or report something that is broken."
      backAction={{ content: "Overview", url: "/dashboard?location=dashboard" }}
      secondaryActions={operator ? [{ content: "Operator inbox", url: "/dashboard/operator" }] : undefined}
    >
      <Layout>
        <Layout.Section variant="oneHalf">
          <Card>
            <Form method="post">
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Send feedback
                </Text>
                {banner("feedback")}
                <input type="hidden" name="intent" value="feedback" />
                <input type="hidden" name="pageUrl" value={context.pageUrl} />
                <TextField
                  label="Your feedback"
                  name="message"
                  value={message}
                  onChange={setMessage}
                  multiline={5}
                  autoComplete="off"
                  maxLength={FEEDBACK_MAX_CHARS}
                  showCharacterCount
                  error={result && !result.ok && result.form === "feedback" && result.field === "message" ? result.message : undefined}
                />
                <Select label="How would you rate the app? (optional)" name="rating" options={RATING_OPTIONS} value={rating} onChange={setRating} />
                <div>
                  <Button submit variant="primary" loading={busy("feedback")}>
                    Send feedback
                  </Button>
                </div>
              </BlockStack>
            </Form>
          </Card>
        </Layout.Section>
        <Layout.Section variant="oneHalf">
          <Card>
            <Form method="post">
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Report a bug
                </Text>
                {banner("bug")}
                <input type="hidden" name="intent" value="bug" />
                <input type="hidden" name="pageUrl" value={context.pageUrl} />
                <input type="hidden" name="userAgent" value={context.userAgent} />
                <TextField
                  label="What happened, and what did you expect?"
                  name="description"
                  value={description}
                  onChange={setDescription}
                  multiline={6}
                  autoComplete="off"
                  maxLength={BUG_MAX_CHARS}
                  showCharacterCount
                  error={result && !result.ok && result.form === "bug" && result.field === "description" ? result.message : undefined}
                />
                <Text as="p" variant="bodySm" tone="subdued">
                  Attached automatically: the page you came from
                  {context.pageUrl ? ` (${context.pageUrl})` : ""} and your browser&apos;s user agent.
                </Text>
                <div>
                  <Button submit variant="primary" loading={busy("bug")}>
                    Send bug report
                  </Button>
                </div>
              </BlockStack>
            </Form>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
