// The product page description editor (docs/decisions/029): a Markdown text field with a small toolbar
// (bold, italic, heading, lists, link) that writes the Markdown for the seller, so nobody types HTML. The
// page shows the rendered result next to it (ProductPagePreview), as Shopify will receive it.
import { BlockStack, Button, ButtonGroup, InlineStack, TextField } from "@shopify/polaris";
import { useId } from "react";

export type MarkdownFormat = "bold" | "italic" | "heading" | "bullets" | "numbers" | "link";

export interface Edited {
  value: string;
  selectionStart: number;
  selectionEnd: number;
}

/**
 * Applies a toolbar action to the text and its selection: bold/italic wrap the selection (or a
 * placeholder word) in ** / *; heading and lists prefix each selected line; link wraps the selection as
 * [text](https://). Pure, so it is unit-tested without a browser.
 */
export function applyMarkdownFormat(value: string, start: number, end: number, format: MarkdownFormat): Edited {
  const from = Math.max(0, Math.min(start, end, value.length));
  const to = Math.min(value.length, Math.max(start, end));
  const selected = value.slice(from, to);
  if (format === "bold" || format === "italic" || format === "link") {
    const [open, close, placeholder] =
      format === "bold" ? ["**", "**", "bold text"] : format === "italic" ? ["*", "*", "italic text"] : ["[", "](https://)", "link text"];
    // Markers hug the words: spaces selected with them stay outside.
    const lead = /^\s*/.exec(selected)![0];
    const trail = selected.trim() === "" ? "" : /\s*$/.exec(selected)![0];
    const core = selected.trim() === "" ? placeholder : selected.trim();
    const inserted = `${lead}${open}${core}${close}${trail}`;
    const coreStart = from + lead.length + open.length;
    return {
      value: value.slice(0, from) + inserted + value.slice(to),
      selectionStart: format === "link" ? coreStart + core.length + 2 : coreStart,
      selectionEnd: format === "link" ? coreStart + core.length + close.length - 1 : coreStart + core.length,
    };
  }
  // Line formats work on whole lines.
  const lineStart = value.lastIndexOf("\n", from - 1) + 1;
  const nextBreak = value.indexOf("\n", Math.max(to - (to > from && value[to - 1] === "\n" ? 1 : 0), from));
  const lineEnd = nextBreak < 0 ? value.length : nextBreak;
  const lines = value.slice(lineStart, lineEnd).split("\n");
  const strip = (line: string) => line.replace(/^\s*(?:#{1,6}\s+|[-*+]\s+|\d{1,9}[.)]\s+)/, "");
  const formatted = lines.map((line, i) => {
    const text = strip(line);
    if (format === "heading") return `## ${text}`;
    if (format === "bullets") return `- ${text}`;
    return `${i + 1}. ${text}`;
  });
  const block = formatted.join("\n");
  return {
    value: value.slice(0, lineStart) + block + value.slice(lineEnd),
    selectionStart: lineStart,
    selectionEnd: lineStart + block.length,
  };
}

const TOOLS: { format: MarkdownFormat; label: string; text: string }[] = [
  { format: "bold", label: "Bold", text: "B" },
  { format: "italic", label: "Italic", text: "I" },
  { format: "heading", label: "Heading", text: "H" },
  { format: "bullets", label: "Bulleted list", text: "• List" },
  { format: "numbers", label: "Numbered list", text: "1. List" },
  { format: "link", label: "Link", text: "Link" },
];

export function MarkdownDescriptionField({
  label,
  name,
  value,
  onChange,
  error,
  helpText,
}: {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  helpText?: string;
}) {
  const id = `markdown-${useId().replace(/:/g, "")}`;
  function format(kind: MarkdownFormat) {
    const field = document.getElementById(id) as HTMLTextAreaElement | null;
    const start = field?.selectionStart ?? value.length;
    const end = field?.selectionEnd ?? value.length;
    const next = applyMarkdownFormat(value, start, end, kind);
    onChange(next.value);
    // After React has put the new text in the field, select what the seller will want to type over.
    requestAnimationFrame(() => {
      const el = document.getElementById(id) as HTMLTextAreaElement | null;
      if (!el) return;
      el.focus();
      el.setSelectionRange(next.selectionStart, next.selectionEnd);
    });
  }
  return (
    <BlockStack gap="100">
      <InlineStack gap="200" blockAlign="center">
        <div role="toolbar" aria-label={`Format the ${label.toLowerCase()}`} aria-controls={id}>
          <ButtonGroup variant="segmented">
            {TOOLS.map((tool) => (
              <Button key={tool.format} size="slim" accessibilityLabel={tool.label} onClick={() => format(tool.format)}>
                {tool.text}
              </Button>
            ))}
          </ButtonGroup>
        </div>
      </InlineStack>
      <TextField
        id={id}
        label={label}
        name={name}
        value={value}
        onChange={onChange}
        multiline={8}
        autoComplete="off"
        spellCheck
        helpText={helpText}
        error={error}
      />
    </BlockStack>
  );
}
