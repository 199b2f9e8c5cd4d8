// The site's operator page: the inbox (bug reports and feedback, newest first, each with a status form), then the
// stores the measured catalogue observes and its status (app/ui/operator/operator-stores.tsx). Answers come from
// app/pages/operator/operator.server.ts. Everything users typed is rendered as text (React escapes it); nothing is
// interpreted as HTML.
import { Form } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, Button, Card, InlineStack, Layout, Page, Select, Text } from "@shopify/polaris";
import { useState, type ComponentType, type ReactNode } from "react";
import { BUG_STATUSES, FEEDBACK_STATUSES } from "~/domain/feedback";
import type { OperatorActionResult, OperatorPageData } from "~/pages/operator/operator.server";
import type { Inbox } from "~/services/feedback.server";
import { OperatorStores } from "~/ui/operator/operator-stores";

type FormLike = ComponentType<{ method: "post"; children?: ReactNode }>;

const when = (iso: string) => iso.replace("T", " ").slice(0, 16) + " UTC";
const toneOf = (status: string) =>
  status === "new" ? "attention" : status === "fixed" || status === "done" ? "success" : status === "wontfix" ? undefined : "info";

function StatusForm({ intent, id, status, options, FormComponent }: { intent: string; id: number; status: string; options: readonly string[]; FormComponent: FormLike }) {
  const [value, setValue] = useState(status);
  return (
    <FormComponent method="post">
      <InlineStack gap="200" blockAlign="end">
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="id" value={id} />
        <Select label="Status" labelInline name="status" options={options.map((o) => ({ label: o, value: o }))} value={value} onChange={setValue} />
        <Button submit size="slim">
          Save
        </Button>
      </InlineStack>
    </FormComponent>
  );
}

/** The user's own words, shown as text with its line breaks. */
function UserText({ children }: { children: string }) {
  return <div style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>{children}</div>;
}

/**
 * The inbox itself, without data loading, so tests can render it on its own. `FormComponent` is
 * Remix's Form on the site (a plain <form> works too: the action handles both).
 */
export function OperatorInbox({ inbox, FormComponent = "form" as unknown as FormLike }: { inbox: Inbox; FormComponent?: FormLike }) {
  return (
    <Layout>
      <InboxSection title={`Bug reports, newest first (${inbox.bugs.length})`} empty={inbox.bugs.length === 0 ? "No bug reports yet." : null}>
        {inbox.bugs.map((bug) => (
          <InboxItem key={bug.id} title={`Bug #${bug.id}`} status={bug.status} when={bug.createdAt} reporter={bug.reporter} text={bug.description}>
            <Text as="p" variant="bodySm" tone="subdued">
              Page: {bug.pageUrl ?? "not captured"}
            </Text>
            <Text as="p" variant="bodySm" tone="subdued">
              Browser: {bug.userAgent ?? "not captured"}
            </Text>
            <StatusForm intent="bug-status" id={bug.id} status={bug.status} options={BUG_STATUSES} FormComponent={FormComponent} />
          </InboxItem>
        ))}
      </InboxSection>
      <InboxSection title={`Feedback, newest first (${inbox.feedback.length})`} empty={inbox.feedback.length === 0 ? "No feedback yet." : null}>
        {inbox.feedback.map((item) => (
          <InboxItem
            key={item.id}
            title={`Feedback #${item.id}`}
            status={item.status}
            rating={item.rating}
            when={item.createdAt}
            reporter={item.reporter}
            text={item.message}
          >
            {item.pageUrl ? (
              <Text as="p" variant="bodySm" tone="subdued">
                Page: {item.pageUrl}
              </Text>
            ) : null}
            <StatusForm intent="feedback-status" id={item.id} status={item.status} options={FEEDBACK_STATUSES} FormComponent={FormComponent} />
          </InboxItem>
        ))}
      </InboxSection>
    </Layout>
  );
}

/** One list of the inbox in its card: a heading with its count, and a line when it is empty. */
function InboxSection({ title, empty, children }: { title: string; empty: string | null; children: ReactNode }) {
  return (
    <Layout.Section>
      <Card>
        <BlockStack gap="400">
          <Text as="h2" variant="headingMd">
            {title}
          </Text>
          {empty ? (
            <Text as="p" tone="subdued">
              {empty}
            </Text>
          ) : null}
          {children}
        </BlockStack>
      </Card>
    </Layout.Section>
  );
}

/** A bug report or a feedback: its number, status (and rating), when and who, the user's words, then the rest. */
function InboxItem(props: { title: string; status: string; rating?: number | null; when: string; reporter: string; text: string; children: ReactNode }) {
  return (
    <Box padding="300" borderWidth="025" borderColor="border" borderRadius="200">
      <BlockStack gap="200">
        <InlineStack gap="200" blockAlign="center">
          <Text as="h3" variant="headingSm">
            {props.title}
          </Text>
          <Badge tone={toneOf(props.status)}>{props.status}</Badge>
          {props.rating ? <Badge>{`${props.rating} / 5`}</Badge> : null}
          <Text as="span" tone="subdued">
            {when(props.when)} · {props.reporter}
          </Text>
        </InlineStack>
        <UserText>{props.text}</UserText>
        {props.children}
      </BlockStack>
    </Box>
  );
}

export function OperatorPage({ data, result }: { data: OperatorPageData; result: OperatorActionResult | undefined }) {
  return (
    <Page title="Operator inbox" subtitle="Bug reports and feedback from users, observed stores and the measured catalogue" backAction={{ content: "Feedback", url: "/dashboard/feedback" }}>
      <BlockStack gap="400">
        {result ? (
          <Banner tone={result.ok ? "success" : "critical"}>
            <p>{result.message}</p>
          </Banner>
        ) : null}
        <OperatorInbox inbox={data.inbox} FormComponent={Form as unknown as FormLike} />
        <OperatorStores stores={data.observed.stores} catalogue={data.observed.catalogue} discovery={data.observed.discovery} FormComponent={Form as unknown as FormLike} />
      </BlockStack>
    </Page>
  );
}
