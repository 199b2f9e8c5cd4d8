// The research assistant page, the same on the site (/dashboard/assistant) and in Shopify admin
// (/app/assistant): the user's threads, the open conversation, and the question box. Every answer says
// where its query came from ("from the AI model" / "from the built-in parser"), shows the filters it used
// as a link that opens them in the product grid, and lists its products with why each fits. Its loader
// and action are app/pages/research/assistant.server.ts; inside the admin every link stays under /app.
import type { SerializeFrom } from "@remix-run/node";
import { useFetcher, useNavigate } from "@remix-run/react";
import { Badge, BlockStack, Box, Button, Card, InlineStack, Layout, Link, Page, Text, TextField } from "@shopify/polaris";
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import type { assistantPageAction, loadAssistantPage } from "~/pages/research/assistant.server";
import type { MessageView } from "~/services/assistant.server";
import { NoteList } from "~/ui/shared/note-list";
import { NoticeSection } from "~/ui/shared/page-banners";
import { ProductImage, SourceBadge } from "~/ui/research/product-card";
import { researchPaths, type ResearchPaths, type Surface } from "~/ui/research/research-paths";

export type AssistantPageData = SerializeFrom<typeof loadAssistantPage>;

const EXAMPLES = ["pet products under $30 with high margin that are rising", "something like the posture corrector but cheaper", "best selling kitchen gadgets"];

function Answer({ message, paths }: { message: SerializeFrom<MessageView>; paths: ResearchPaths }) {
  const gridUrl = `${paths.products}${message.gridParams ? `?${message.gridParams}` : ""}`;
  return (
    <BlockStack gap="300">
      <InlineStack gap="200" blockAlign="center">
        <Text as="span" variant="headingSm">
          Assistant
        </Text>
        {message.sourceLabel ? <Badge tone={message.source === "AI model" ? "info" : undefined}>{message.sourceLabel}</Badge> : null}
      </InlineStack>
      <Text as="p">{message.text}</Text>
      <NoteList notes={message.notes} />
      {message.gridParams !== null ? (
        <div>
          <Link url={gridUrl}>Open these filters in the product grid</Link>
        </div>
      ) : null}
      {message.products.length > 0 ? (
        <ul aria-label="Products in this answer" style={{ listStyle: "none", margin: 0, padding: 0, display: "grid", gap: "var(--p-space-200)" }}>
          {message.products.map((p, i) => (
            <li key={p.objectID}>
              <Box padding="200" borderWidth="025" borderColor="border" borderRadius="200">
                <InlineStack gap="300" blockAlign="center" wrap={false}>
                  <ProductImage src={p.image} alt="" size={48} />
                  <BlockStack gap="050">
                    <Link url={paths.product(p.objectID)} removeUnderline>
                      <Text as="span" variant="headingSm">
                        {`${i + 1}. ${p.title}`}
                      </Text>
                    </Link>
                    <InlineStack>
                      <SourceBadge product={p} />
                    </InlineStack>
                    <Text as="p" variant="bodySm" tone="subdued">
                      {p.why.join(" · ")}
                    </Text>
                  </BlockStack>
                </InlineStack>
              </Box>
            </li>
          ))}
        </ul>
      ) : null}
    </BlockStack>
  );
}

function ThreadTools({ thread }: { thread: { id: number; title: string } }) {
  const rename = useFetcher<typeof assistantPageAction>();
  const remove = useFetcher<typeof assistantPageAction>();
  const [title, setTitle] = useState(thread.title);
  const [editing, setEditing] = useState(false);
  const failed = rename.data && !rename.data.ok ? rename.data.message : undefined;
  useEffect(() => {
    if (rename.state === "idle" && rename.data?.ok) setEditing(false);
  }, [rename.state, rename.data]);
  if (!editing) {
    return (
      <InlineStack gap="200">
        <Button variant="plain" onClick={() => setEditing(true)}>
          Rename
        </Button>
        <remove.Form method="post">
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="threadId" value={thread.id} />
          <Button submit variant="plain" tone="critical" loading={remove.state !== "idle"}>
            Delete thread
          </Button>
        </remove.Form>
      </InlineStack>
    );
  }
  return (
    <rename.Form method="post">
      <input type="hidden" name="intent" value="rename" />
      <input type="hidden" name="threadId" value={thread.id} />
      <BlockStack gap="200">
        <TextField label="Thread title" name="title" value={title} onChange={setTitle} autoComplete="off" maxLength={80} error={failed} />
        <InlineStack gap="200">
          <Button submit variant="primary" loading={rename.state !== "idle"}>
            Save title
          </Button>
          <Button onClick={() => setEditing(false)}>Cancel</Button>
        </InlineStack>
      </BlockStack>
    </rename.Form>
  );
}

/** Enter in the question sends it (unless composing an accented letter or holding Shift for a new line). */
function sendOnEnter(event: KeyboardEvent<HTMLDivElement>) {
  if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
  const target = event.target as HTMLElement;
  if (target.tagName !== "TEXTAREA") return;
  event.preventDefault();
  if ((target as HTMLTextAreaElement).value.trim() === "") return;
  target.closest("form")?.requestSubmit();
}

