// The embedded app's pages, in the order of its navigation menu (app/routes/app.tsx) and of the
// "everything in the app" links on its home page.
export interface EmbeddedPage {
  title: string;
  url: string;
  description: string;
}

export const EMBEDDED_PAGES: readonly EmbeddedPage[] = [
  {
    title: "Products",
    url: "/app/products",
    description: "Search the product database by niche, trend stage, margin and winning score.",
  },
  { title: "Saved", url: "/app/saved", description: "The products you saved and track, and your saved searches." },
  {
    title: "Product drops",
    url: "/app/drops",
    description: "Every week, 8 to 20 products picked by our rules from their evidence, a new mix across niches, each with its reason.",
  },
  {
    title: "Product pages",
    url: "/app/product-pages",
    description: "Pages written from research products: edit them and push them to your store as drafts.",
  },
  {
    title: "AI ads",
    url: "/app/ai-ads",
    description: "Short vertical video ads written from a product's own numbers: a free preview, full HD for 5 credits.",
  },
  {
    title: "Brand kits",
    url: "/app/brand-kits",
    description: "Your logo, colours, font and tone of voice, applied to AI ads and product pages.",
  },
  {
    title: "TikToks",
    url: "/app/tiktoks",
    description: "TikTok videos you saved against products: hooks that worked, offered to the AI ad writer.",
  },
  {
    title: "Research assistant",
    url: "/app/assistant",
    description: "Ask for products in plain words; each answer lists products and the filters it used.",
  },
  {
    title: "Glitch mode",
    url: "/app/glitch-mode",
    description: "Products that sell on Amazon for far more than they cost, ranked by the spread; reveal one for a credit.",
  },
  {
    title: "Competitors",
    url: "/app/competitors",
    description: "Rival Shopify stores you follow: their launches, price changes and an estimate of their orders.",
  },
  {
    title: "Course",
    url: "/app/course",
    description: "78 short lessons, from choosing a niche to a profitable month.",
  },
  {
    title: "Billing & credits",
    url: "/app/billing",
    description: "Your plan, the next bill and your credit balances.",
  },
  {
    title: "Stores & themes",
    url: "/app/stores",
    description: "Your linked stores and the theme tokens for the product-page block.",
  },
  {
    title: "Settings",
    url: "/app/settings",
    description: "The linked account, this store's link, Zendrop and the community.",
  },
];
