// The question box above the product grid: a question in plain words ("pet products under $30 that are
// rising") fills the grid's filters instead of searching the words as text. It asks GET
// /api/products/parse (the research assistant's parser, docs/decisions/031) and opens the grid at the
// filters it answers, where they stay visible and editable; how the words were read is shown under the box.
import { useLocation, useNavigate } from "@remix-run/react";
import { Badge, BlockStack, Button, Card, InlineStack, Text, TextField } from "@shopify/polaris";
import { useEffect, useState, type FormEvent } from "react";
import { QUESTION_MAX_CHARS } from "~/domain/products/product-question";
import { NoteList } from "~/ui/shared/note-list";

interface ParseAnswer {
  gridParams?: string;
  sourceLabel?: string | null;
  notes?: string[];
  problem?: string | null;
  error?: string;
}

interface QuestionState {
  question: string;
  sourceLabel: string | null;
  notes: string[];
}

function questionState(state: unknown): QuestionState | null {
  const s = (state as { question?: QuestionState } | null)?.question;
  return s && typeof s.question === "string" ? s : null;
}

/**
 * Asks the parser for a question's filters and opens the grid at them, with how the words were read; the
 * sentence why not when it cannot. Used by this box and by the search box when its text reads as a question
 * (readsAsQuestion, issue 35).
 */
export function useAskInPlainWords(gridPath: string) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);

  // A plain fetch (inside Shopify admin, App Bridge adds the session token): a refusal is shown on the
  // field instead of reaching the page's error boundary.
  async function ask(question: string): Promise<string | null> {
    const q = question.trim();
    setBusy(true);
    try {
      const res = await fetch(`/api/products/parse?${new URLSearchParams({ q }).toString()}`, { headers: { accept: "application/json" } });
      const answer = (await res.json().catch(() => ({}))) as ParseAnswer;
      if (!res.ok || answer.gridParams === undefined) return answer.error ?? "The question could not be read. Try again in a moment.";
      const state: QuestionState = { question: q, sourceLabel: answer.sourceLabel ?? null, notes: [...(answer.notes ?? []), ...(answer.problem ? [answer.problem] : [])] };
      navigate(answer.gridParams ? `${gridPath}?${answer.gridParams}` : gridPath, { state: { question: state } });
      return null;
    } catch {
      return "The question could not be sent. Check your connection and try again.";
    } finally {
      setBusy(false);
    }
  }
  return { ask, busy };
}

export function QuestionBox({ gridPath }: { gridPath: string }) {
  const location = useLocation();
  const shown = questionState(location.state);
  const [text, setText] = useState(shown?.question ?? "");
  // A question typed in the search box is answered here too: the box shows it with how it was read.
  const answered = shown?.question;
  useEffect(() => {
    if (answered) setText(answered);
  }, [answered]);
  const { ask, busy } = useAskInPlainWords(gridPath);
  const [error, setError] = useState<string | undefined>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) return;
    setError(undefined);
    setError((await ask(text)) ?? undefined);
  }

  return (
    <Card>
      <form onSubmit={submit} role="search" aria-label="Question in plain words">
        <BlockStack gap="200">
          <TextField
            label="Ask in plain words"
            value={text}
            onChange={setText}
            autoComplete="off"
            maxLength={QUESTION_MAX_CHARS}
            placeholder="e.g. pet products under $30 with high margin that are rising"
            helpText="Fills the filters below; change them as you like."
            error={error}
            connectedRight={
              <Button submit loading={busy} disabled={text.trim() === ""}>
                Fill the filters
              </Button>
            }
          />
          {shown && (shown.notes.length > 0 || shown.sourceLabel) ? (
            <BlockStack gap="100">
              {shown.sourceLabel ? (
                <InlineStack gap="200" blockAlign="center">
                  <Text as="span" variant="bodySm" tone="subdued">
                    {`Filters for “${shown.question}”`}
                  </Text>
                  <Badge>{shown.sourceLabel}</Badge>
                </InlineStack>
              ) : null}
              <NoteList notes={shown.notes} />
            </BlockStack>
          ) : null}
        </BlockStack>
      </form>
    </Card>
  );
}
