// Where the research pages and their neighbours live on each surface. The site's pages rely on its
// session cookie, which the Shopify admin iframe never has: inside the admin every link stays under
// /app, except the product pages editor, which has no embedded twin yet and opens on the site in a new
// tab (a first-party window, where the site's sign-in works).
export type Surface = "site" | "embedded";

export interface ResearchPaths {
  products: string;
  product: (objectID: string) => string;
  saved: string;
  /** Where a user with locked insights is sent to choose a plan. */
  upgrade: string;
  /** Where credits are bought. */
  billing: string;
  /** The product pages editor, and whether it opens outside the surface. */
  productPages: { url: string; external: boolean };
}

function pathsUnder(root: string) {
  return {
    products: `${root}/products`,
    product: (objectID: string) => `${root}/products/${encodeURIComponent(objectID)}`,
    saved: `${root}/saved`,
  };
}

export function researchPaths(surface: Surface): ResearchPaths {
  if (surface === "site") {
    return {
      ...pathsUnder("/dashboard"),
      upgrade: "/choose-plan",
      billing: "/dashboard/billing",
      productPages: { url: "/dashboard/product-pages", external: false },
    };
  }
  return {
    ...pathsUnder("/app"),
    upgrade: "/app/billing",
    billing: "/app/billing",
    productPages: { url: "/dashboard/product-pages", external: true },
  };
}
