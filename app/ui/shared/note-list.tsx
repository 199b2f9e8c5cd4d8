// How a parsed question's notes read wherever they are shown (the assistant's answers, the question box
// above the product grid): a bullet list of small, subdued lines, or nothing when there are none.
import { List, Text } from "@shopify/polaris";

export function NoteList({ notes }: { notes: readonly string[] }) {
  if (notes.length === 0) return null;
  return (
    <List type="bullet">
      {notes.map((n) => (
        <List.Item key={n}>
          <Text as="span" variant="bodySm" tone="subdued">
            {n}
          </Text>
        </List.Item>
      ))}
    </List>
  );
}
