// Where the research pages and their neighbours live on each surface: the site's paths, turned into
// their embedded twins inside Shopify admin by app/domain/shopify/embedded-paths.ts (the one list of twins).
import { sitePathOn, type Surface } from "~/domain/shopify/embedded-paths";

export type { Surface };

export interface ResearchPaths {
  products: string;
  product: (objectID: string) => string;
  saved: string;
  /** Where a user with locked insights is sent to choose a plan. */
  upgrade: string;
  /** Billing & credits. */
  billing: string;
  /** Where credits come from: the credit packs on Billing & credits (and the plans above them). */
  credits: string;
  /** The product pages: the list, and the editor with ?page={id}. */
  productPages: string;
  /** AI video ads: the list, and a new ad for a product with ?product={objectID}. */
  aiAds: string;
  /** Glitch mode: qualifying products ranked by their price spread. */
  glitchMode: string;
}

export function researchPaths(surface: Surface): ResearchPaths {
  const on = (sitePath: string) => sitePathOn(surface, sitePath);
  const products = on("/dashboard/products");
  return {
    products,
    product: (objectID: string) => `${products}/${encodeURIComponent(objectID)}`,
    saved: on("/dashboard/saved"),
    upgrade: on("/choose-plan"),
    billing: on("/dashboard/billing"),
    credits: on("/dashboard/billing#buy-credits"),
    productPages: on("/dashboard/product-pages"),
    aiAds: on("/dashboard/ai-ads"),
    glitchMode: on("/dashboard/glitch-mode"),
  };
}

