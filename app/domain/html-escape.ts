// Escaping text for HTML, shared by the description sanitizer (product-page.ts) and the Markdown renderer
// (description-markdown.ts). Text escaped here can never open a tag or leave an attribute's quotes.

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}
