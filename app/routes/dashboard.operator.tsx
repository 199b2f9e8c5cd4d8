// /dashboard/operator: the operator inbox. Bug reports newest first (createdAt descending, seed bugs)
// and feedback, each with a status an operator can change; then the stores the measured catalogue observes and
// its status (app/pages/operator-stores-page.server.ts, docs/decisions/047). Only users with isOperator (set by
// `npm run operator -- EMAIL`); everyone else gets 404, as if the page did not exist.
// Everything users typed is rendered as text (React escapes it); nothing is interpreted as HTML.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, Button, Card, InlineStack, Layout, Page, Select, Text } from "@shopify/polaris";
import { useState, type ComponentType, type ReactNode } from "react";
import { z } from "zod";
import { BUG_STATUSES, FEEDBACK_STATUSES } from "~/domain/feedback";
import { handleServiceErrors, readForm } from "~/pages/http.server";
import type { Inbox } from "~/services/feedback.server";
import { requireUser } from "~/pages/site-session.server";
import { feedback } from "~/services/index.server";
import { loadObservedStores, observedStoresAction, STORE_INTENTS } from "~/pages/operator-stores-page.server";
import { OperatorStores } from "~/ui/operator-stores";

export const meta: MetaFunction = () => [{ title: "Operator inbox · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  await handleServiceErrors(() => feedback.requireOperator(user.id));
  const [inbox, observed] = await Promise.all([feedback.listInbox(), loadObservedStores()]);
  return { inbox, observed };
}

const StatusChange = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("bug-status"), id: z.coerce.number().int().positive(), status: z.enum(BUG_STATUSES) }),
  z.object({ intent: z.literal("feedback-status"), id: z.coerce.number().int().positive(), status: z.enum(FEEDBACK_STATUSES) }),
]);

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  await handleServiceErrors(() => feedback.requireOperator(user.id));
  const form = await readForm(request);
  if ((STORE_INTENTS as readonly string[]).includes(String(form.get("intent")))) return observedStoresAction(form);
  const parsed = StatusChange.safeParse(Object.fromEntries(form));
  if (!parsed.success) return data({ ok: false, message: "That status change is not valid." }, { status: 400 });
  const { intent, id, status } = parsed.data;
  const found =
    intent === "bug-status" ? await feedback.setBugStatus(id, status) : await feedback.setFeedbackStatus(id, status as (typeof FEEDBACK_STATUSES)[number]);
  if (!found) return data({ ok: false, message: `There is no ${intent === "bug-status" ? "bug report" : "feedback"} #${id}.` }, { status: 404 });
  return { ok: true, message: `${intent === "bug-status" ? "Bug report" : "Feedback"} #${id} is now "${status}".` };
}

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
      <Layout.Section>
        <Card>
          <BlockStack gap="400">
            <Text as="h2" variant="headingMd">
              Bug reports, newest first ({inbox.bugs.length})
            </Text>
            {inbox.bugs.length === 0 ? (
              <Text as="p" tone="subdued">
                No bug reports yet.
              </Text>
            ) : null}
            {inbox.bugs.map((bug) => (
              <Box key={bug.id} padding="300" borderWidth="025" borderColor="border" borderRadius="200">
                <BlockStack gap="200">
                  <InlineStack gap="200" blockAlign="center">
                    <Text as="h3" variant="headingSm">{`Bug #${bug.id}`}</Text>
                    <Badge tone={toneOf(bug.status)}>{bug.status}</Badge>
                    <Text as="span" tone="subdued">
                      {when(bug.createdAt)} · {bug.reporter}
                    </Text>
                  </InlineStack>
                  <UserText>{bug.description}</UserText>
                  <Text as="p" variant="bodySm" tone="subdued">
                    Page: {bug.pageUrl ?? "not captured"}
                  </Text>
                  <Text as="p" variant="bodySm" tone="subdued">
                    Browser: {bug.userAgent ?? "not captured"}
                  </Text>
                  <StatusForm intent="bug-status" id={bug.id} status={bug.status} options={BUG_STATUSES} FormComponent={FormComponent} />
                </BlockStack>
              </Box>
            ))}
          </BlockStack>
        </Card>
      </Layout.Section>
      <Layout.Section>
        <Card>
          <BlockStack gap="400">
            <Text as="h2" variant="headingMd">
              Feedback, newest first ({inbox.feedback.length})
            </Text>
            {inbox.feedback.length === 0 ? (
              <Text as="p" tone="subdued">
                No feedback yet.
              </Text>
            ) : null}
            {inbox.feedback.map((item) => (
              <Box key={item.id} padding="300" borderWidth="025" borderColor="border" borderRadius="200">
                <BlockStack gap="200">
                  <InlineStack gap="200" blockAlign="center">
                    <Text as="h3" variant="headingSm">{`Feedback #${item.id}`}</Text>
                    <Badge tone={toneOf(item.status)}>{item.status}</Badge>
                    {item.rating ? <Badge>{`${item.rating} / 5`}</Badge> : null}
                    <Text as="span" tone="subdued">
                      {when(item.createdAt)} · {item.reporter}
                    </Text>
                  </InlineStack>
                  <UserText>{item.message}</UserText>
                  {item.pageUrl ? (
                    <Text as="p" variant="bodySm" tone="subdued">
                      Page: {item.pageUrl}
                    </Text>
                  ) : null}
                  <StatusForm intent="feedback-status" id={item.id} status={item.status} options={FEEDBACK_STATUSES} FormComponent={FormComponent} />
                </BlockStack>
              </Box>
            ))}
          </BlockStack>
        </Card>
      </Layout.Section>
    </Layout>
  );
}

export default function OperatorPage() {
  const { inbox, observed } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <Page title="Operator inbox" subtitle="Bug reports and feedback from users, observed stores and the measured catalogue" backAction={{ content: "Feedback", url: "/dashboard/feedback" }}>
      <BlockStack gap="400">
        {result ? (
          <Banner tone={result.ok ? "success" : "critical"}>
            <p>{result.message}</p>
          </Banner>
        ) : null}
        <OperatorInbox inbox={inbox} FormComponent={Form as unknown as FormLike} />
        <OperatorStores stores={observed.stores} catalogue={observed.catalogue} FormComponent={Form as unknown as FormLike} />
      </BlockStack>
    </Page>
  );
}
