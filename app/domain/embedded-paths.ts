// The site's pages and their twins inside Shopify admin, for links written once in shared content (a
// lesson's "try it" link, links in lesson text) that must stay inside the embedded app when shown there:
// the admin's iframe has no site cookie, so a /dashboard link would land on the site's sign-in.

interface Twin {
  site: string;
  embedded: string;
  /** Sub-pages map too (/dashboard/course/3 -> /app/course/3). */
  withSubpages: boolean;
}

const TWINS: Twin[] = [
  { site: "/dashboard", embedded: "/app", withSubpages: false },
  { site: "/dashboard/products", embedded: "/app/products", withSubpages: true },
  { site: "/dashboard/saved", embedded: "/app/saved", withSubpages: false },
  { site: "/dashboard/course", embedded: "/app/course", withSubpages: true },
  { site: "/dashboard/billing", embedded: "/app/billing", withSubpages: false },
  { site: "/dashboard/stores", embedded: "/app/stores", withSubpages: false },
  { site: "/dashboard/account", embedded: "/app/settings", withSubpages: false },
];

/** Parameters only the site's pages read (the dashboard's ?location=dashboard). */
const SITE_ONLY_PARAMS = ["location"];

/**
 * The embedded app's page for a site path, with the same query (and fragment), or null when the
 * embedded app has no twin for it. Anything that is not a path of ours is null too.
 */
export function embeddedTwin(sitePath: string): string | null {
  if (!sitePath.startsWith("/") || sitePath.startsWith("//")) return null;
  const url = new URL(sitePath, "https://site.invalid");
  const twin = TWINS.find((t) => url.pathname === t.site || (t.withSubpages && url.pathname.startsWith(`${t.site}/`)));
  if (!twin) return null;
  for (const name of SITE_ONLY_PARAMS) url.searchParams.delete(name);
  const query = url.searchParams.toString();
  return `${twin.embedded}${url.pathname.slice(twin.site.length)}${query ? `?${query}` : ""}${url.hash}`;
}
