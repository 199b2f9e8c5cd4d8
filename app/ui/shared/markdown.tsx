// The Markdown renderer for lesson bodies: it walks the one Markdown parser's tree (domain/markdown,
// decision 099; the product description's HTML writer walks the same tree): headings ("#" to "######"),
// paragraphs, bullet and numbered lists, block quotes, **bold**, *italic*, `code` and [links](url).
// It builds React elements, never HTML strings, so every character of the text is escaped by React;
// no dangerouslySetInnerHTML.
// Links are kept only for http(s), mailto and paths inside the product; anything else (javascript:,
// data:, protocol-relative //host) is shown as plain text. Shared by both surfaces: a surface passes
// `pathFor` to point the product's own paths at its pages (null: no such page there, text only).
import { BlockStack, Box, Link, List, Text } from "@shopify/polaris";
import { Fragment, type ReactNode } from "react";
import { parseInline, type MarkdownInline } from "~/domain/markdown/inline";
import { FULL_MARKDOWN, headingTag, parseMarkdown } from "~/domain/markdown/parse";

/** The link targets we render as links; null means "show the text only". */
export function safeHref(url: string): string | null {
  const u = url.trim();
  if (/^https?:\/\/[^\s]+$/i.test(u) || /^mailto:[^\s]+$/i.test(u)) return u;
  if (/^\/(?!\/)[^\s]*$/.test(u) || /^#[\w-]+$/.test(u)) return u;
  return null;
}

export type PathFor = (path: string) => string | null;

function inlineNodes(nodes: MarkdownInline[], keyPrefix: string, pathFor?: PathFor): ReactNode[] {
  return nodes.map((node, n) => {
    const key = `${keyPrefix}-${n}`;
    switch (node.type) {
      case "text":
        return node.text;
      case "break":
        return <br key={key} />;
      case "code":
        return <code key={key}>{node.text}</code>;
      case "strong":
        return <strong key={key}>{inlineNodes(node.children, key, pathFor)}</strong>;
      case "em":
        return <em key={key}>{inlineNodes(node.children, key, pathFor)}</em>;
      case "link": {
        const safe = safeHref(node.href);
        const href = safe && pathFor && safe.startsWith("/") ? pathFor(safe) : safe;
        const label = inlineNodes(node.children, key, pathFor);
        if (!href) return <Fragment key={key}>{label}</Fragment>;
        return (
          <Link key={key} url={href} external={/^https?:/i.test(href)}>
            {label}
          </Link>
        );
      }
    }
  });
}

/** Inline Markdown (a block's text) as React nodes. */
export function renderInline(text: string, keyPrefix = "i", pathFor?: PathFor): ReactNode[] {
  return inlineNodes(parseInline(text, FULL_MARKDOWN), keyPrefix, pathFor);
}

/**
 * Renders lesson Markdown with Polaris text styles. The page title is the page's only h1, so "#" and
 * "##" (the sections of a lesson) become h2, and "###" and deeper h3 (headingTag, as descriptions do).
 */
export function Markdown({ source, pathFor }: { source: string; pathFor?: PathFor }) {
  const blocks = parseMarkdown(source, FULL_MARKDOWN);
  return (
    <BlockStack gap="300">
      {blocks.map((block, index) => {
        const key = `b${index}`;
        switch (block.type) {
          case "heading": {
            const variant = block.level === 1 ? "headingLg" : block.level === 2 ? "headingMd" : "headingSm";
            return (
              <Text key={key} as={headingTag(block.level)} variant={variant}>
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
