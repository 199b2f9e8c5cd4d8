-- Product page descriptions are written in Markdown (docs/decisions/029). NULL marks a page written
-- before: its descriptionHtml is converted to Markdown when read, and stored as Markdown on its next save.
-- descriptionHtml stays: the HTML rendered from the Markdown, what Shopify receives.
ALTER TABLE "ProductPage" ADD COLUMN "descriptionMarkdown" TEXT;
