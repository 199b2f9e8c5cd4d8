// A tiny Markdown renderer for lesson bodies: headings (#, ##, ###), paragraphs, bullet and numbered
// lists, block quotes, **bold**, *italic*, `code` and [links](url). It builds React elements, never
// HTML strings, so every character of the text is escaped by React; no dangerouslySetInnerHTML.
// Links are kept only for http(s), mailto and paths inside the product; anything else (javascript:,
// data:, protocol-relative //host) is shown as plain text. Shared by both surfaces: a surface passes
// `pathFor` to point the product's own paths at its pages (null: no such page there, text only).
import { BlockStack, Box, Link, List, Text } from "@shopify/polaris";
import { Fragment, type ReactNode } from "react";

export type MarkdownBlock =
  | { type: "heading"; level: 1 | 2 | 3; text: string }
  | { type: "paragraph"; text: string }
  | { type: "list"; ordered: boolean; items: string[] }
  | { type: "quote"; text: string };

const HEADING = /^(#{1,3})\s+(.*)$/;
const BULLET = /^\s{0,3}[-*]\s+(.*)$/;
const NUMBERED = /^\s{0,3}\d{1,3}[.)]\s+(.*)$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;

/** Splits Markdown into blocks. Pure, so it is unit-tested on its own. */
export function parseMarkdown(source: string): MarkdownBlock[] {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const blocks: MarkdownBlock[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.trim() === "") {
      i++;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ type: "heading", level: heading[1].length as 1 | 2 | 3, text: heading[2].trim() });
      i++;
      continue;
    }
    const listKind = BULLET.test(line) ? "bullet" : NUMBERED.test(line) ? "numbered" : null;
    if (listKind) {
      const pattern = listKind === "bullet" ? BULLET : NUMBERED;
      const items: string[] = [];
      while (i < lines.length && lines[i].trim() !== "") {
        const item = pattern.exec(lines[i]);
        if (item) items.push(item[1].trim());
        else if (/^\s+\S/.test(lines[i]) && items.length > 0) items[items.length - 1] += ` ${lines[i].trim()}`;
        else break;
        i++;
      }
      blocks.push({ type: "list", ordered: listKind === "numbered", items });
      continue;
    }
    if (QUOTE.test(line)) {
      const parts: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i]) && lines[i].trim() !== "") {
        parts.push(QUOTE.exec(lines[i])![1].trim());
        i++;
      }
      blocks.push({ type: "quote", text: parts.join(" ") });
      continue;
    }
    const parts: string[] = [];
    while (
      i < lines.length &&
      lines[i].trim() !== "" &&
      !HEADING.test(lines[i]) &&
      !BULLET.test(lines[i]) &&
      !NUMBERED.test(lines[i]) &&
      !QUOTE.test(lines[i])
    ) {
      parts.push(lines[i].trim());
      i++;
    }
    blocks.push({ type: "paragraph", text: parts.join(" ") });
  }
  return blocks;
}

/** The link targets we render as links; null means "show the text only". */
export function safeHref(url: string): string | null {
  const u = url.trim();
  if (/^https?:\/\/[^\s]+$/i.test(u) || /^mailto:[^\s]+$/i.test(u)) return u;
  if (/^\/(?!\/)[^\s]*$/.test(u) || /^#[\w-]+$/.test(u)) return u;
  return null;
}

const INLINE = /\*\*(.+?)\*\*|`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)|\*([^*\s](?:[^*]*?[^*\s])?)\*/;

export type PathFor = (path: string) => string | null;

export function renderInline(text: string, keyPrefix = "i", pathFor?: PathFor): ReactNode[] {
  const out: ReactNode[] = [];
  let rest = text;
  let n = 0;
  while (rest.length > 0) {
    const m = INLINE.exec(rest);
    if (!m) {
      out.push(rest);
      break;
    }
    if (m.index > 0) out.push(rest.slice(0, m.index));
    const key = `${keyPrefix}-${n++}`;
    if (m[1] !== undefined) {
      out.push(<strong key={key}>{renderInline(m[1], key, pathFor)}</strong>);
    } else if (m[2] !== undefined) {
      out.push(<code key={key}>{m[2]}</code>);
    } else if (m[3] !== undefined) {
      const safe = safeHref(m[4]);
      const href = safe && pathFor && safe.startsWith("/") ? pathFor(safe) : safe;
      const label = renderInline(m[3], key, pathFor);
      if (!href) out.push(<Fragment key={key}>{label}</Fragment>);
      else
        out.push(
          <Link key={key} url={href} external={/^https?:/i.test(href)}>
            {label}
          </Link>,
        );
    } else if (m[5] !== undefined) {
      out.push(<em key={key}>{renderInline(m[5], key, pathFor)}</em>);
    }
    rest = rest.slice(m.index + m[0].length);
  }
  return out;
}

/**
 * Renders lesson Markdown with Polaris text styles. The page title is the page's only h1, so "#" and
 * "##" (the sections of a lesson) become h2, and "###" h3.
 */
export function Markdown({ source, pathFor }: { source: string; pathFor?: PathFor }) {
  const blocks = parseMarkdown(source);
  return (
    <BlockStack gap="300">
      {blocks.map((block, index) => {
        const key = `b${index}`;
        switch (block.type) {
          case "heading": {
            const as = (["h2", "h2", "h3"] as const)[block.level - 1];
            const variant = (["headingLg", "headingMd", "headingSm"] as const)[block.level - 1];
            return (
              <Text key={key} as={as} variant={variant}>
                {renderInline(block.text, key, pathFor)}
              </Text>
            );
          }
          case "list":
            return (
              <List key={key} type={block.ordered ? "number" : "bullet"}>
                {block.items.map((item, j) => (
                  <List.Item key={`${key}-${j}`}>{renderInline(item, `${key}-${j}`, pathFor)}</List.Item>
                ))}
              </List>
            );
          case "quote":
            return (
              <Box key={key} paddingInlineStart="400" borderInlineStartWidth="050" borderColor="border-emphasis">
                <Text as="p" tone="subdued">
                  {renderInline(block.text, key, pathFor)}
                </Text>
              </Box>
            );
          default:
            return (
              <Text key={key} as="p">
                {renderInline(block.text, key, pathFor)}
              </Text>
            );
        }
      })}
    </BlockStack>
  );
}