function QuestionForm({ threadId, max }: { threadId: number | null; max: number }) {
  const ask = useFetcher<typeof assistantPageAction>();
  const navigate = useNavigate();
  const [text, setText] = useState("");
  const busy = ask.state !== "idle";
  const failed = ask.state === "idle" && ask.data && !ask.data.ok ? ask.data.message : undefined;
  const handled = useRef<unknown>(null);
  useEffect(() => {
    if (ask.state !== "idle" || !ask.data || handled.current === ask.data) return;
    handled.current = ask.data;
    if (ask.data.ok) {
      setText("");
      if (ask.data.threadId !== threadId) navigate(`?thread=${ask.data.threadId}`);
    }
  }, [ask.state, ask.data, threadId, navigate]);
  return (
    <ask.Form method="post" aria-label="Ask the assistant">
      <input type="hidden" name="intent" value="ask" />
      {threadId !== null ? <input type="hidden" name="threadId" value={threadId} /> : null}
      <BlockStack gap="200">
        {/* Enter sends, Shift+Enter starts a new line (issue 25); the key bubbles up from Polaris' textarea. */}
        <div onKeyDown={sendOnEnter}>
          <TextField
            label="Ask about products"
            name="text"
            value={text}
            onChange={setText}
            autoComplete="off"
            multiline={2}
            maxLength={max}
            showCharacterCount
            placeholder={`Try “${EXAMPLES[0]}”`}
            helpText="Enter sends, Shift+Enter adds a line. A follow-up refines the last answer: “cheaper”, “only rising ones”, “more like the second”, “sort by margin”."
            error={failed}
          />
        </div>
        <InlineStack align="end">
          <Button submit variant="primary" loading={busy} disabled={text.trim() === ""}>
            Ask
          </Button>
        </InlineStack>
      </BlockStack>
    </ask.Form>
  );
}

export function AssistantPage({ data, surface }: { data: AssistantPageData; surface: Surface }) {
  const { threads, current, notice, questionMax, modelConfigured } = data;
  const paths = researchPaths(surface);
  const startNew = useFetcher<typeof assistantPageAction>();
  const navigate = useNavigate();
  useEffect(() => {
    if (startNew.state === "idle" && startNew.data?.ok && startNew.data.threadId) navigate(`?thread=${startNew.data.threadId}`);
  }, [startNew.state, startNew.data, navigate]);
  const currentId = current?.thread.id ?? null;

  return (
    <Page
      title="Research assistant"
      subtitle={`Ask for products in plain words; each answer shows the filters it used. Questions are read ${modelConfigured ? "by the AI model (the built-in parser steps in when it fails)" : "by the built-in parser"}, and are free.`}
    >
      <Layout>
        <NoticeSection notice={notice} />
        <Layout.Section variant="oneThird">
          <Card>
            <BlockStack gap="300">
              <InlineStack align="space-between" blockAlign="center">
                <Text as="h2" variant="headingMd">
                  Threads
                </Text>
                <startNew.Form method="post">
                  <input type="hidden" name="intent" value="new" />
                  <Button submit loading={startNew.state !== "idle"}>
                    New thread
                  </Button>
                </startNew.Form>
              </InlineStack>
              {threads.length === 0 ? (
                <Text as="p" tone="subdued">
                  No threads yet: ask your first question.
                </Text>
              ) : (
                <ul aria-label="Your threads" style={{ listStyle: "none", margin: 0, padding: 0, display: "grid", gap: "var(--p-space-100)" }}>
                  {threads.map((t) => (
                    <li key={t.id}>
                      <Link url={`?thread=${t.id}`} removeUnderline monochrome={t.id !== currentId}>
                        <Text as="span" fontWeight={t.id === currentId ? "bold" : "regular"}>
                          {t.title}
                        </Text>
                      </Link>
                    </li>
                  ))}
                </ul>
              )}
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="400">
              {current ? (
                <BlockStack gap="200">
                  <Text as="h2" variant="headingMd">
                    {current.thread.title}
                  </Text>
                  <ThreadTools key={current.thread.id} thread={current.thread} />
                </BlockStack>
              ) : (
                <BlockStack gap="200">
                  <Text as="h2" variant="headingMd">
                    Ask the assistant
                  </Text>
                  <Text as="p" tone="subdued">
                    For example: {EXAMPLES.map((e) => `“${e}”`).join(", ")}.
                  </Text>
                </BlockStack>
              )}
              {current && current.messages.length > 0 ? (
                <ol aria-label="Conversation" style={{ listStyle: "none", margin: 0, padding: 0, display: "grid", gap: "var(--p-space-400)" }}>
                  {current.messages.map((m) => (
                    <li key={m.id}>
                      {m.role === "user" ? (
                        <Box background="bg-surface-secondary" padding="300" borderRadius="200">
                          <BlockStack gap="100">
                            <Text as="span" variant="headingSm">
                              You
                            </Text>
                            <Text as="p">{m.text}</Text>
                          </BlockStack>
                        </Box>
                      ) : (
                        <Answer message={m} paths={paths} />
                      )}
                    </li>
                  ))}
                </ol>
              ) : null}
              <QuestionForm key={currentId ?? "none"} threadId={currentId} max={questionMax} />
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
